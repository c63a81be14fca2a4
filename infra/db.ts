import { AsyncLocalStorage } from 'node:async_hooks';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { Prisma } from '../generated/prisma/client.js';
import { PrismaClient } from '../generated/prisma/client.js';

/**
 * Prisma for most work, and beside it the pool Prisma itself uses (`sql`), for the few statements
 * on paths that run thousands of times a minute: Prisma 6's query compiler costs ~0.4 ms of CPU per
 * query on the event loop, node-postgres ~0.1 ms (measured in docs/performance.md).
 */
export type Db = PrismaClient & { readonly sql: pg.Pool };
/** Where plain SQL runs: the pool, or the connection of a transaction (see `transaction`). */
export type SqlClient = Pick<pg.Pool, 'query'>;
/** One transaction seen through both: Prisma's client and its connection for plain SQL. */
export type Tx = { prisma: Prisma.TransactionClient; sql: SqlClient };

/**
 * How long a query may wait for a connection of the pool. The same limit covers connecting, so it
 * also bounds how long a request hangs while PostgreSQL is down (readiness has its own, shorter
 * timeout). A burst (a launch with a limited discount code) queues many transactions behind a few
 * connections: they must wait their turn, not fail.
 */
const POOL_WAIT_MS = 20_000;
/** How long one interactive transaction may hold its connection, waits for row locks included. */
const TRANSACTION_TIMEOUT_MS = 30_000;

/** The transaction being opened in this async context waits here for the connection it takes. */
const openingTransaction = new AsyncLocalStorage<{ connection: pg.PoolClient | null }>();

/**
 * The pool hands the first connection taken while a transaction opens to that transaction's
 * caller too: Prisma's adapter takes the connection of an interactive transaction from this pool
 * (`startTransaction` → `pool.connect()`), in the async context of `transaction` below.
 */
class TransactionAwarePool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(
    callback: (
      error: Error | undefined,
      client: pg.PoolClient | undefined,
      done: (release?: unknown) => void,
    ) => void,
  ): void;
  override connect(callback?: Parameters<pg.Pool['connect']>[0]): Promise<pg.PoolClient> | void {
    if (callback) return super.connect(callback);
    return super.connect().then((connection) => {
      const opening = openingTransaction.getStore();
      if (opening && !opening.connection) opening.connection = connection;
      return connection;
    });
  }
}

export function createDb(databaseUrl: string, options: { maxConnections?: number } = {}): Db {
  const pool = new TransactionAwarePool({
    connectionString: databaseUrl,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: POOL_WAIT_MS,
  });
  // An idle connection the server closes (a restart, a dropped database) is discarded by the pool,
  // and the next query opens another; without a listener the pool's 'error' event would crash
  // the process. Queries report their own failures.
  pool.on('error', () => undefined);
  const client = new PrismaClient({
    adapter: new PrismaPg(pool, { disposeExternalPool: true }),
    // Prisma's defaults (2 s to get a connection, 5 s to finish) make every write transaction fail
    // under a burst that merely has to wait its turn.
    transactionOptions: { maxWait: POOL_WAIT_MS, timeout: TRANSACTION_TIMEOUT_MS },
  });
  return Object.assign(client, { sql: pool });
}

/**
 * An interactive transaction in which Prisma and plain SQL share one connection: statements on
 * `sql` are part of the transaction, committed or rolled back with Prisma's.
 */
export async function transaction<T>(
  db: Db,
  work: (tx: Tx) => Promise<T>,
  options?: { maxWait?: number; timeout?: number },
): Promise<T> {
  const opening = { connection: null as pg.PoolClient | null };
  return openingTransaction.run(opening, () =>
    db.$transaction(async (prisma) => {
      if (!opening.connection) {
        throw new Error('the transaction opened without taking a connection from its pool');
      }
      return work({ prisma, sql: opening.connection });
    }, options),
  );
}

/** A round trip to PostgreSQL through the pool (readiness). */
export async function pingDatabase(db: Db): Promise<void> {
  await db.$queryRaw`SELECT 1`;
}

/** The database server's clock, read through the pool (the worker's readiness). */
export async function databaseTime(db: Db): Promise<Date | null> {
  const [row] = await db.$queryRaw<{ now: Date }[]>`SELECT now() AS now`;
  return row?.now ?? null;
}

/** PostgreSQL's SQLSTATEs for a server shutting down, starting up or a lost connection. */
const UNAVAILABLE_SQLSTATE = /^(57P0[123]|08\d{3})$/;
/** What node-postgres and PostgreSQL say when the server went away or never answered. */
const UNAVAILABLE_MESSAGE =
  /timeout exceeded when trying to connect|Connection terminated|connection error and is not queryable|terminating connection due to administrator command|the database system is (shutting down|starting up|in recovery mode)|ECONNREFUSED|ECONNRESET/;
/** Prisma reports a driver's SQLSTATE inside its own error (P2010 `Code: \`57P01\``). */
const SQLSTATE_IN_MESSAGE = /Code: `(57P0[123]|08\d{3})`/;
/** Prisma's driver adapter names these failures by kind. */
const UNAVAILABLE_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
]);

/**
 * The database could not serve the request: no connection within the wait (node-postgres' pool,
 * or Prisma's for a transaction, P2028), or PostgreSQL restarting, shutting down or dropping the
 * connection. The request may be retried (with an Idempotency-Key a retry never does the work twice).
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { code, kind, message, cause, meta } = error as {
    code?: unknown;
    kind?: unknown;
    message?: unknown;
    cause?: unknown;
    meta?: { driverAdapterError?: unknown };
  };
  if (typeof code === 'string' && UNAVAILABLE_SQLSTATE.test(code)) return true;
  if (typeof kind === 'string' && UNAVAILABLE_KINDS.has(kind)) return true;
  if (code === 'P1001' || code === 'P1017') return true;
  if (typeof message === 'string') {
    if (code === 'P2028' && /unable to start a transaction/i.test(message)) return true;
    if (UNAVAILABLE_MESSAGE.test(message) || SQLSTATE_IN_MESSAGE.test(message)) return true;
  }
  return [cause, meta?.driverAdapterError].some(
    (inner) => inner !== error && isDatabaseUnavailable(inner, depth + 1),
  );
}
