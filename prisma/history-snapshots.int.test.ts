import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { projectRoot } from '../scripts/lib/paths.js';
import { createOrganization } from '../test/factories.js';
import { createMetricsCatalog, seedCustomer, seedOrder, seedSubscription } from '../test/metrics-seed.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';

const MIGRATION = path.join(
  projectRoot,
  'prisma',
  'migrations',
  '20261128103912_history_snapshots',
  'migration.sql',
);

// The migration that records history (orders' product names, the products each plan has been on)
// fills it in for the rows that existed before it, from what they kept of their day.
describe('the history_snapshots migration on existing rows', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('names past orders after their first line and gives every plan the product it was bought as', async () => {
    const { db } = database;
    const organization = await createOrganization(db);
    const catalog = await createMetricsCatalog(db, organization.id);
    const customer = await seedCustomer(db, organization.id);
    const at = (day: number) => new Date(Date.UTC(2026, 0, day));
    const rename = (productId: string, name: string) =>
      db.product.update({ where: { id: productId }, data: { name } });
    await rename(catalog.monthly.productId, 'Pro monthly');
    await rename(catalog.yearly.productId, 'Pro yearly');
    await rename(catalog.oneTime.productId, 'Lamp');

    // A plan bought monthly and switched to yearly, renewed on the yearly plan; a one-time lamp.
    const plan = await seedSubscription(db, {
      organizationId: organization.id,
      customerId: customer.id,
      productId: catalog.yearly.productId,
      amount: 20_000,
      recurringInterval: 'year',
      startedAt: at(1),
    });
    const order = (productId: string, label: string, day: number, extra: object) =>
      seedOrder(db, {
        organizationId: organization.id,
        customerId: customer.id,
        productId,
        createdAt: at(day),
        netAmount: 2000,
        ...extra,
        items: { create: [{ label, amount: 2000, taxAmount: 0, createdAt: at(day) }] },
      });
    const created = await order(catalog.monthly.productId, 'Pro monthly', 1, {
      subscriptionId: plan.id,
      billingReason: 'subscription_create',
    });
    const renewed = await order(catalog.yearly.productId, 'Pro yearly', 10, {
      subscriptionId: plan.id,
      billingReason: 'subscription_cycle',
    });
    const lamp = await order(catalog.oneTime.productId, 'Lamp', 5, { billingReason: 'purchase' });

    // The database as it was before the migration, and the products renamed since.
    await db.sql.query('DROP TABLE subscription_products');
    await db.sql.query('ALTER TABLE orders DROP COLUMN product_name');
    await rename(catalog.monthly.productId, 'Starter (renamed)');
    await rename(catalog.yearly.productId, 'Annual (renamed)');
    await rename(catalog.oneTime.productId, 'Lamp 2');
    await db.sql.query(readFileSync(MIGRATION, 'utf8'));

    const names = await db.order.findMany({ select: { id: true, productName: true } });
    expect(new Map(names.map((row) => [row.id, row.productName]))).toEqual(
      new Map([
        [created.id, 'Pro monthly'],
        // A renewal's line is not named after the product alone: the present name is the best there is.
        [renewed.id, 'Annual (renamed)'],
        [lamp.id, 'Lamp'],
      ]),
    );
    const history = await db.subscriptionProduct.findMany({
      where: { subscriptionId: plan.id },
      orderBy: { since: 'asc' },
      select: { productId: true, productName: true, since: true },
    });
    expect(history).toEqual([
      { productId: catalog.monthly.productId, productName: 'Pro monthly', since: at(1) },
      { productId: catalog.yearly.productId, productName: 'Annual (renamed)', since: at(10) },
    ]);
  });
});
