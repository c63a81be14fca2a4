import { beforeAll, describe, expect, it } from '@jest/globals';
import { Polar } from 'polar-sdk-0481';
import { HTTPValidationError } from 'polar-sdk-0481/models/errors/httpvalidationerror.js';
import { RFCDate } from 'polar-sdk-0481/types/rfcdate.js';
import { METRIC_SLUGS, POLAR_METRIC_SLUGS } from '../../domain/metrics/schemas.js';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import {
  createMetricsCatalog,
  seedCustomer,
  seedEvent,
  seedOrder,
  seedSubscription,
} from '../../test/metrics-seed.js';
import { useTestStack } from '../../test/stack.js';

// The metrics as Polar's current SDK (@polar-sh/sdk@0.48.1, response validation on) reads them:
// the figures 0.48.1 added to 0.33.2's, computed from a quarter of one organization's orders,
// plans and events whose every figure is worked out by hand below; the CSV export of the same
// query; the saved dashboards; the event types. api/v1/metrics.int.test.ts checks 0.33.2's figures
// against random data; api/v1/tenancy.int.test.ts the organizations, scopes and roles.

const at = (instant: string) => new Date(instant);
const QUARTER = { startDate: new RFCDate('2025-01-01'), endDate: new RFCDate('2025-03-31') } as const;

describe('metrics through @polar-sh/sdk@0.48.1', () => {
  const env = useTestStack({ withWorker: false });
  let polar: Polar;
  let organizationId: string;
  /** The three buyers, in the order the seed made them. */
  let customerIds: string[];

  beforeAll(async () => {
    const { db } = env.database;
    const organization = await createOrganization(db);
    organizationId = organization.id;
    polar = new Polar({
      accessToken: await createAccessToken(db, organizationId),
      serverURL: env.stack.baseUrl,
    });
    const catalog = await createMetricsCatalog(db, organizationId);
    customerIds = [];
    const [first, second, third] = [
      await seedCustomer(db, organizationId),
      await seedCustomer(db, organizationId),
      await seedCustomer(db, organizationId),
    ];
    customerIds = [first!.id, second!.id, third!.id];
    // A purchase in January of which 500 was refunded since, a plan's first order in February and
    // its renewal in March.
    await seedOrder(db, {
      organizationId,
      customerId: first!.id,
      productId: catalog.oneTime.productId,
      netAmount: 2000,
      taxAmount: 400,
      status: 'partially_refunded',
      refundedAmount: 500,
      createdAt: at('2025-01-10T12:00:00Z'),
    });
    await seedOrder(db, {
      organizationId,
      customerId: second!.id,
      productId: catalog.monthly.productId,
      billingReason: 'subscription_create',
      netAmount: 1500,
      createdAt: at('2025-02-05T12:00:00Z'),
    });
    await seedOrder(db, {
      organizationId,
      customerId: second!.id,
      productId: catalog.monthly.productId,
      billingReason: 'subscription_cycle',
      netAmount: 1500,
      createdAt: at('2025-03-03T12:00:00Z'),
    });
    // The second customer's monthly plan, canceled (too expensive) on Feb 10 to end on Mar 15,
    // beside a yearly plan of theirs from Jan 20; the third customer's plan of February, canceled
    // and ended at once on Mar 1 without a reason.
    await seedSubscription(db, {
      organizationId,
      customerId: second!.id,
      productId: catalog.monthly.productId,
      amount: 1500,
      recurringInterval: 'month',
      startedAt: at('2024-12-15T00:00:00Z'),
      canceledAt: at('2025-02-10T00:00:00Z'),
      cancelAtPeriodEnd: true,
      endsAt: at('2025-03-15T00:00:00Z'),
      endedAt: at('2025-03-15T00:00:00Z'),
      customerCancellationReason: 'too_expensive',
    });
    await seedSubscription(db, {
      organizationId,
      customerId: second!.id,
      productId: catalog.yearly.productId,
      amount: 12_000,
      recurringInterval: 'year',
      startedAt: at('2025-01-20T00:00:00Z'),
    });
    await seedSubscription(db, {
      organizationId,
      customerId: third!.id,
      productId: catalog.monthly.productId,
      amount: 3000,
      recurringInterval: 'month',
      startedAt: at('2025-02-01T00:00:00Z'),
      canceledAt: at('2025-03-01T00:00:00Z'),
      endedAt: at('2025-03-01T00:00:00Z'),
    });
    // Costs in cents with fractions; one in euros (not this answer's currency) and a system event,
    // neither counted as a cost, the system one not as a user either.
    const cost = (amount: number, currency?: string) => ({
      _cost: { amount, ...(currency ? { currency } : {}) },
    });
    await seedEvent(db, {
      organizationId,
      name: 'llm.tokens',
      customerId: first!.id,
      timestamp: at('2025-01-12T00:00:00Z'),
      metadata: cost(12.5, 'usd'),
    });
    await seedEvent(db, {
      organizationId,
      name: 'customer.created',
      source: 'system',
      customerId: second!.id,
      timestamp: at('2025-01-05T00:00:00Z'),
      metadata: cost(99),
    });
    await seedEvent(db, {
      organizationId,
      name: 'llm.tokens',
      customerId: first!.id,
      timestamp: at('2025-02-02T00:00:00Z'),
      metadata: cost(7.25),
    });
    await seedEvent(db, {
      organizationId,
      name: 'api.call',
      customerId: third!.id,
      timestamp: at('2025-02-03T00:00:00Z'),
    });
    await seedEvent(db, {
      organizationId,
      name: 'llm.tokens',
      externalCustomerId: 'crm-unknown-yet',
      timestamp: at('2025-03-01T00:00:00Z'),
      metadata: cost(0.25, 'USD'),
    });
    await seedEvent(db, {
      organizationId,
      name: 'llm.tokens',
      customerId: first!.id,
      timestamp: at('2025-03-02T00:00:00Z'),
      metadata: cost(1000, 'eur'),
    });
  });

  describe('polar.metrics.get', () => {
    it('answers every figure of 0.48.1 for each month, worked out from the seeded rows', async () => {
      const answer = await polar.metrics.get({ ...QUARTER, interval: 'month', organizationId });
      const figures = (key: keyof (typeof answer.periods)[number]) =>
        answer.periods.map((period) => period[key]);
      expect(figures('timestamp')).toEqual([
        at('2025-01-01T00:00:00Z'),
        at('2025-02-01T00:00:00Z'),
        at('2025-03-01T00:00:00Z'),
      ]);
      expect(figures('revenue')).toEqual([2000, 1500, 1500]);
      expect(figures('netRevenue')).toEqual([1500, 1500, 1500]);
      expect(figures('netCumulativeRevenue')).toEqual([1500, 3000, 4500]);
      expect(figures('netAverageOrderValue')).toEqual([1500, 1500, 1500]);
      expect(figures('oneTimeProductsNetRevenue')).toEqual([1500, 0, 0]);
      expect(figures('newSubscriptionsNetRevenue')).toEqual([0, 1500, 0]);
      expect(figures('renewedSubscriptionsNetRevenue')).toEqual([0, 0, 1500]);
      // At each month's end. February's: the three plans (the third ends on Mar 1).
      expect(figures('activeSubscriptions')).toEqual([2, 3, 1]);
      expect(figures('monthlyRecurringRevenue')).toEqual([2500, 5500, 1000]);
      expect(figures('annualRecurringRevenue')).toEqual([30_000, 66_000, 12_000]);
      // Canceled on Feb 10, the monthly plan is no longer committed at February's end.
      expect(figures('committedSubscriptions')).toEqual([2, 2, 1]);
      expect(figures('committedMonthlyRecurringRevenue')).toEqual([2500, 4000, 1000]);
      expect(figures('committedAnnualRecurringRevenue')).toEqual([30_000, 48_000, 12_000]);
      // One subscriber in January (two plans), two in February, one in March.
      expect(figures('averageRevenuePerUser')).toEqual([2500, 2750, 1000]);
      expect(figures('canceledSubscriptions')).toEqual([0, 1, 1]);
      expect(figures('canceledSubscriptionsTooExpensive')).toEqual([0, 1, 0]);
      expect(figures('canceledSubscriptionsOther')).toEqual([0, 0, 1]);
      expect(figures('canceledSubscriptionsUnused')).toEqual([0, 0, 0]);
      expect(figures('churnedSubscriptions')).toEqual([0, 0, 2]);
      // Canceled per plan active at the month's start: 1 in January, 2 in February, 3 in March.
      expect(figures('churnRate')).toEqual([0, 0.5, 1 / 3]);
      expect(figures('costs')).toEqual([12.5, 7.25, 0.25]);
      expect(figures('cumulativeCosts')).toEqual([12.5, 19.75, 20]);
      expect(figures('activeUserByEvent')).toEqual([1, 2, 2]);
      expect(figures('costPerUser')).toEqual([12.5, 3.625, 0.125]);
      // (ARPU − cost per user) ÷ churn, in whole cents; 0 without churn.
      expect(figures('ltv')).toEqual([0, 5492, 2999]);
      expect(figures('grossMargin')).toEqual([1987.5, 3480.25, 4980]);
      expect(figures('grossMarginPercentage')).toEqual([1987.5 / 2000, 3480.25 / 3500, 4980 / 5000]);
      expect(figures('cashflow')).toEqual([1987.5, 1492.75, 1499.75]);
      expect(figures('seatsTotal')).toEqual([0, 0, 0]);
      expect(figures('trialMonthlyRecurringRevenue')).toEqual([0, 0, 0]);

      expect(answer.totals).toMatchObject({
        revenue: 5000,
        netRevenue: 4500,
        activeSubscriptions: 1,
        committedSubscriptions: 1,
        annualRecurringRevenue: 12_000,
        averageRevenuePerUser: 1000,
        canceledSubscriptions: 2,
        churnedSubscriptions: 2,
        // Two canceled in the quarter of the one plan active at its start.
        churnRate: 2,
        costs: 20,
        cumulativeCosts: 20,
        // Three customers sent events in the quarter: the first (every month), the third, the unknown one.
        activeUserByEvent: 3,
        costPerUser: 20 / 3,
        ltv: Math.trunc((1000 - 20 / 3) / 2),
        grossMargin: 4980,
        cashflow: 4980,
      });
      // Every metric of Polar's; ours (new customers, refunds) are not in the SDK.
      expect(Object.keys(answer.metrics)).toHaveLength(POLAR_METRIC_SLUGS.length);
      expect(answer.metrics.costs).toEqual({
        slug: 'costs',
        displayName: 'Costs',
        type: 'currency_sub_cent',
      });
      expect(answer.metrics.churnRate).toEqual({
        slug: 'churn_rate',
        displayName: 'Churn Rate',
        type: 'percentage',
      });
    });

    it('takes the metrics 0.48.1 names, and refuses a slug that is no metric', async () => {
      const answer = await polar.metrics.get({ ...QUARTER, interval: 'month', metrics: ['ltv', 'costs'] });
      expect(answer.totals.costs).toBe(20);
      await expect(
        polar.metrics.get({ ...QUARTER, interval: 'month', metrics: ['profit'] }),
      ).rejects.toBeInstanceOf(HTTPValidationError);
    });

    it('narrows the subscription figures to a customer, and the events to theirs', async () => {
      const third = await polar.metrics.get({ ...QUARTER, interval: 'year', customerId: customerIds[2] });
      expect(third.periods).toHaveLength(1);
      expect(third.totals).toMatchObject({
        canceledSubscriptions: 1,
        canceledSubscriptionsOther: 1,
        churnedSubscriptions: 1,
        activeSubscriptions: 0,
        activeUserByEvent: 1,
        costs: 0,
        revenue: 0,
      });
    });
  });

  describe('polar.metrics.export', () => {
    it('answers the same figures as CSV, a line per period, the columns asked for', async () => {
      const csv = await polar.metrics.export({
        ...QUARTER,
        interval: 'month',
        organizationId,
        metrics: ['revenue', 'net_revenue', 'costs', 'churn_rate'],
      });
      expect(typeof csv).toBe('string');
      expect(String(csv).split('\r\n')).toEqual([
        'timestamp,revenue,net_revenue,costs,churn_rate',
        '2025-01-01T00:00:00.000Z,2000,1500,12.5,0',
        '2025-02-01T00:00:00.000Z,1500,1500,7.25,0.5',
        `2025-03-01T00:00:00.000Z,1500,1500,0.25,${1 / 3}`,
        '',
      ]);
    });

    it('exports every metric when none is named, and refuses what metrics.get refuses as JSON', async () => {
      const response = await fetch(
        `${env.stack.baseUrl}/v1/metrics/export?start_date=2025-01-01&end_date=2025-01-31&interval=month`,
        { headers: { authorization: `Bearer ${await createAccessToken(env.database.db, organizationId)}` } },
      );
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const [header, january] = (await response.text()).split('\r\n');
      expect(header!.split(',')).toEqual(['timestamp', ...METRIC_SLUGS]);
      expect(january!.split(',')[METRIC_SLUGS.indexOf('revenue') + 1]).toBe('2000');
      await expect(
        polar.metrics.export({
          startDate: new RFCDate('2025-02-01'),
          endDate: new RFCDate('2025-01-01'),
          interval: 'day',
        }),
      ).rejects.toBeInstanceOf(HTTPValidationError);
    });
  });

  describe('saved dashboards', () => {
    it('creates, lists, reads, changes and deletes a dashboard with the metrics it pins', async () => {
      const created = await polar.metrics.createDashboard({
        name: 'Subscriptions',
        metrics: ['monthly_recurring_revenue', 'churn_rate', 'monthly_recurring_revenue'],
      });
      expect(created).toMatchObject({
        name: 'Subscriptions',
        metrics: ['monthly_recurring_revenue', 'churn_rate'],
        organizationId,
        modifiedAt: null,
      });
      const empty = await polar.metrics.createDashboard({ name: 'Empty for now' });
      expect(empty.metrics).toEqual([]);
      expect((await polar.metrics.listDashboards({})).map((dashboard) => dashboard.id)).toEqual([
        created.id,
        empty.id,
      ]);
      expect(await polar.metrics.getDashboard({ id: created.id })).toEqual(created);

      const renamed = await polar.metrics.updateDashboard({
        id: created.id,
        metricDashboardUpdate: { name: 'Recurring', metrics: ['annual_recurring_revenue'] },
      });
      expect(renamed).toMatchObject({ name: 'Recurring', metrics: ['annual_recurring_revenue'] });
      expect(renamed.modifiedAt).toBeInstanceOf(Date);
      // A field left out stays as it is.
      const kept = await polar.metrics.updateDashboard({
        id: created.id,
        metricDashboardUpdate: { name: 'Recurring revenue' },
      });
      expect(kept.metrics).toEqual(['annual_recurring_revenue']);

      await polar.metrics.deleteDashboard({ id: empty.id });
      await expect(polar.metrics.getDashboard({ id: empty.id })).rejects.toMatchObject({ statusCode: 404 });
      expect((await polar.metrics.listDashboards({})).map((dashboard) => dashboard.id)).toEqual([created.id]);
    });

    it('refuses a metric that does not exist and an empty name, saving nothing', async () => {
      const before = await env.database.db.metricDashboard.count({ where: { organizationId } });
      await expect(
        polar.metrics.createDashboard({ name: 'Profit', metrics: ['profit'] }),
      ).rejects.toBeInstanceOf(HTTPValidationError);
      await expect(polar.metrics.createDashboard({ name: '' })).rejects.toBeInstanceOf(HTTPValidationError);
      expect(await env.database.db.metricDashboard.count({ where: { organizationId } })).toBe(before);
    });
  });

  describe('event types', () => {
    it('lists the names of the events with their occurrences, first and last seen, and labels', async () => {
      const page = await polar.eventTypes.list({ organizationId, sorting: ['name'] });
      const items = page.result.items;
      expect(items.map((item) => [item.name, item.source, item.occurrences])).toEqual([
        ['api.call', 'user', 1],
        ['customer.created', 'system', 1],
        ['llm.tokens', 'user', 4],
      ]);
      const tokens = items.find((item) => item.name === 'llm.tokens')!;
      expect(tokens).toMatchObject({
        label: 'llm.tokens',
        organizationId,
        firstSeen: at('2025-01-12T00:00:00Z'),
        lastSeen: at('2025-03-02T00:00:00Z'),
      });
      expect(tokens.id).toEqual(expect.any(String));
      // System events are Polar's own: no event type of the seller's to label.
      expect(items.find((item) => item.name === 'customer.created')!.id).toBeNull();
      expect(page.result.pagination).toMatchObject({ totalCount: 3, maxPage: 1 });
    });

    it('labels an event type, which the list then shows and searches', async () => {
      const ingested = await polar.events.ingest({
        events: [{ name: 'image.generated', externalCustomerId: 'crm-42', metadata: { size: 'large' } }],
      });
      expect(ingested.inserted).toBe(1);
      const listed = await polar.eventTypes.list({ organizationId, query: 'image' });
      const type = listed.result.items[0]!;
      expect(type).toMatchObject({ name: 'image.generated', label: 'image.generated', occurrences: 1 });

      const updated = await polar.eventTypes.update({
        id: type.id!,
        eventTypeUpdate: { label: 'Generated images', labelPropertySelector: 'metadata.size' },
      });
      expect(updated).toMatchObject({
        id: type.id,
        name: 'image.generated',
        label: 'Generated images',
        labelPropertySelector: 'metadata.size',
        organizationId,
      });
      expect(updated.modifiedAt).toBeInstanceOf(Date);
      const byLabel = await polar.eventTypes.list({ organizationId, query: 'generated IMAGES' });
      expect(byLabel.result.items.map((item) => [item.name, item.label])).toEqual([
        ['image.generated', 'Generated images'],
      ]);
      // A second ingestion of the name keeps its type and label.
      await polar.events.ingest({ events: [{ name: 'image.generated', externalCustomerId: 'crm-42' }] });
      const again = await polar.eventTypes.list({ organizationId, query: 'image' });
      expect(again.result.items.map((item) => [item.id, item.label, item.occurrences])).toEqual([
        [type.id, 'Generated images', 2],
      ]);
    });

    it('filters by source, customer and parent as 0.48.1 asks, and refuses an empty label', async () => {
      const system = await polar.eventTypes.list({ organizationId, source: 'system' });
      expect(system.result.items.map((item) => item.name)).toEqual(['customer.created']);
      const third = await polar.eventTypes.list({ organizationId, customerId: customerIds[2] });
      expect(third.result.items.map((item) => item.name)).toEqual(['api.call']);
      // Tollgate's events have no parents.
      const children = await polar.eventTypes.list({ organizationId, parentId: customerIds[0] });
      expect(children.result.items).toEqual([]);
      const roots = await polar.eventTypes.list({ organizationId, rootEvents: true });
      expect(roots.result.pagination.totalCount).toBeGreaterThanOrEqual(3);

      const tokens = (await polar.eventTypes.list({ organizationId, query: 'llm' })).result.items[0]!;
      await expect(
        polar.eventTypes.update({ id: tokens.id!, eventTypeUpdate: { label: '' } }),
      ).rejects.toBeInstanceOf(HTTPValidationError);
      await expect(
        polar.eventTypes.update({
          id: '00000000-0000-4000-8000-000000000000',
          eventTypeUpdate: { label: 'x' },
        }),
      ).rejects.toMatchObject({ statusCode: 404 });
    });
  });
});
