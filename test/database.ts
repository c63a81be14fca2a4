import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, type Db } from '../infra/db.js';
import { requireTestEnv } from './env.js';

export type TestDatabase = {
  name: string;
  url: string;
  db: Db;
  reset(): Promise<void>;
  drop(): Promise<void>;
};

function urlForDatabase(database: string): string {
  const url = new URL(requireTestEnv('adminDatabaseUrl'));
  url.pathname = `/${database}`;
  return url.toString();
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: requireTestEnv('adminDatabaseUrl') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh database cloned from the migrated template: one per test file, so files never share rows. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `tollgate_test_${randomBytes(6).toString('hex')}`;
  const template = requireTestEnv('templateDatabase');
  await withAdmin((admin) => admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  const url = urlForDatabase(name);
  const db = createDb(url, { maxConnections: 5 });
  return {
    name,
    url,
    db,
    // Isolation between the tests of one file.
    async reset() {
      const tables = await db.$queryRaw<{ tablename: string }[]>`
        SELECT tablename::text AS tablename FROM pg_tables
        WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`;
      if (tables.length === 0) return;
      const list = tables.map(({ tablename }) => `"public"."${tablename}"`).join(', ');
      // The worker may still be recording what the previous test set off (a webhook attempt after
      // the receiver already answered): a transaction locking those tables in another order makes
      // PostgreSQL pick the TRUNCATE as a deadlock victim. Once that transaction ends it goes through.
      for (let attempt = 1; ; attempt += 1) {
        try {
          await db.$executeRawUnsafe(`TRUNCATE ${list} RESTART IDENTITY CASCADE`);
          return;
        } catch (error) {
          const deadlock = error instanceof Error && error.message.includes('40P01');
          if (!deadlock || attempt === 5) throw error;
        }
      }
    },
    async drop() {
      await db.$disconnect();
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
