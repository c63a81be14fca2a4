import { beforeAll, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { RFCDate } from '@polar-sh/sdk/types/rfcdate.js';
import type { Customer, Order, Refund, Subscription } from '../../generated/prisma/client.js';
import { METRIC_SLUGS, type MetricsResponse } from '../../domain/metrics/schemas.js';
import { signUpUser } from '../../test/auth-client.js';
import { addMember, createAccessToken, createOrganization } from '../../test/factories.js';
import {
  createMetricsCatalog,
  seedCheckout,
  seedCustomer,
  seedOrder,
  seedRefund,
  seedSubscription,
  type MetricsCatalog,
} from '../../test/metrics-seed.js';
import { useTestStack } from '../../test/stack.js';

// Every figure of /v1/metrics/ against sums computed here, in plain JavaScript, over the rows the
// test wrote: half a year of orders, plans, checkouts, customers and refunds at random instants
// (a fixed seed), by hour, day, week, month and year, filtered and not.

/**
 * The figures this file computes from the seeded rows; the rest of 0.48.1's set (net revenue,
 * cancellations, churn, costs, …) is checked in metrics-0481.int.test.ts.
 */
const CHECKED_SLUGS = [
  'orders',
  'revenue',
  'cumulative_revenue',
  'average_order_value',
  'one_time_products',
  'one_time_products_revenue',
  'new_subscriptions',
  'new_subscriptions_revenue',
  'renewed_subscriptions',
  'renewed_subscriptions_revenue',
  'active_subscriptions',
  'monthly_recurring_revenue',
  'checkouts',
  'succeeded_checkouts',
  'checkouts_conversion',
  'new_customers',
  'refunds',
  'refunded_amount',
] as const;
type MetricSlug = (typeof CHECKED_SLUGS)[number];
type CheckedFigures = Record<MetricSlug, number>;
type CheckedAnswer = { periods: (CheckedFigures & { timestamp: string })[]; totals: CheckedFigures };

/** The answer's figures this file checks, and nothing else of it. */
function checked(answer: MetricsResponse): CheckedAnswer {
  const pick = (values: Record<MetricSlug, number>) =>
    Object.fromEntries(CHECKED_SLUGS.map((slug) => [slug, values[slug]])) as CheckedFigures;
  return {
    periods: answer.periods.map((period) => ({ timestamp: period.timestamp, ...pick(period) })),
    totals: pick(answer.totals),
  };
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Random but the same on every run (mulberry32). */
function randomness(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    integer: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    instant: (from: string, to: string) =>
      new Date(Date.parse(from) + Math.floor(next() * (Date.parse(to) - Date.parse(from)))),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (probability: number) => next() < probability,
  };
}

type Seeded = {
  catalog: MetricsCatalog;
  customers: Customer[];
  orders: Order[];
  subscriptions: Subscription[];
  checkouts: { createdAt: Date; status: string; productId: string; customerId: string | null }[];
  refunds: Refund[];
};

/** Half a year of one organization's business, spilling over both ends of 2025-01-01 … 2025-06-30. */
async function seedBusiness(env: ReturnType<typeof useTestStack>, organizationId: string, seed: number) {
  const { db } = env.database;
  const random = randomness(seed);
  const catalog = await createMetricsCatalog(db, organizationId);
  // Sold in euros now and then, for less than in dollars: the answer stays in dollars.
  const euros = await createMetricsCatalog(db, organizationId, 'eur');
  const seeded: Seeded = {
    catalog,
    customers: [],
    orders: [],
    subscriptions: [],
    checkouts: [],
    refunds: [],
  };

  for (let i = 0; i < 30; i += 1) {
    seeded.customers.push(
      await seedCustomer(db, organizationId, {
        createdAt: random.instant('2024-12-15', '2025-07-10'),
        deletedAt: random.chance(0.1) ? new Date('2025-08-01T00:00:00Z') : null,
      }),
    );
  }
  const customer = () => random.pick(seeded.customers);

  const kinds = [
    { product: catalog.oneTime, reason: 'purchase' },
    { product: catalog.monthly, reason: 'subscription_create' },
    { product: catalog.monthly, reason: 'subscription_cycle' },
    { product: catalog.yearly, reason: 'subscription_create' },
    { product: catalog.yearly, reason: 'subscription_update' },
  ] as const;
  // Most days see an order or none; the hourly range gets a busy day of its own.
  const placedAt = (i: number) =>
    i < 10 ? random.instant('2025-03-10', '2025-03-12') : random.instant('2024-12-20', '2025-07-05');
  for (let i = 0; i < 130; i += 1) {
    const kind = random.pick(kinds);
    const inEuros = random.chance(0.08);
    seeded.orders.push(
      await seedOrder(db, {
        organizationId,
        customerId: customer().id,
        productId: inEuros ? euros.oneTime.productId : kind.product.productId,
        billingReason: inEuros ? 'purchase' : kind.reason,
        currency: inEuros ? 'eur' : 'usd',
        netAmount: inEuros ? random.integer(100, 400) : random.integer(500, 9000),
        // Tax is the state's, not the seller's revenue.
        taxAmount: random.integer(0, 900),
        status: random.pick(['paid', 'paid', 'paid', 'paid', 'refunded', 'partially_refunded', 'pending']),
        createdAt: placedAt(i),
      }),
    );
  }

  for (let i = 0; i < 40; i += 1) {
    const yearly = random.chance(0.4);
    const startedAt = random.chance(0.1) ? null : random.instant('2024-11-01', '2025-06-30');
    seeded.subscriptions.push(
      await seedSubscription(db, {
        organizationId,
        customerId: customer().id,
        productId: yearly ? catalog.yearly.productId : catalog.monthly.productId,
        recurringInterval: yearly ? 'year' : 'month',
        // Yearly amounts that twelve does not divide: MRR rounds their sum once.
        amount: yearly ? random.integer(5000, 30_000) : random.integer(500, 5000),
        currency: random.chance(0.05) ? 'eur' : 'usd',
        startedAt,
        endedAt:
          startedAt && random.chance(0.4)
            ? new Date(startedAt.getTime() + random.integer(1, 120) * DAY_MS + random.integer(0, DAY_MS))
            : null,
      }),
    );
  }

  for (let i = 0; i < 65; i += 1) {
    const product = random.pick([catalog.oneTime, catalog.monthly, catalog.yearly]);
    const buyer = random.chance(0.7) ? customer().id : null;
    const row = await seedCheckout(db, catalog, {
      createdAt: placedAt(i),
      status: random.pick(['open', 'expired', 'succeeded', 'succeeded', 'failed', 'confirmed']),
      productId: product.productId,
      productIds: [product.productId],
      productPriceId: product.priceId,
      customerId: buyer,
    });
    seeded.checkouts.push({
      createdAt: row.createdAt,
      status: row.status,
      productId: row.productId,
      customerId: row.customerId,
    });
  }

  const refundable = seeded.orders.filter((order) => order.status !== 'pending');
  for (let i = 0; i < 25; i += 1) {
    const order = random.pick(refundable);
    seeded.refunds.push(
      await seedRefund(db, {
        organizationId,
        orderId: order.id,
        customerId: order.customerId,
        currency: order.currency,
        amount: random.integer(1, order.netAmount),
        taxAmount: random.integer(0, order.taxAmount),
        status: random.pick(['succeeded', 'succeeded', 'succeeded', 'pending', 'failed', 'canceled']),
        createdAt: new Date(order.createdAt.getTime() + random.integer(0, 20 * DAY_MS)),
      }),
    );
  }
  return seeded;
}

type Interval = 'hour' | 'day' | 'week' | 'month' | 'year';
type Filters = { productIds?: string[]; customerIds?: string[]; billingType?: 'one_time' | 'recurring' };

/** Where a period starts, as people count them in UTC: weeks on Monday, months on the 1st. */
function periodStart(interval: Interval, instant: Date): Date {
  const d = new Date(instant);
  if (interval === 'hour') return new Date(Math.floor(d.getTime() / HOUR_MS) * HOUR_MS);
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  if (interval === 'day') return new Date(day);
  if (interval === 'week') return new Date(day - ((d.getUTCDay() + 6) % 7) * DAY_MS);
  if (interval === 'month') return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  return new Date(Date.UTC(d.getUTCFullYear(), 0, 1));
}

function nextPeriod(interval: Interval, start: Date): Date {
  if (interval === 'hour') return new Date(start.getTime() + HOUR_MS);
  if (interval === 'day') return new Date(start.getTime() + DAY_MS);
  if (interval === 'week') return new Date(start.getTime() + 7 * DAY_MS);
  if (interval === 'month') return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  return new Date(Date.UTC(start.getUTCFullYear() + 1, 0, 1));
}

const sumOf = <T>(rows: T[], amount: (row: T) => number) =>
  rows.reduce((total, row) => total + amount(row), 0);

/** The answer's figures, computed from the seeded rows without SQL. */
function expectedMetrics(
  seeded: Seeded,
  query: { start: string; end: string; interval: Interval },
  filters: Filters = {},
): CheckedAnswer {
  const from = new Date(`${query.start}T00:00:00Z`);
  const to = new Date(Date.parse(`${query.end}T00:00:00Z`) + DAY_MS);
  const isPurchase = (order: Order) => order.billingReason === 'purchase';
  const orderMatches = (order: Order) =>
    (!filters.productIds || filters.productIds.includes(order.productId)) &&
    (!filters.customerIds || filters.customerIds.includes(order.customerId)) &&
    (!filters.billingType || isPurchase(order) === (filters.billingType === 'one_time'));
  const hasProductFilter = Boolean(filters.productIds || filters.billingType);
  const paid = seeded.orders.filter((order) => order.status !== 'pending');
  const orders = paid.filter((order) => order.currency === 'usd' && orderMatches(order));
  const subscriptions = seeded.subscriptions.filter(
    (s) =>
      s.currency === 'usd' &&
      s.startedAt !== null &&
      (!filters.productIds || filters.productIds.includes(s.productId)) &&
      (!filters.customerIds || filters.customerIds.includes(s.customerId)) &&
      filters.billingType !== 'one_time',
  );
  const recurringProducts = [seeded.catalog.monthly.productId, seeded.catalog.yearly.productId];
  const checkouts = seeded.checkouts.filter(
    (c) =>
      (!filters.productIds || filters.productIds.includes(c.productId)) &&
      (!filters.customerIds || (c.customerId !== null && filters.customerIds.includes(c.customerId))) &&
      (!filters.billingType ||
        recurringProducts.includes(c.productId) === (filters.billingType === 'recurring')),
  );
  const customers = seeded.customers.filter(
    (c) =>
      c.deletedAt === null &&
      (!filters.customerIds || filters.customerIds.includes(c.id)) &&
      (!hasProductFilter || paid.some((order) => order.customerId === c.id && orderMatches(order))),
  );
  const refunds = seeded.refunds.filter((r) => {
    const order = seeded.orders.find((o) => o.id === r.orderId)!;
    return (
      r.status === 'succeeded' &&
      r.currency === 'usd' &&
      (!filters.customerIds || filters.customerIds.includes(r.customerId)) &&
      (!hasProductFilter || orderMatches(order))
    );
  });

  const periods: CheckedAnswer['periods'] = [];
  let cumulative = 0;
  for (let start = periodStart(query.interval, from); start < to; start = nextPeriod(query.interval, start)) {
    const since = start < from ? from : start;
    const next = nextPeriod(query.interval, start);
    const until = next > to ? to : next;
    const inPeriod = (at: Date) => at >= since && at < until;
    const placed = orders.filter((order) => inPeriod(order.createdAt));
    const byReason = (reason: string) => placed.filter((order) => order.billingReason === reason);
    const revenue = sumOf(placed, (order) => order.netAmount);
    cumulative += revenue;
    const active = subscriptions.filter((s) => s.startedAt! < until && !(s.endedAt && s.endedAt < until));
    const monthly = sumOf(
      active.filter((s) => s.recurringInterval === 'month'),
      (s) => s.amount,
    );
    const yearly = sumOf(
      active.filter((s) => s.recurringInterval === 'year'),
      (s) => s.amount,
    );
    const opened = checkouts.filter((c) => inPeriod(c.createdAt));
    const succeeded = opened.filter((c) => c.status === 'succeeded').length;
    const refunded = refunds.filter((r) => inPeriod(r.createdAt));
    periods.push({
      timestamp: start.toISOString(),
      orders: placed.length,
      revenue,
      cumulative_revenue: cumulative,
      average_order_value: placed.length ? Math.round(revenue / placed.length) : 0,
      one_time_products: byReason('purchase').length,
      one_time_products_revenue: sumOf(byReason('purchase'), (o) => o.netAmount),
      new_subscriptions: byReason('subscription_create').length,
      new_subscriptions_revenue: sumOf(byReason('subscription_create'), (o) => o.netAmount),
      renewed_subscriptions: byReason('subscription_cycle').length,
      renewed_subscriptions_revenue: sumOf(byReason('subscription_cycle'), (o) => o.netAmount),
      active_subscriptions: active.length,
      monthly_recurring_revenue: monthly + Math.round(yearly / 12),
      checkouts: opened.length,
      succeeded_checkouts: succeeded,
      checkouts_conversion: opened.length ? succeeded / opened.length : 0,
      new_customers: customers.filter((c) => inPeriod(c.createdAt)).length,
      refunds: refunded.length,
      refunded_amount: sumOf(refunded, (r) => r.amount),
    });
  }
  const total = (slug: MetricSlug) => sumOf(periods, (period) => period[slug]);
  const inRange = orders.filter((order) => order.createdAt >= from && order.createdAt < to);
  const openedInRange = checkouts.filter((c) => c.createdAt >= from && c.createdAt < to);
  const succeededInRange = openedInRange.filter((c) => c.status === 'succeeded').length;
  const last = periods.at(-1)!;
  return {
    periods,
    totals: {
      ...(Object.fromEntries(CHECKED_SLUGS.map((slug) => [slug, total(slug)])) as CheckedFigures),
      cumulative_revenue: sumOf(inRange, (order) => order.netAmount),
      average_order_value: inRange.length
        ? Math.round(sumOf(inRange, (order) => order.netAmount) / inRange.length)
        : 0,
      active_subscriptions: last.active_subscriptions,
      monthly_recurring_revenue: last.monthly_recurring_revenue,
      checkouts_conversion: openedInRange.length ? succeededInRange / openedInRange.length : 0,
    },
  };
}

const camelCase = (slug: string) =>
  slug.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());

describe('GET /v1/metrics/', () => {
  const env = useTestStack({ withWorker: false });
  let ours: { organizationId: string; token: string; polar: Polar; seeded: Seeded };
  let theirs: { organizationId: string; seeded: Seeded };

  beforeAll(async () => {
    const { db } = env.database;
    const organization = await createOrganization(db);
    const token = await createAccessToken(db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    ours = {
      organizationId: organization.id,
      token,
      polar,
      seeded: await seedBusiness(env, organization.id, 16),
    };
    // The same kind of business on the same days: none of it may count for ours.
    const other = await createOrganization(db);
    theirs = { organizationId: other.id, seeded: await seedBusiness(env, other.id, 61) };
  }, 120_000);

  async function rawMetrics(token: string, query: Record<string, string | string[]>) {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      for (const each of [value].flat()) search.append(key, each);
    }
    const response = await fetch(`${env.stack.baseUrl}/v1/metrics/?${search.toString()}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return { status: response.status, body: (await response.json()) as unknown };
  }

  async function metrics(query: { start: string; end: string; interval: Interval }, filters: Filters = {}) {
    const answer = await rawMetrics(ours.token, {
      start_date: query.start,
      end_date: query.end,
      interval: query.interval,
      ...(filters.productIds ? { product_id: filters.productIds } : {}),
      ...(filters.customerIds ? { customer_id: filters.customerIds } : {}),
      ...(filters.billingType ? { billing_type: filters.billingType } : {}),
    });
    expect(answer.status).toBe(200);
    return answer.body as MetricsResponse;
  }

  describe('figures against the seeded rows', () => {
    const ranges = [
      { start: '2025-03-10', end: '2025-03-11', interval: 'hour' },
      { start: '2025-03-01', end: '2025-03-31', interval: 'day' },
      // A Wednesday: the first week starts on the Monday before, and counts from the Wednesday.
      { start: '2025-01-08', end: '2025-04-16', interval: 'week' },
      { start: '2025-01-01', end: '2025-06-30', interval: 'month' },
      { start: '2024-12-01', end: '2025-07-31', interval: 'year' },
    ] as const;

    for (const range of ranges) {
      it(`by ${range.interval}, ${range.start} to ${range.end}: every figure of every period and the totals`, async () => {
        const answer = await metrics(range);
        const expected = expectedMetrics(ours.seeded, range);
        expect(checked(answer).periods).toEqual(expected.periods);
        expect(checked(answer).totals).toEqual(expected.totals);
        expect(answer.currency).toBe('usd');
        expect(Object.keys(answer.metrics).sort()).toEqual([...METRIC_SLUGS].sort());
        // The figures are not all zero: the comparison compared something.
        expect(expected.totals.orders).toBeGreaterThan(0);
        expect(expected.totals.checkouts).toBeGreaterThan(0);
      });
    }

    it('answers through polar.metrics.get, its figures the same as those computed here', async () => {
      const range = { start: '2025-01-01', end: '2025-06-30', interval: 'month' } as const;
      const answer = await ours.polar.metrics.get({
        startDate: new RFCDate(range.start),
        endDate: new RFCDate(range.end),
        interval: range.interval,
        organizationId: ours.organizationId,
      });
      const expected = expectedMetrics(ours.seeded, range);
      expect(answer.periods.map((period) => period.timestamp.toISOString())).toEqual(
        expected.periods.map((period) => period.timestamp),
      );
      // The figures of Polar's metrics that this file computes (ours are not in the SDK).
      for (const slug of CHECKED_SLUGS.filter(
        (slug) => !['new_customers', 'refunds', 'refunded_amount'].includes(slug),
      )) {
        const key = camelCase(slug) as keyof (typeof answer.periods)[number];
        expect([slug, answer.periods.map((period) => period[key])]).toEqual([
          slug,
          expected.periods.map((period) => period[slug]),
        ]);
        expect([slug, answer.totals[key as keyof typeof answer.totals]]).toEqual([
          slug,
          expected.totals[slug],
        ]);
        expect(answer.metrics[key as keyof typeof answer.metrics].slug).toBe(slug);
      }
      expect(answer.metrics.monthlyRecurringRevenue).toEqual({
        slug: 'monthly_recurring_revenue',
        displayName: 'Monthly Recurring Revenue',
        type: 'currency',
      });
    });

    it('narrows every figure to products, customers and billing types', async () => {
      const range = { start: '2025-01-01', end: '2025-06-30', interval: 'month' } as const;
      const { catalog, customers } = ours.seeded;
      const someCustomers = customers.slice(0, 8).map((customer) => customer.id);
      for (const filters of [
        { productIds: [catalog.monthly.productId] },
        { productIds: [catalog.oneTime.productId, catalog.yearly.productId] },
        { customerIds: someCustomers },
        { billingType: 'one_time' },
        { billingType: 'recurring', customerIds: someCustomers },
      ] satisfies Filters[]) {
        const answer = await metrics(range, filters);
        const expected = expectedMetrics(ours.seeded, range, filters);
        expect([filters, checked(answer).periods]).toEqual([filters, expected.periods]);
        expect([filters, checked(answer).totals]).toEqual([filters, expected.totals]);
      }
    });
  });

  describe('periods without anything', () => {
    it('answers every period of an empty range, each 0', async () => {
      const answer = await metrics({ start: '2023-01-01', end: '2023-01-10', interval: 'day' });
      expect(answer.periods).toHaveLength(10);
      expect(answer.periods[0]!.timestamp).toBe('2023-01-01T00:00:00.000Z');
      expect(answer.periods.at(-1)!.timestamp).toBe('2023-01-10T00:00:00.000Z');
      for (const period of answer.periods) {
        for (const slug of METRIC_SLUGS) expect([slug, period[slug]]).toEqual([slug, 0]);
      }
      expect(Object.values(answer.totals).every((value) => value === 0)).toBe(true);
    });

    it('keeps the plans active through days without sales', async () => {
      const answer = await metrics({ start: '2025-05-01', end: '2025-05-31', interval: 'day' });
      const quiet = answer.periods.filter((period) => period.orders === 0);
      expect(quiet.length).toBeGreaterThan(0);
      expect(quiet.every((period) => period.active_subscriptions > 0)).toBe(true);
    });
  });

  describe('time zones', () => {
    it('cuts the days and months at the midnights of the time zone asked for', async () => {
      const { db } = env.database;
      const organization = await createOrganization(db);
      const token = await createAccessToken(db, organization.id);
      const catalog = await createMetricsCatalog(db, organization.id);
      const buyer = await seedCustomer(db, organization.id, { createdAt: new Date('2025-03-01T12:00:00Z') });
      const sell = (at: string) =>
        seedOrder(db, {
          organizationId: organization.id,
          customerId: buyer.id,
          productId: catalog.oneTime.productId,
          netAmount: 1000,
          createdAt: new Date(at),
        });
      // In New York: the evening of the 8th (UTC−5), then the 9th, when the clocks move to UTC−4,
      // at noon and a minute before its midnight.
      await sell('2025-03-09T03:30:00Z');
      await sell('2025-03-09T12:00:00Z');
      await sell('2025-03-10T03:59:00Z');
      const days = async (timezone?: string) => {
        const answer = await rawMetrics(token, {
          start_date: '2025-03-08',
          end_date: '2025-03-10',
          interval: 'day',
          ...(timezone ? { timezone } : {}),
        });
        expect(answer.status).toBe(200);
        return (answer.body as MetricsResponse).periods.map((period) => [period.timestamp, period.orders]);
      };
      expect(await days('America/New_York')).toEqual([
        ['2025-03-08T05:00:00.000Z', 1],
        ['2025-03-09T05:00:00.000Z', 2],
        ['2025-03-10T04:00:00.000Z', 0],
      ]);
      expect(await days()).toEqual([
        ['2025-03-08T00:00:00.000Z', 0],
        ['2025-03-09T00:00:00.000Z', 2],
        ['2025-03-10T00:00:00.000Z', 1],
      ]);

      // 31 March 12:00 UTC is already 1 April in Auckland (UTC+13).
      await sell('2025-03-31T12:00:00Z');
      const months = await rawMetrics(token, {
        start_date: '2025-03-01',
        end_date: '2025-04-30',
        interval: 'month',
        timezone: 'Pacific/Auckland',
      });
      expect(
        (months.body as MetricsResponse).periods.map((period) => [period.timestamp, period.orders]),
      ).toEqual([
        ['2025-02-28T11:00:00.000Z', 3],
        ['2025-03-31T11:00:00.000Z', 1],
      ]);
    });

    it('refuses a time zone it does not know, at timezone', async () => {
      const answer = await rawMetrics(ours.token, {
        start_date: '2025-01-01',
        end_date: '2025-01-31',
        interval: 'day',
        timezone: 'Mars/Olympus_Mons',
      });
      expect(answer).toEqual({
        status: 422,
        body: {
          detail: [
            {
              loc: ['query', 'timezone'],
              msg: 'Unknown time zone: Mars/Olympus_Mons. Use an IANA name such as Europe/Berlin.',
              type: 'value_error',
            },
          ],
        },
      });
    });
  });

  describe('organizations', () => {
    it("never counts another organization's business, and counts nothing for its id", async () => {
      const range = { start: '2025-01-01', end: '2025-06-30', interval: 'month' } as const;
      // The other organization's answer, asked by its own token, is its own figures.
      const theirToken = await createAccessToken(env.database.db, theirs.organizationId);
      const theirAnswer = await rawMetrics(theirToken, {
        start_date: range.start,
        end_date: range.end,
        interval: 'month',
      });
      expect(checked(theirAnswer.body as MetricsResponse).totals).toEqual(
        expectedMetrics(theirs.seeded, range).totals,
      );

      const foreign = await rawMetrics(ours.token, {
        start_date: range.start,
        end_date: range.end,
        interval: 'month',
        organization_id: theirs.organizationId,
      });
      expect(foreign.status).toBe(200);
      const body = foreign.body as MetricsResponse;
      expect(body.periods).toHaveLength(6);
      expect(Object.values(body.totals).every((value) => value === 0)).toBe(true);

      // Their products and customers, named as filters, count nothing either.
      const { catalog, customers } = theirs.seeded;
      const filtered = await metrics(range, {
        productIds: [catalog.oneTime.productId, catalog.monthly.productId, catalog.yearly.productId],
      });
      expect(Object.values(filtered.totals).every((value) => value === 0)).toBe(true);
      const byCustomer = await metrics(range, {
        customerIds: customers.map((customer) => customer.id).slice(0, 20),
      });
      expect(Object.values(byCustomer.totals).every((value) => value === 0)).toBe(true);
    });

    it('asks a signed-in member of several organizations which one, and answers for the one named', async () => {
      const user = await signUpUser(env.stack.baseUrl);
      await addMember(env.database.db, ours.organizationId, user.user.id, 'member');
      await addMember(env.database.db, theirs.organizationId, user.user.id, 'owner');
      const call = (organizationId?: string) =>
        fetch(
          `${env.stack.baseUrl}/v1/metrics/?start_date=2025-01-01&end_date=2025-06-30&interval=month${
            organizationId ? `&organization_id=${organizationId}` : ''
          }`,
          { headers: { cookie: user.cookieHeader() } },
        );
      const unnamed = await call();
      expect(unnamed.status).toBe(422);
      expect(await unnamed.json()).toEqual({
        detail: [
          {
            loc: ['query', 'organization_id'],
            msg: 'Metrics cover one organization at a time: choose it with organization_id.',
            type: 'value_error',
          },
        ],
      });
      const named = await call(ours.organizationId);
      expect(named.status).toBe(200);
      const range = { start: '2025-01-01', end: '2025-06-30', interval: 'month' } as const;
      expect(checked((await named.json()) as MetricsResponse).totals).toEqual(
        expectedMetrics(ours.seeded, range).totals,
      );
    });

    it('counts money in the currency of most revenue, else of the newest price, else USD', async () => {
      const { db } = env.database;
      const euroShop = await createOrganization(db);
      const euroToken = await createAccessToken(db, euroShop.id);
      await createMetricsCatalog(db, euroShop.id, 'eur');
      const query = { start_date: '2025-01-01', end_date: '2025-01-31', interval: 'month' };
      expect(((await rawMetrics(euroToken, query)).body as MetricsResponse).currency).toBe('eur');

      const newShop = await createOrganization(db);
      const newToken = await createAccessToken(db, newShop.id);
      expect(((await rawMetrics(newToken, query)).body as MetricsResponse).currency).toBe('usd');

      // More yen than euros (in minor units, as stored): the answer turns to yen, euro orders leave it.
      const catalog = await createMetricsCatalog(db, euroShop.id, 'eur');
      const buyer = await seedCustomer(db, euroShop.id);
      const at = new Date('2025-01-15T12:00:00Z');
      const order = {
        organizationId: euroShop.id,
        customerId: buyer.id,
        productId: catalog.oneTime.productId,
        createdAt: at,
      };
      await seedOrder(db, { ...order, currency: 'eur', netAmount: 4000 });
      await seedOrder(db, { ...order, currency: 'jpy', netAmount: 5000 });
      const answer = (await rawMetrics(euroToken, query)).body as MetricsResponse;
      expect(answer.currency).toBe('jpy');
      expect(answer.totals.revenue).toBe(5000);
      expect(answer.totals.orders).toBe(1);
    });
  });

  describe('refusals', () => {
    const refused = async (query: Record<string, string>) => {
      const answer = await rawMetrics(ours.token, {
        start_date: '2025-01-01',
        end_date: '2025-01-31',
        interval: 'day',
        ...query,
      });
      expect(answer.status).toBe(422);
      return (answer.body as { detail: { loc: string[]; msg: string }[] }).detail;
    };

    it('refuses an end before the start, at end_date', async () => {
      expect(await refused({ start_date: '2025-02-01', end_date: '2025-01-31' })).toEqual([
        {
          loc: ['query', 'end_date'],
          msg: 'The end date is before the start date: choose an end date on or after it.',
          type: 'value_error',
        },
      ]);
    });

    it('refuses a range too long for its interval, naming the limit', async () => {
      expect(await refused({ end_date: '2025-01-09', interval: 'hour' })).toEqual([
        {
          loc: ['query', 'end_date'],
          msg: 'By hour, metrics cover at most 7 days after the start date: choose a shorter range or a longer interval.',
          type: 'value_error',
        },
      ]);
      expect(await refused({ end_date: '2026-01-03', interval: 'day' })).toMatchObject([
        { loc: ['query', 'end_date'], msg: expect.stringContaining('at most 366 days') },
      ]);
    });

    it('refuses dates that are not dates, or outside the limits, and an unknown interval', async () => {
      expect(await refused({ start_date: '2025-02-30' })).toEqual([
        { loc: ['query', 'start_date'], msg: 'Enter the start date as YYYY-MM-DD.', type: 'invalid_format' },
      ]);
      expect(await refused({ end_date: 'yesterday' })).toMatchObject([{ loc: ['query', 'end_date'] }]);
      expect(await refused({ start_date: '1999-12-31', interval: 'year' })).toEqual([
        { loc: ['query', 'start_date'], msg: 'Choose a date on or after 2000-01-01.', type: 'value_error' },
      ]);
      expect(await refused({ interval: 'fortnight' })).toMatchObject([{ loc: ['query', 'interval'] }]);
      expect(await refused({ start_date: '' })).toMatchObject([{ loc: ['query', 'start_date'] }]);
    });

    it('requires the dates and the interval', async () => {
      const answer = await fetch(`${env.stack.baseUrl}/v1/metrics/`, {
        headers: { authorization: `Bearer ${ours.token}` },
      });
      expect(answer.status).toBe(422);
      const { detail } = (await answer.json()) as { detail: { loc: string[] }[] };
      expect(detail.map((issue) => issue.loc.join('.')).sort()).toEqual([
        'query.end_date',
        'query.interval',
        'query.start_date',
      ]);
    });
  });
});

describe('GET /v1/metrics/limits', () => {
  const env = useTestStack({ withWorker: false });

  it('answers the dates and the longest range per interval, as polar.metrics.limits reads them', async () => {
    const organization = await createOrganization(env.database.db);
    const polar = new Polar({
      accessToken: await createAccessToken(env.database.db, organization.id),
      serverURL: env.stack.baseUrl,
    });
    const limits = await polar.metrics.limits();
    expect(limits.minDate.toString()).toBe('2000-01-01');
    expect(limits.intervals).toEqual({
      hour: { maxDays: 7 },
      day: { maxDays: 366 },
      week: { maxDays: 365 },
      month: { maxDays: 1460 },
      year: { maxDays: 3650 },
    });
  });
});
