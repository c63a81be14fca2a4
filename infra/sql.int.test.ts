import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { Prisma } from '../generated/prisma/client.js';
import {
  findOrderWithItems,
  insertOrderWithItems,
  markOrderPaidIfPending,
} from '../domain/orders/repository.js';
import { findMeter } from '../domain/meters/repository.js';
import { findOrganizationById } from '../domain/organizations/repository.js';
import { lockSubscriptionForStep, updateSubscriptionRecord } from '../domain/subscriptions/repository.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { createMeter, createOrganization } from '../test/factories.js';
import { transaction, type Tx } from './db.js';
import { columnOf, insertRows } from './sql.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});
beforeEach(async () => {
  await database.reset();
});

async function subscriptionFixture() {
  const { db } = database;
  const organization = await createOrganization(db);
  const customer = await db.customer.create({
    data: { organizationId: organization.id, email: 'ada@example.test', name: 'Ada' },
  });
  const product = await db.product.create({
    data: { organizationId: organization.id, name: 'Pro', recurringInterval: 'month' },
  });
  const start = new Date('2026-01-31T00:00:00.000Z');
  const subscription = await db.subscription.create({
    data: {
      organizationId: organization.id,
      customerId: customer.id,
      productId: product.id,
      status: 'active',
      amount: 2500,
      currency: 'usd',
      recurringInterval: 'month',
      billingAnchor: start,
      currentPeriodStart: start,
      currentPeriodEnd: new Date('2026-02-28T00:00:00.000Z'),
      startedAt: start,
      metadata: { plan: 'pro', seats: 3 },
      paymentMethod: { brand: 'visa', last4: '4242' },
      periodLedgerSince: start,
      paymentProcessor: 'sandbox',
    },
  });
  return { organization, customer, product, subscription };
}

const txidViaSql = async (tx: Tx) =>
  (await tx.sql.query<{ id: string }>('SELECT txid_current()::text AS id')).rows[0]!.id;
const txidViaPrisma = async (tx: Tx) =>
  (await tx.prisma.$queryRaw<{ id: string }[]>`SELECT txid_current()::text AS id`)[0]!.id;

describe('transaction', () => {
  it('runs plain SQL and Prisma in one PostgreSQL transaction', async () => {
    const { db } = database;
    const ids = await transaction(db, async (tx) => {
      const viaSql = await txidViaSql(tx);
      const viaPrisma = await txidViaPrisma(tx);
      return { viaSql, viaPrisma };
    });
    expect(ids.viaSql).toBe(ids.viaPrisma);
  });

  it('commits both together, unseen by other connections until then', async () => {
    const { db } = database;
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    try {
      const organization = await createOrganization(db);
      await transaction(db, async (tx) => {
        await tx.sql.query(`UPDATE organizations SET name = 'Renamed by SQL' WHERE id = $1::uuid`, [
          organization.id,
        ]);
        // Prisma in the same transaction sees what plain SQL wrote; another connection does not.
        const seen = await tx.prisma.organization.findUniqueOrThrow({ where: { id: organization.id } });
        expect(seen.name).toBe('Renamed by SQL');
        const outside = await other.query('SELECT name FROM organizations WHERE id = $1::uuid', [
          organization.id,
        ]);
        expect(outside.rows[0].name).toBe(organization.name);
      });
      const after = await other.query('SELECT name FROM organizations WHERE id = $1::uuid', [
        organization.id,
      ]);
      expect(after.rows[0].name).toBe('Renamed by SQL');
    } finally {
      await other.end();
    }
  });

  it('rolls back what both wrote when the work throws', async () => {
    const { db } = database;
    const organization = await createOrganization(db);
    await expect(
      transaction(db, async (tx) => {
        await tx.sql.query(`UPDATE organizations SET name = 'Lost' WHERE id = $1::uuid`, [organization.id]);
        await tx.prisma.organization.update({
          where: { id: organization.id },
          data: { website: 'https://lost.test' },
        });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const row = await db.organization.findUniqueOrThrow({ where: { id: organization.id } });
    expect(row).toMatchObject({ name: organization.name, website: organization.website });
  });

  it('keeps concurrent transactions on their own connections', async () => {
    const { db } = database;
    const pairs = await Promise.all(
      Array.from({ length: 8 }, () =>
        transaction(db, async (tx) => {
          const viaSql = await txidViaSql(tx);
          await new Promise((resolve) => setTimeout(resolve, 20));
          const viaPrisma = await txidViaPrisma(tx);
          return [viaSql, viaPrisma];
        }),
      ),
    );
    for (const [viaSql, viaPrisma] of pairs) expect(viaSql).toBe(viaPrisma);
    expect(new Set(pairs.map(([id]) => id)).size).toBe(8);
  });
});

describe('plain SQL reads rows in the shape Prisma returns', () => {
  it('every table holds exactly the snake_case columns of one model’s scalar fields', async () => {
    const columnSets = Object.values(Prisma.ModelName).map((model) => {
      const fields = (Prisma as unknown as Record<string, Record<string, string>>)[
        `${model}ScalarFieldEnum`
      ]!;
      return Object.keys(fields).map(columnOf).sort().join(',');
    });
    const { rows } = await database.db.sql.query<{ table: string; columns: string[] }>(
      `SELECT table_name AS table, array_agg(column_name::text ORDER BY column_name) AS columns
       FROM information_schema.columns
       WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
       GROUP BY table_name`,
    );
    expect(rows).toHaveLength(columnSets.length);
    for (const { table, columns } of rows) {
      expect({ table, matchesAModel: columnSets.includes([...columns].sort().join(',')) }).toEqual({
        table,
        matchesAModel: true,
      });
    }
  });

  it('an organization read by plain SQL equals what Prisma reads', async () => {
    const { db } = database;
    const organization = await createOrganization(db);
    await db.organization.update({
      where: { id: organization.id },
      data: {
        address: { country: 'US', state: 'CA', line1: '1 Broadway' },
        socials: [{ platform: 'x', url: 'https://x.com/bench' }],
        details: { about: 'Field guides' },
        detailsSubmittedAt: new Date('2026-03-01T10:00:00.000Z'),
        prorationBehavior: 'invoice',
      },
    });
    const viaSql = await findOrganizationById(db.sql, organization.id);
    expect(viaSql).toEqual(await db.organization.findUnique({ where: { id: organization.id } }));
    expect(await findOrganizationById(db.sql, '00000000-0000-4000-8000-000000000000')).toBeNull();
  });

  it('a meter read by plain SQL equals what Prisma reads, only within its organizations', async () => {
    const { db } = database;
    const organization = await createOrganization(db);
    const meter = await createMeter(db, organization.id, {
      aggregation: { func: 'sum', property: 'tokens' },
      metadata: { team: 'core' },
    });
    expect(await findMeter(db.sql, meter.id, [organization.id])).toEqual(meter);
    const other = await createOrganization(db);
    expect(await findMeter(db.sql, meter.id, [other.id])).toBeNull();
  });

  it('a subscription locked for a step equals what Prisma reads', async () => {
    const { subscription } = await subscriptionFixture();
    const locked = await transaction(database.db, (tx) => lockSubscriptionForStep(tx.sql, subscription.id));
    expect(locked).toEqual({ record: subscription, prices: [], pendingItems: [] });
  });

  it('a subscription updated by plain SQL equals what Prisma reads after', async () => {
    const { db } = database;
    const { subscription } = await subscriptionFixture();
    const updated = await transaction(db, (tx) =>
      updateSubscriptionRecord(tx.sql, subscription.id, {
        currentPeriodIndex: 1,
        metadata: { plan: 'team' },
        discountId: null,
        nextAttemptAt: new Date('2026-03-02T10:00:00.000Z'),
      }),
    );
    expect(updated).toEqual(await db.subscription.findUniqueOrThrow({ where: { id: subscription.id } }));
    expect(updated).toMatchObject({ currentPeriodIndex: 1, metadata: { plan: 'team' } });
  });

  it('an order and its lines written, read and paid by plain SQL equal what Prisma reads', async () => {
    const { db } = database;
    const { organization, customer, product, subscription } = await subscriptionFixture();
    const at = new Date('2026-02-28T00:00:00.000Z');
    const inserted = await transaction(db, (tx) =>
      insertOrderWithItems(
        tx.sql,
        {
          organizationId: organization.id,
          status: 'pending',
          seats: 5,
          subtotalAmount: 2500,
          discountAmount: 0,
          netAmount: 2500,
          taxAmount: 475,
          totalAmount: 2975,
          currency: 'usd',
          billingReason: 'subscription_cycle',
          billingName: 'Ada',
          billingAddress: { country: 'DE', city: 'Berlin' },
          customerId: customer.id,
          productId: product.id,
          productName: product.name,
          discountId: null,
          subscriptionId: subscription.id,
          requestKey: `subscription:${subscription.id}:cycle:1`,
          metadata: {},
          createdAt: at,
        },
        [
          {
            label: 'Pro',
            amount: 2500,
            taxAmount: 475,
            proration: false,
            productPriceId: null,
            createdAt: at,
          },
          {
            label: 'Credit',
            amount: -100,
            taxAmount: 0,
            proration: true,
            productPriceId: null,
            createdAt: new Date(at.getTime() + 1),
          },
        ],
      ),
    );
    const viaPrisma = () =>
      db.order.findUniqueOrThrow({
        where: { id: inserted.id },
        include: { items: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } },
      });
    expect(inserted).toEqual(await viaPrisma());
    expect(await findOrderWithItems(db.sql, inserted.id)).toEqual(await viaPrisma());

    const paidAt = new Date('2026-02-28T00:00:05.000Z');
    const paid = await transaction(db, (tx) => markOrderPaidIfPending(tx.sql, inserted.id, 'pi_1', paidAt));
    const { items: _items, ...order } = await viaPrisma();
    expect(paid).toEqual(order);
    expect(order).toMatchObject({ status: 'paid', paymentId: 'pi_1', modifiedAt: paidAt });
    // Paid already: a second call changes nothing.
    expect(
      await transaction(db, (tx) => markOrderPaidIfPending(tx.sql, inserted.id, 'pi_2', paidAt)),
    ).toBeNull();
  });

  it('refuses a Prisma null sentinel, which would be stored as {}', async () => {
    const organization = await createOrganization(database.db);
    await expect(
      insertRows(
        database.db.sql,
        'customers',
        [{ organizationId: organization.id, email: 'x@example.test', billingAddress: Prisma.DbNull }],
        { returning: { id: 'id' }, jsonFields: ['billingAddress'] },
      ),
    ).rejects.toThrow(TypeError);
  });
});
