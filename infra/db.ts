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

export function createDb(databaseUrl: string, options: { maxConnections?: number } = {}): Db {
  const adapter = new PrismaPg({
    connectionString: databaseUrl,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: POOL_WAIT_MS,
  });
  return new PrismaClient({ adapter });
}

/** A round trip to PostgreSQL through the pool (readiness). */
export async function pingDatabase(db: Db): Promise<void> {
  await db.$queryRaw`SELECT 1`;
}

/** node-postgres gave up waiting for a connection: the database is overloaded or unreachable. */
export function isConnectionWaitTimeout(error: unknown): boolean {
  return error instanceof Error && error.message === 'timeout exceeded when trying to connect';
}
