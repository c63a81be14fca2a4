import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.js';

export type Db = PrismaClient;

/**
 * How long a query may wait for a connection of the pool. The same limit covers connecting, so it
 * also bounds how long a request hangs while PostgreSQL is down (readiness has its own, shorter
 * timeout). A burst (a launch with a limited discount code) queues many transactions behind a few
 * connections: they must wait their turn, not fail.
 */
const POOL_WAIT_MS = 20_000;
/** How long one interactive transaction may hold its connection, waits for row locks included. */
const TRANSACTION_TIMEOUT_MS = 30_000;

export function createDb(databaseUrl: string, options: { maxConnections?: number } = {}): Db {
  const adapter = new PrismaPg({
    connectionString: databaseUrl,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: POOL_WAIT_MS,
  });
  return new PrismaClient({
    adapter,
    // Prisma's defaults (2 s to get a connection, 5 s to finish) make every write transaction fail
    // under a burst that merely has to wait its turn.
    transactionOptions: { maxWait: POOL_WAIT_MS, timeout: TRANSACTION_TIMEOUT_MS },
  });
}

/** A round trip to PostgreSQL through the pool (readiness). */
export async function pingDatabase(db: Db): Promise<void> {
  await db.$queryRaw`SELECT 1`;
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
