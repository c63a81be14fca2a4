// Meter cycles of their own (product `meter_interval`) on the time-skipping server: a yearly plan
// whose metered usage is billed, and whose meter credits reset, every month
// (domain/subscriptions/meter-cycles.ts, meter-cycling.ts).
import { describe, expect, it } from '@jest/globals';
import { addCalendarMonths } from '../domain/subscriptions/rules.js';
import { insertEvents } from '../domain/usage/repository.js';
import { createOrganization } from '../test/factories.js';
import { subscriptionWorkflowHarness } from '../test/subscription-workflow-harness.js';

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
  const h = subscriptionWorkflowHarness('meter-cycles');

  /**
   * A yearly plan of 120.00 with calls metered monthly (`meter_interval: month`), bought now (the
   * test server's clock); 13 months of usage and of the meter credit's monthly 100 calls written
   * ahead, each dated in its month, as ingestion and the meter_credit benefit date them.
   */
  async function subscribeYearlyWithMonthlyMeters() {
    const db = h.db;
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
    const { subscription: row, at } = await h.subscribe({
      interval: 'year',
      amount: 12000,
      product: { product, price: fee },
      prices: [
        { productPriceId: fee.id, amount: 12000 },
        { productPriceId: calls.id, amount: 0 },
      ],
    });
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
      data: { benefitId: benefit.id, customerId: row.customerId, subscriptionId: row.id, grantedAt: at },
    });
    const monthStart = (month: number) => addCalendarMonths(at, month);
    const events = Array.from({ length: 13 }, (_, month) => [
      {
        organizationId: organization.id,
        name: 'meter.credited',
        source: 'system' as const,
        timestamp: monthStart(month),
        customerId: row.customerId,
        externalCustomerId: null,
        externalId: null,
        metadata: { meter_id: meter.id, units: CREDITS, rollover: false },
      },
      ...Array.from({ length: usedIn(month) }, (_, call) => ({
        organizationId: organization.id,
        name: 'calls',
        source: 'user' as const,
        timestamp: new Date(monthStart(month).getTime() + HOUR_MS + call * 1000),
        customerId: row.customerId,
        externalCustomerId: null,
        externalId: null,
        metadata: {},
      })),
    ]).flat();
    await insertEvents(db.sql, events);
    return { subscription: row, at, monthStart, benefit };
  }

  const { start, rowOf } = h;
  const withWorker = <T>(work: (taskQueue: string) => Promise<T>, crashed?: string[]) =>
    h.withWorker(work, crashed ? { crashAfter: BOUNDARIES, crashed } : {});
  /** Its orders with their items in the order they were written (the harness's leaves them unordered). */
  const ordersOf = (subscriptionId: string) =>
    h.db.order.findMany({
      where: { subscriptionId },
      orderBy: { createdAt: 'asc' },
      include: { items: { orderBy: { createdAt: 'asc' } } },
    });

  /** Lives through 13 months, an hour past each month's start. */
  async function liveThirteenMonths(subscriptionId: string, monthStart: (month: number) => Date) {
    for (let month = 1; month <= 13; month += 1) {
      await h.env.sleep(monthStart(month).getTime() + HOUR_MS - (await h.env.currentTimeMs()));
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
    const payments = await h.chargesOf(subscriptionId);
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
      await h.env.sleep(HOUR_MS);
      const handle = h.handleOf(subscription.id);
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
    const grant = await h.db.benefitGrant.findFirstOrThrow({ where: { benefitId: benefit.id } });
    expect(grant.cyclesRequested).toBe(13);
    expect(grant.cycledAt).toEqual(monthStart(13));
    const types = await h.eventTypes(subscription.organizationId);
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
    const receipts = await h.db.emailMessage.count({
      where: { idempotencyKey: { endsWith: ':receipt' }, toAddress: { startsWith: 'buyer-' } },
    });
    expect(receipts).toBe(13);
  });
});
