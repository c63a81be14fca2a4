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

/**
 * No connection within the wait (node-postgres' pool, or Prisma's for a transaction, P2028): the
 * database is overloaded or unreachable, and nothing of the request was written in that step.
 */
export function isConnectionWaitTimeout(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.message === 'timeout exceeded when trying to connect') return true;
  return (
    (error as { code?: unknown }).code === 'P2028' && /unable to start a transaction/i.test(error.message)
  );
}
