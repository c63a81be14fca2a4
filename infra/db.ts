import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.js';

export type Db = PrismaClient;

export function createDb(databaseUrl: string, options: { maxConnections?: number } = {}): Db {
  const adapter = new PrismaPg({
    connectionString: databaseUrl,
    max: options.maxConnections ?? 10,
    // Fail fast when PostgreSQL is down, so readiness reports it instead of hanging.
    connectionTimeoutMillis: 3_000,
  });
  return new PrismaClient({ adapter });
}
