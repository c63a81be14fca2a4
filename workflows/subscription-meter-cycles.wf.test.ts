// Meter cycles of their own (product `meter_interval`) on the time-skipping server: a yearly plan
// whose metered usage is billed, and whose meter credits reset, every month
// (domain/subscriptions/meter-cycles.ts, meter-cycling.ts).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import pino from 'pino';
import { createSubscriptionActivities } from '../activities/subscriptions.js';
import { addCalendarMonths, subscriptionWorkflowId } from '../domain/subscriptions/rules.js';
import { startSubscription } from '../domain/subscriptions/service.js';
import { noTax } from '../domain/tax/rules.js';
import { insertEvents } from '../domain/usage/repository.js';
import { createSandboxProcessor } from '../integrations/sandbox/processor.js';
import { createMailer } from '../integrations/smtp/mailer.js';
import { temporalSubscriptionWorkflows } from '../temporal/subscriptions.js';
import { crashOnceAfterEachStep } from '../test/crash.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { requireTestEnv } from '../test/env.js';
import { createOrganization } from '../test/factories.js';
import { createRecordingSink } from '../test/stripe-factories.js';
import { createTimeSkippingEnvironment } from '../test/time-skipping.js';

const HOUR_MS = 60 * 60 * 1000;

/** Every activity that writes: the meter cycle, the renewal and a later try of an order. */
const BOUNDARIES = ['closeMeterCycle', 'renewSubscription', 'collectSubscriptionOrder'];

/** 2.5 cents a call; each month 100 calls are included (the meter credit). */
const UNIT_AMOUNT = '2.5';
const CREDITS = 100;
/** Calls used in month `k` of the plan: 110 + k, so 10 + k are billed. */
const usedIn = (month: number) => 110 + month;
/** (10 + k) × 2.5 cents, rounded once half up: 25, 28, 30, 33, … */
const billOf = (month: number) => Math.floor(((usedIn(month) - CREDITS) * 25 + 5) / 10);

describe('meter cycles of their own (time-skipping)', () => {
  let env: TestWorkflowEnvironment;
  let database: TestDatabase;

  beforeAll(async () => {
    env = await createTimeSkippingEnvironment();
    database = await createTestDatabase();
  });
  beforeEach(() => database.reset());
  afterAll(async () => {
    await env?.teardown();
    await database?.drop();
  });

  const processor = () => createSandboxProcessor({ db: database.db, sink: createRecordingSink() });

  /**
   * A yearly plan of 120.00 with calls metered monthly (`meter_interval: month`), bought now (the
   * test server's clock); 13 months of usage and of the meter credit's monthly 100 calls written
   * ahead, each dated in its month, as ingestion and the meter_credit benefit date them.
   */
  async function subscribeYearlyWithMonthlyMeters() {
    const db = database.db;
    const organization = await createOrganization(db);
    const meter = await db.meter.create({
      data: {
        organizationId: organization.id,
        name: 'Calls',
        filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'calls' }] },
        aggregation: { func: 'count' },
      },
    });
    const product = await db.product.create({
      data: {
        organizationId: organization.id,
        name: 'Yearly API plan',
        recurringInterval: 'year',
        recurringIntervalCount: 1,
        meterInterval: 'month',
        meterIntervalCount: 1,
      },
    });
    const fee = await db.productPrice.create({
      data: {
        organizationId: organization.id,
        productId: product.id,
        amountType: 'fixed',
        type: 'recurring',
        recurringInterval: 'year',
        priceCurrency: 'usd',
        priceAmount: 12000,
      },
    });
    const calls = await db.productPrice.create({
      data: {
        organizationId: organization.id,
        productId: product.id,
        amountType: 'metered_unit',
        type: 'recurring',
        recurringInterval: 'year',
        priceCurrency: 'usd',
        meterId: meter.id,
        unitAmount: UNIT_AMOUNT,
      },
    });
    const customer = await db.customer.create({
      data: { organizationId: organization.id, email: `buyer-${product.id}@example.test`, name: 'Ada' },
    });
    const { processorCustomerId } = await processor().ensureCustomer({
      idempotencyKey: `test:${customer.id}`,
      email: customer.email,
      name: customer.name,
      customerId: customer.id,
    });
    const at = new Date(await env.currentTimeMs());
    const row = await db.$transaction((tx) =>
      startSubscription(
        tx,
        {
          organizationId: organization.id,
          customerId: customer.id,
          productId: product.id,
          checkoutId: null,
          recurringInterval: 'year',
          recurringIntervalCount: 1,
          currency: 'usd',
          prices: [
            { productPriceId: fee.id, amount: 12000 },
            { productPriceId: calls.id, amount: 0 },
          ],
          amount: 12000,
          discountId: null,
          metadata: {},
          customFieldData: {},
          paymentProcessor: 'sandbox',
          savedPaymentMethod: {
            paymentMethodId: 'pm_card_visa',
            processorCustomerId,
            summary: null,
            expiry: null,
          },
          at,
        },
        'http://tollgate.test',
      ),
    );
    // The meter credit's grant: each cycle asks the benefits to credit again.
    const benefit = await db.benefit.create({
      data: {
        organizationId: organization.id,
        type: 'meter_credit',
        description: '100 calls a month',
        properties: { meter_id: meter.id, units: CREDITS, rollover: false },
      },
    });
    await db.benefitGrant.create({
      data: { benefitId: benefit.id, customerId: customer.id, subscriptionId: row.id, grantedAt: at },
    });
    const monthStart = (month: number) => addCalendarMonths(at, month);
    const events = Array.from({ length: 13 }, (_, month) => [
      {
        organizationId: organization.id,
        name: 'meter.credited',
        source: 'system' as const,
        timestamp: monthStart(month),
        customerId: customer.id,
        externalCustomerId: null,
        externalId: null,
        metadata: { meter_id: meter.id, units: CREDITS, rollover: false },
      },
      ...Array.from({ length: usedIn(month) }, (_, call) => ({
        organizationId: organization.id,
        name: 'calls',
        source: 'user' as const,
        timestamp: new Date(monthStart(month).getTime() + HOUR_MS + call * 1000),
        customerId: customer.id,
        externalCustomerId: null,
        externalId: null,
        metadata: {},
      })),
    ]).flat();
    await insertEvents(db.sql, events);
    return { subscription: row, at, monthStart, benefit };
  }

  async function withWorker<T>(work: (taskQueue: string) => Promise<T>, crashed?: string[]) {
    const taskQueue = `meter-cycles-${crypto.randomUUID()}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: { codePath: requireTestEnv('workflowBundle') },
      ...(crashed ? { interceptors: { activity: [crashOnceAfterEachStep(BOUNDARIES, crashed)] } } : {}),
      activities: createSubscriptionActivities({
        db: database.db,
        publicUrl: 'http://tollgate.test',
        mailer: createMailer({
          db: database.db,
          from: 'shop@example.test',
          logger: pino({ level: 'silent' }),
        }),
        processor: processor(),
        tax: noTax,
        workflows: { subscriptions: temporalSubscriptionWorkflows(env.client, taskQueue) },
      }),
    });
    return worker.runUntil(async () => {
      try {
        return await work(taskQueue);
      } finally {
        for (const id of started.splice(0)) {
          const handle = env.client.workflow.getHandle(subscriptionWorkflowId(id));
          if ((await handle.describe()).status.name === 'RUNNING') await handle.terminate('test over');
        }
      }
    });
  }
  const started: string[] = [];
  const start = (taskQueue: string, subscriptionId: string) => {
    started.push(subscriptionId);
    return temporalSubscriptionWorkflows(env.client, taskQueue).start(subscriptionId);
  };
  const ordersOf = (subscriptionId: string) =>
    database.db.order.findMany({
      where: { subscriptionId },
      orderBy: { createdAt: 'asc' },
      include: { items: { orderBy: { createdAt: 'asc' } } },
    });
  const rowOf = (subscriptionId: string) =>
    database.db.subscription.findUniqueOrThrow({ where: { id: subscriptionId } });

  /** Lives through 13 months, an hour past each month's start. */
  async function liveThirteenMonths(subscriptionId: string, monthStart: (month: number) => Date) {
    for (let month = 1; month <= 13; month += 1) {
      await env.sleep(monthStart(month).getTime() + HOUR_MS - (await env.currentTimeMs()));
    }
    return rowOf(subscriptionId);
  }

  /** 12 monthly usage bills (11 of their own, one on the renewal) and one yearly renewal. */
  async function expectThirteenMonthsBilled(subscriptionId: string, monthStart: (month: number) => Date) {
    const orders = await ordersOf(subscriptionId);
    const usage = (month: number) => ({ label: 'Calls', amount: billOf(month) });
    const shape = orders.map((order) => ({
      reason: order.billingReason,
      status: order.status,
      total: order.totalAmount,
      items: order.items.map((item) => ({ label: item.label, amount: item.amount })),
    }));
    const expected = [
      ...Array.from({ length: 11 }, (_, month) => ({
        reason: 'subscription_meter_cycle',
        status: 'paid',
        total: billOf(month),
        items: [usage(month)],
      })),
      {
        reason: 'subscription_cycle',
        status: 'paid',
        total: 12000 + billOf(11),
        items: [{ label: 'Yearly API plan', amount: 12000 }, usage(11)],
      },
      { reason: 'subscription_meter_cycle', status: 'paid', total: billOf(12), items: [usage(12)] },
    ];
    expect(shape).toEqual(expected);
    // Each order is made at its cycle's end: the month's start, by the subscription's anchor.
    orders.forEach((order, index) => {
      expect(order.createdAt.getTime()).toBeGreaterThanOrEqual(monthStart(index + 1).getTime());
      expect(order.createdAt.getTime()).toBeLessThan(monthStart(index + 1).getTime() + HOUR_MS);
    });
    expect(orders.map((order) => order.requestKey)).toEqual([
      ...Array.from(
        { length: 11 },
        (_, month) => `subscription:${subscriptionId}:meter-cycle:0:${monthStart(month + 1).toISOString()}`,
      ),
      `subscription:${subscriptionId}:cycle:1`,
      `subscription:${subscriptionId}:meter-cycle:1:${monthStart(13).toISOString()}`,
    ]);
    // One charge per order, never two.
    const payments = await database.db.sandboxPayment.findMany({
      where: { idempotencyKey: { startsWith: `subscription:${subscriptionId}:` } },
    });
    expect(payments.map((payment) => payment.idempotencyKey).sort()).toEqual(
      orders.map((order) => `${order.requestKey}:attempt:1`).sort(),
    );
    return orders;
  }

  it('a yearly plan with monthly meter cycles over 13 months: 12 monthly usage bills, one yearly renewal', async () => {
    const { subscription, monthStart, benefit } = await subscribeYearlyWithMonthlyMeters();
    expect(subscription.meterInterval).toBe('month');
    await withWorker(async (taskQueue) => {
      await start(taskQueue, subscription.id);
      await env.sleep(HOUR_MS);
      const handle = env.client.workflow.getHandle(subscriptionWorkflowId(subscription.id));
      expect(await handle.query<string>('waitingFor')).toBe(
        `the end of the meter cycle at ${monthStart(1)
          .toISOString()
          .replace(
            /\.\d{3}Z$/,
            'Z',
          )} in period 0, until the meter cycle's usage is billed in an order of its own, and its meters and meter credits start again at ${monthStart(
          1,
        )
          .toISOString()
          .replace(/\.\d{3}Z$/, 'Z')}`,
      );
      const row = await liveThirteenMonths(subscription.id, monthStart);
      expect(row).toMatchObject({ currentPeriodIndex: 1, status: 'active', failedAttempts: 0 });
      expect(row.currentPeriodStart).toEqual(monthStart(12));
      expect(row.meterPeriodStart).toEqual(monthStart(13));
    });
    await expectThirteenMonthsBilled(subscription.id, monthStart);
    // Each of the 13 boundaries (12 meter cycles closed, one renewal) cycled the meter credit.
    const grant = await database.db.benefitGrant.findFirstOrThrow({ where: { benefitId: benefit.id } });
    expect(grant.cyclesRequested).toBe(13);
    expect(grant.cycledAt).toEqual(monthStart(13));
    const types = (
      await database.db.outboxEvent.findMany({
        where: { organizationId: subscription.organizationId },
        orderBy: { sequence: 'asc' },
      })
    ).map((event) => event.type);
    expect(types.filter((type) => type === 'order.paid')).toHaveLength(13);
    // Only the renewal begins a new billing period.
    expect(types.filter((type) => type === 'subscription.cycled')).toHaveLength(1);
    expect(types.filter((type) => type === 'subscription.updated')).toHaveLength(13);
  });

  it('with a worker killed once after each step: nothing is lost or billed twice', async () => {
    const { subscription, monthStart } = await subscribeYearlyWithMonthlyMeters();
    const crashed: string[] = [];
    await withWorker(async (taskQueue) => {
      await start(taskQueue, subscription.id);
      await liveThirteenMonths(subscription.id, monthStart);
    }, crashed);
    expect(crashed).toEqual(['closeMeterCycle', 'renewSubscription']);
    await expectThirteenMonthsBilled(subscription.id, monthStart);
    const receipts = await database.db.emailMessage.count({
      where: { idempotencyKey: { endsWith: ':receipt' }, toAddress: { startsWith: 'buyer-' } },
    });
    expect(receipts).toBe(13);
  });
});
