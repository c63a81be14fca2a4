import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { projectRoot } from '../scripts/lib/paths.js';
import { pendingMigrations, runPrisma } from '../scripts/lib/prisma-cli.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { requireTestEnv } from '../test/env.js';

/** Everything about the public schema that a migration can change, in a comparable form. */
async function describeSchema(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const query = async (sql: string) => (await client.query(sql)).rows;
    return {
      columns: await query(`
        SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default,
               character_maximum_length, numeric_precision, numeric_scale, datetime_precision
        FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
        ORDER BY table_name, column_name`),
      constraints: await query(`
        SELECT rel.relname AS table_name, con.conname, pg_get_constraintdef(con.oid) AS definition
        FROM pg_constraint con JOIN pg_class rel ON rel.oid = con.conrelid
        JOIN pg_namespace ns ON ns.oid = rel.relnamespace
        WHERE ns.nspname = 'public' AND rel.relname <> '_prisma_migrations'
        ORDER BY rel.relname, con.conname`),
      indexes: await query(`
        SELECT tablename, indexname, indexdef FROM pg_indexes
        WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'
        ORDER BY tablename, indexname`),
      enums: await query(`
        SELECT t.typname, array_agg(e.enumlabel ORDER BY e.enumsortorder) AS labels
        FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid
        JOIN pg_namespace ns ON ns.oid = t.typnamespace
        WHERE ns.nspname = 'public' GROUP BY t.typname ORDER BY t.typname`),
    };
  } finally {
    await client.end();
  }
}

/** Partial indexes (Prisma cannot declare them), appended to their migrations by hand. */
const HAND_WRITTEN_INDEXES = [
  'benefit_grants_order_key',
  'benefit_grants_pending_idx',
  'benefit_grants_subscription_key',
  'customer_payment_methods_default_key',
  'customer_seats_live_order_holder',
  'customer_seats_live_subscription_holder',
  'customers_organization_id_email_live_key',
  'customers_organization_id_external_id_live_key',
  'discounts_organization_id_code_live_key',
  'events_organization_id_external_id_key',
  'events_unattached_external_customer_id_idx',
  'outbox_events_endpoint_id_idx',
];

/** Check constraints (Prisma cannot declare them), appended to their migrations by hand. */
const HAND_WRITTEN_CHECKS = [
  'discounts_redemptions_count_check',
  'orders_refunded_amount_check',
  'refunds_amount_check',
];

describe('prisma/migrations', () => {
  let fromMigrations: TestDatabase;
  let fromSchema: TestDatabase;

  beforeAll(async () => {
    fromMigrations = await createTestDatabase();
    // A second clone, emptied, then built straight from schema.prisma.
    fromSchema = await createTestDatabase();
    const admin = new pg.Client({ connectionString: fromSchema.url });
    await admin.connect();
    try {
      await admin.query('DROP SCHEMA public CASCADE');
      const sql = await runPrisma(
        ['migrate', 'diff', '--from-empty', '--to-schema-datamodel', 'prisma/schema.prisma', '--script'],
        requireTestEnv('adminDatabaseUrl'),
      );
      await admin.query(sql);
    } finally {
      await admin.end();
    }
  });
  afterAll(async () => {
    await fromMigrations?.drop();
    await fromSchema?.drop();
  });

  it('build the same database as schema.prisma, plus the indexes and checks written by hand', async () => {
    const migrated = await describeSchema(fromMigrations.url);
    const declared = await describeSchema(fromSchema.url);
    expect(migrated.columns.length).toBeGreaterThan(0);
    const isPartial = (index: { indexdef: string }) => / WHERE /.test(index.indexdef);
    const isCheck = (constraint: { definition: string }) => constraint.definition.startsWith('CHECK ');
    expect(migrated.indexes.filter(isPartial).map((index) => index.indexname)).toEqual(HAND_WRITTEN_INDEXES);
    expect(migrated.constraints.filter(isCheck).map((constraint) => constraint.conname)).toEqual(
      HAND_WRITTEN_CHECKS,
    );
    expect({
      ...migrated,
      indexes: migrated.indexes.filter((index) => !isPartial(index)),
      constraints: migrated.constraints.filter((constraint) => !isCheck(constraint)),
    }).toEqual(declared);
  });

  it('end at the schema snapshot that the next migration is generated from', () => {
    const read = (file: string) => readFileSync(path.join(projectRoot, 'prisma', file), 'utf8');
    expect(read('last-migration.prisma')).toBe(read('schema.prisma'));
  });

  it('are all applied on a migrated database (deploy is skipped); a missing or changed one is pending', async () => {
    const all = readdirSync(path.join(projectRoot, 'prisma', 'migrations'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    const [first, latest] = [all[0]!, all.at(-1)!];
    expect(await pendingMigrations(fromMigrations.url)).toEqual([]);
    await fromMigrations.db.sql.query(
      `UPDATE _prisma_migrations SET checksum = 'edited' WHERE migration_name = $1`,
      [latest],
    );
    expect(await pendingMigrations(fromMigrations.url)).toEqual([latest]);
    await fromMigrations.db.sql.query('DELETE FROM _prisma_migrations WHERE migration_name = $1', [first]);
    expect((await pendingMigrations(fromMigrations.url)).sort()).toEqual([first, latest]);
    // Built from schema.prisma: no migration table at all.
    expect((await pendingMigrations(fromSchema.url)).sort()).toEqual(all);
  });
});
