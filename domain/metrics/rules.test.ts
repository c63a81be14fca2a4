import { describe, expect, it } from '@jest/globals';
import {
  averageOrderValue,
  checkoutConversion,
  exportedMetricSlugs,
  metricsAnswer,
  metricsCsvLines,
  metricsLimits,
  metricsRange,
  monthlyRecurringRevenue,
  type MetricFamilies,
} from './rules.js';
import { METRIC_SLUGS, type MetricSlug } from './schemas.js';

describe('metricsRange', () => {
  it('counts from the start date’s midnight UTC to the midnight after the end date', () => {
    expect(metricsRange({ start_date: '2025-01-01', end_date: '2025-01-31', interval: 'day' })).toEqual({
      range: {
        from: new Date('2025-01-01T00:00:00Z'),
        to: new Date('2025-02-01T00:00:00Z'),
        interval: 'day',
        timeZone: 'UTC',
      },
    });
  });

  it('counts the days of the time zone asked for, across a change of its clocks', () => {
    const berlin = metricsRange({
      start_date: '2026-03-28',
      end_date: '2026-03-29',
      interval: 'day',
      timezone: 'Europe/Berlin',
    });
    // Berlin's clocks move from UTC+1 to UTC+2 on the 29th: that day has 23 hours.
    expect(berlin).toEqual({
      range: {
        from: new Date('2026-03-27T23:00:00Z'),
        to: new Date('2026-03-29T22:00:00Z'),
        interval: 'day',
        timeZone: 'Europe/Berlin',
      },
    });
  });

  it('takes one day, and a year of days (leap years included)', () => {
    expect(
      metricsRange({ start_date: '2025-03-04', end_date: '2025-03-04', interval: 'hour' }),
    ).toHaveProperty('range');
    expect(
      metricsRange({ start_date: '2024-01-01', end_date: '2025-01-01', interval: 'day' }),
    ).toHaveProperty('range');
  });

  it('refuses an end before the start, at end_date', () => {
    expect(metricsRange({ start_date: '2025-02-01', end_date: '2025-01-31', interval: 'day' })).toEqual({
      issues: [
        {
          loc: ['query', 'end_date'],
          msg: 'The end date is before the start date: choose an end date on or after it.',
          type: 'value_error',
        },
      ],
    });
  });

  it('refuses a range longer than its interval allows, naming the limit', () => {
    const hourly = metricsRange({ start_date: '2025-01-01', end_date: '2025-01-09', interval: 'hour' });
    expect(hourly).toEqual({
      issues: [
        {
          loc: ['query', 'end_date'],
          msg: 'By hour, metrics cover at most 7 days after the start date: choose a shorter range or a longer interval.',
          type: 'value_error',
        },
      ],
    });
    expect(
      metricsRange({ start_date: '2025-01-01', end_date: '2025-01-08', interval: 'hour' }),
    ).toHaveProperty('range');
    expect(
      metricsRange({ start_date: '2024-01-01', end_date: '2025-01-02', interval: 'day' }),
    ).toHaveProperty('issues');
  });

  it('refuses dates outside the limits, each at its field', () => {
    expect(metricsRange({ start_date: '1999-12-31', end_date: '2100-01-01', interval: 'year' })).toEqual({
      issues: [
        { loc: ['query', 'start_date'], msg: 'Choose a date on or after 2000-01-01.', type: 'value_error' },
        { loc: ['query', 'end_date'], msg: 'Choose a date on or before 2099-12-31.', type: 'value_error' },
      ],
    });
  });

  it('answers the same limits /v1/metrics/limits documents', () => {
    expect(metricsLimits()).toEqual({
      min_date: '2000-01-01',
      max_date: '2099-12-31',
      intervals: {
        hour: { min_days: 0, max_days: 7 },
        day: { min_days: 0, max_days: 366 },
        week: { min_days: 14, max_days: 365 },
        month: { min_days: 60, max_days: 1460 },
        year: { min_days: 366, max_days: 3650 },
      },
    });
  });
});

describe('figures', () => {
  it('averages orders to the nearest minor unit, 0 without orders', () => {
    expect(averageOrderValue(1000, 3)).toBe(333);
    expect(averageOrderValue(1001, 2)).toBe(501);
    expect(averageOrderValue(0, 0)).toBe(0);
  });

  it('counts a yearly plan at a twelfth, rounding the sum of yearly amounts once', () => {
    // Three plans of 1,000 a year: 250 a month together, where rounding each (83) would say 249.
    expect(monthlyRecurringRevenue(0, 3000)).toBe(250);
    expect(monthlyRecurringRevenue(1500, 1000)).toBe(1583);
    expect(monthlyRecurringRevenue(0, 6)).toBe(1);
  });

  it('converts succeeded checkouts to a ratio, 0 without checkouts', () => {
    expect(checkoutConversion(1, 4)).toBe(0.25);
    expect(checkoutConversion(0, 0)).toBe(0);
  });
});

describe('metricsAnswer', () => {
  const at = (day: number) => new Date(Date.UTC(2025, 0, day));
  const zeroOrders = {
    orders: 0,
    revenue: 0,
    one_time_products: 0,
    one_time_products_revenue: 0,
    new_subscriptions: 0,
    new_subscriptions_revenue: 0,
    renewed_subscriptions: 0,
    renewed_subscriptions_revenue: 0,
    net_revenue: 0,
    one_time_products_net_revenue: 0,
    new_subscriptions_net_revenue: 0,
    renewed_subscriptions_net_revenue: 0,
  };
  const noCancellations = {
    canceled_subscriptions: 0,
    canceled_subscriptions_customer_service: 0,
    canceled_subscriptions_low_quality: 0,
    canceled_subscriptions_missing_features: 0,
    canceled_subscriptions_switched_service: 0,
    canceled_subscriptions_too_complex: 0,
    canceled_subscriptions_too_expensive: 0,
    canceled_subscriptions_unused: 0,
    canceled_subscriptions_other: 0,
    churned_subscriptions: 0,
  };
  const noTrials = {
    trial_monthly_amount_change: 0,
    trial_yearly_amount_change: 0,
    trial_committed_monthly_amount_change: 0,
    trial_committed_yearly_amount_change: 0,
  };
  const families: MetricFamilies = {
    orders: [
      {
        timestamp: at(1),
        ...zeroOrders,
        orders: 2,
        revenue: 3000,
        one_time_products: 2,
        one_time_products_revenue: 3000,
        // 500 of it refunded since.
        net_revenue: 2500,
        one_time_products_net_revenue: 2500,
      },
      { timestamp: at(2), ...zeroOrders },
      {
        timestamp: at(3),
        ...zeroOrders,
        orders: 1,
        revenue: 1500,
        new_subscriptions: 1,
        new_subscriptions_revenue: 1500,
        net_revenue: 1500,
        new_subscriptions_net_revenue: 1500,
      },
    ],
    subscriptions: [
      // One customer's two plans, started before the range: active from its first period.
      {
        timestamp: at(1),
        active_change: 2,
        prior_active: 2,
        monthly_amount_change: 1500,
        yearly_amount_change: 12_000,
        committed_change: 2,
        committed_monthly_amount_change: 1500,
        committed_yearly_amount_change: 12_000,
        subscriber_change: 1,
        ...noTrials,
      },
      // The yearly plan is canceled at its period's end: active still, committed no more.
      {
        timestamp: at(2),
        active_change: 0,
        prior_active: 0,
        monthly_amount_change: 0,
        yearly_amount_change: 0,
        committed_change: -1,
        committed_monthly_amount_change: 0,
        committed_yearly_amount_change: -12_000,
        subscriber_change: 0,
        ...noTrials,
      },
      // The monthly plan is canceled and ends at once; the customer still holds the yearly one.
      {
        timestamp: at(3),
        active_change: -1,
        prior_active: 0,
        monthly_amount_change: -1500,
        yearly_amount_change: 0,
        committed_change: -1,
        committed_monthly_amount_change: -1500,
        committed_yearly_amount_change: 0,
        subscriber_change: 0,
        ...noTrials,
      },
    ],
    cancellations: [
      { timestamp: at(1), ...noCancellations },
      {
        timestamp: at(2),
        ...noCancellations,
        canceled_subscriptions: 1,
        canceled_subscriptions_too_expensive: 1,
      },
      {
        timestamp: at(3),
        ...noCancellations,
        canceled_subscriptions: 1,
        canceled_subscriptions_other: 1,
        churned_subscriptions: 1,
      },
    ],
    events: [
      { timestamp: at(1), costs: 250.5, active_users: 2 },
      { timestamp: at(2), costs: 0, active_users: 0 },
      { timestamp: at(3), costs: 100, active_users: 1 },
    ],
    eventUsers: 2,
    checkouts: [
      { timestamp: at(1), checkouts: 4, succeeded_checkouts: 2 },
      { timestamp: at(2), checkouts: 0, succeeded_checkouts: 0 },
      { timestamp: at(3), checkouts: 2, succeeded_checkouts: 1 },
    ],
    customers: [
      { timestamp: at(1), new_customers: 2 },
      { timestamp: at(2), new_customers: 0 },
      { timestamp: at(3), new_customers: 1 },
    ],
    refunds: [
      { timestamp: at(1), refunds: 0, refunded_amount: 0 },
      { timestamp: at(2), refunds: 1, refunded_amount: 500 },
      { timestamp: at(3), refunds: 0, refunded_amount: 0 },
    ],
    disputes: [
      { timestamp: at(1), disputes: 0, disputed_amount: 0 },
      { timestamp: at(2), disputes: 0, disputed_amount: 0 },
      { timestamp: at(3), disputes: 2, disputed_amount: 4900 },
    ],
  };

  it('answers each period, with running sums for the cumulative revenue and the active plans', () => {
    const answer = metricsAnswer(families, 'eur');
    expect(answer.currency).toBe('eur');
    expect(answer.periods.map((period) => period.timestamp)).toEqual([
      '2025-01-01T00:00:00.000Z',
      '2025-01-02T00:00:00.000Z',
      '2025-01-03T00:00:00.000Z',
    ]);
    expect(answer.periods.map((period) => period.cumulative_revenue)).toEqual([3000, 3000, 4500]);
    expect(answer.periods.map((period) => period.average_order_value)).toEqual([1500, 0, 1500]);
    expect(answer.periods.map((period) => period.active_subscriptions)).toEqual([2, 2, 1]);
    expect(answer.periods.map((period) => period.monthly_recurring_revenue)).toEqual([2500, 2500, 1000]);
    expect(answer.periods.map((period) => period.checkouts_conversion)).toEqual([0.5, 0, 0.5]);
    expect(answer.periods.map((period) => period.refunded_amount)).toEqual([0, 500, 0]);
  });

  it('answers committed plans, subscribers, churn, costs and what follows from them per period', () => {
    const { periods } = metricsAnswer(families, 'usd');
    const figures = (slug: MetricSlug) => periods.map((period) => period[slug]);
    expect(figures('committed_subscriptions')).toEqual([2, 1, 0]);
    expect(figures('committed_monthly_recurring_revenue')).toEqual([2500, 1500, 0]);
    expect(figures('annual_recurring_revenue')).toEqual([30_000, 30_000, 12_000]);
    expect(figures('committed_annual_recurring_revenue')).toEqual([30_000, 18_000, 0]);
    // One customer holds both plans: MRR per subscriber is all of it.
    expect(figures('average_revenue_per_user')).toEqual([2500, 2500, 1000]);
    // Canceled in the period per plan active at its start (two at each start).
    expect(figures('churn_rate')).toEqual([0, 0.5, 0.5]);
    expect(figures('churned_subscriptions')).toEqual([0, 0, 1]);
    expect(figures('canceled_subscriptions_too_expensive')).toEqual([0, 1, 0]);
    expect(figures('net_revenue')).toEqual([2500, 0, 1500]);
    expect(figures('net_cumulative_revenue')).toEqual([2500, 2500, 4000]);
    expect(figures('net_average_order_value')).toEqual([1250, 0, 1500]);
    expect(figures('cumulative_costs')).toEqual([250.5, 250.5, 350.5]);
    expect(figures('cost_per_user')).toEqual([125.25, 0, 100]);
    // (ARPU − cost per user) ÷ churn, 0 without churn.
    expect(figures('ltv')).toEqual([0, 5000, 1800]);
    expect(figures('gross_margin')).toEqual([2749.5, 2749.5, 4149.5]);
    expect(figures('gross_margin_percentage')).toEqual([2749.5 / 3000, 2749.5 / 3000, 4149.5 / 4500]);
    expect(figures('cashflow')).toEqual([2749.5, 0, 1400]);
    expect(figures('seats_total')).toEqual([0, 0, 0]);
  });

  it('totals sums, the state at the range’s end, and ratios of the sums', () => {
    expect(metricsAnswer(families, 'usd').totals).toEqual({
      orders: 3,
      revenue: 4500,
      net_revenue: 4000,
      cumulative_revenue: 4500,
      net_cumulative_revenue: 4000,
      average_order_value: 1500,
      net_average_order_value: 1333,
      one_time_products: 2,
      one_time_products_revenue: 3000,
      one_time_products_net_revenue: 2500,
      new_subscriptions: 1,
      new_subscriptions_revenue: 1500,
      new_subscriptions_net_revenue: 1500,
      renewed_subscriptions: 0,
      renewed_subscriptions_revenue: 0,
      renewed_subscriptions_net_revenue: 0,
      active_subscriptions: 1,
      committed_subscriptions: 0,
      monthly_recurring_revenue: 1000,
      committed_monthly_recurring_revenue: 0,
      annual_recurring_revenue: 12_000,
      committed_annual_recurring_revenue: 0,
      average_revenue_per_user: 1000,
      ...noCancellations,
      canceled_subscriptions: 2,
      canceled_subscriptions_too_expensive: 1,
      canceled_subscriptions_other: 1,
      churned_subscriptions: 1,
      // Two canceled of the two active at the range's start.
      churn_rate: 1,
      costs: 350.5,
      cumulative_costs: 350.5,
      // Two customers sent events in the range, one of them on both days.
      active_user_by_event: 2,
      cost_per_user: 175.25,
      ltv: 824,
      gross_margin: 4149.5,
      gross_margin_percentage: 4149.5 / 4500,
      cashflow: 4149.5,
      trial_monthly_recurring_revenue: 0,
      trial_committed_monthly_recurring_revenue: 0,
      seats_total: 0,
      seats_claimed: 0,
      seats_pending: 0,
      seat_customers: 0,
      new_seat_customers: 0,
      churned_seat_customers: 0,
      average_seats_per_customer: 0,
      seat_utilization_rate: 0,
      checkouts: 6,
      succeeded_checkouts: 3,
      checkouts_conversion: 0.5,
      new_customers: 3,
      refunds: 1,
      refunded_amount: 500,
      disputes: 2,
      disputed_amount: 4900,
    });
  });

  it('describes every metric, with a type', () => {
    const { metrics } = metricsAnswer(families, 'usd');
    expect(Object.keys(metrics).sort()).toEqual([...METRIC_SLUGS].sort());
    expect(metrics.monthly_recurring_revenue).toEqual({
      slug: 'monthly_recurring_revenue',
      display_name: 'Monthly Recurring Revenue',
      type: 'currency',
    });
    expect(metrics.checkouts_conversion.type).toBe('percentage');
  });

  it('answers every metric as a number in each period and the totals, none left out of a table', () => {
    const { periods, totals } = metricsAnswer(families, 'usd');
    expect(Object.keys(totals).sort()).toEqual([...METRIC_SLUGS].sort());
    for (const values of [...periods, totals]) {
      expect(METRIC_SLUGS.filter((slug) => !Number.isFinite(values[slug]))).toEqual([]);
    }
  });

  it('totals a range without periods as zeros, never dividing by none', () => {
    const empty: MetricFamilies = {
      orders: [],
      subscriptions: [],
      cancellations: [],
      checkouts: [],
      customers: [],
      refunds: [],
      disputes: [],
      events: [],
      eventUsers: 0,
    };
    const { periods, totals } = metricsAnswer(empty, 'usd');
    expect(periods).toEqual([]);
    expect(Object.fromEntries(METRIC_SLUGS.map((slug) => [slug, totals[slug]]))).toEqual(
      Object.fromEntries(METRIC_SLUGS.map((slug) => [slug, 0])),
    );
  });

  it('counts trialing plans in trial MRR until their trials end, then in MRR', () => {
    const change = { active_change: 0, prior_active: 0, committed_change: 0, subscriber_change: 0 };
    const paying = {
      monthly_amount_change: 0,
      yearly_amount_change: 0,
      committed_monthly_amount_change: 0,
      committed_yearly_amount_change: 0,
    };
    const { periods, totals } = metricsAnswer(
      {
        ...families,
        subscriptions: [
          // A customer starts two trials: $20.00 a month, and a yearly plan at $100.01 (833.4 a month).
          {
            timestamp: at(1),
            ...change,
            ...paying,
            active_change: 2,
            committed_change: 2,
            subscriber_change: 1,
            trial_monthly_amount_change: 2000,
            trial_yearly_amount_change: 10_001,
            trial_committed_monthly_amount_change: 2000,
            trial_committed_yearly_amount_change: 10_001,
          },
          // The monthly one is canceled during its trial, to end at the trial's end.
          {
            timestamp: at(2),
            ...change,
            ...paying,
            ...noTrials,
            committed_change: -1,
            trial_committed_monthly_amount_change: -2000,
          },
          // Both trials end: the canceled plan ends, never paying; the yearly one pays from now.
          {
            timestamp: at(3),
            ...change,
            active_change: -1,
            monthly_amount_change: 0,
            yearly_amount_change: 10_001,
            committed_monthly_amount_change: 0,
            committed_yearly_amount_change: 10_001,
            trial_monthly_amount_change: -2000,
            trial_yearly_amount_change: -10_001,
            trial_committed_monthly_amount_change: 0,
            trial_committed_yearly_amount_change: -10_001,
          },
        ],
      },
      'usd',
    );
    const figures = (slug: MetricSlug) => periods.map((period) => period[slug]);
    // 2000 + 10_001 / 12, rounded once.
    expect(figures('trial_monthly_recurring_revenue')).toEqual([2833, 2833, 0]);
    expect(figures('trial_committed_monthly_recurring_revenue')).toEqual([2833, 833, 0]);
    expect(figures('monthly_recurring_revenue')).toEqual([0, 0, 833]);
    expect(figures('committed_monthly_recurring_revenue')).toEqual([0, 0, 833]);
    expect(figures('annual_recurring_revenue')).toEqual([0, 0, 9996]);
    // Trialing plans are active subscriptions all along, their customer a subscriber paying nothing yet.
    expect(figures('active_subscriptions')).toEqual([2, 2, 1]);
    expect(figures('committed_subscriptions')).toEqual([2, 1, 1]);
    expect(figures('average_revenue_per_user')).toEqual([0, 0, 833]);
    expect(totals.trial_monthly_recurring_revenue).toBe(0);
    expect(totals.monthly_recurring_revenue).toBe(833);
  });

  it('refuses families of different periods (a bug, never an answer)', () => {
    expect(() => metricsAnswer({ ...families, refunds: families.refunds.slice(1) }, 'usd')).toThrow(
      'metric families answered different periods',
    );
  });
});

describe('metricsCsvLines', () => {
  it('writes a header and a line per period, the columns in the order asked, each once', () => {
    const answer = {
      periods: [{ timestamp: '2025-01-01T00:00:00.000Z', revenue: 2000, costs: 12.5 }],
    } as unknown as Parameters<typeof metricsCsvLines>[0];
    expect([...metricsCsvLines(answer, exportedMetricSlugs(['revenue', 'costs', 'revenue']))]).toEqual([
      'timestamp,revenue,costs\r\n',
      '2025-01-01T00:00:00.000Z,2000,12.5\r\n',
    ]);
    expect(exportedMetricSlugs(undefined)).toEqual([...METRIC_SLUGS]);
  });
});
