import { describe, expect, it } from '@jest/globals';
import {
  averageOrderValue,
  checkoutConversion,
  metricsAnswer,
  metricsLimits,
  metricsRange,
  monthlyRecurringRevenue,
  type MetricFamilies,
} from './rules.js';
import { METRIC_SLUGS } from './schemas.js';

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
      },
      { timestamp: at(2), ...zeroOrders },
      {
        timestamp: at(3),
        ...zeroOrders,
        orders: 1,
        revenue: 1500,
        new_subscriptions: 1,
        new_subscriptions_revenue: 1500,
      },
    ],
    subscriptions: [
      // Two plans started before the range: they are active from its first period.
      { timestamp: at(1), active_change: 2, monthly_amount_change: 1500, yearly_amount_change: 12_000 },
      { timestamp: at(2), active_change: 0, monthly_amount_change: 0, yearly_amount_change: 0 },
      { timestamp: at(3), active_change: -1, monthly_amount_change: -1500, yearly_amount_change: 0 },
    ],
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

  it('totals sums, the state at the range’s end, and ratios of the sums', () => {
    expect(metricsAnswer(families, 'usd').totals).toEqual({
      orders: 3,
      revenue: 4500,
      cumulative_revenue: 4500,
      average_order_value: 1500,
      one_time_products: 2,
      one_time_products_revenue: 3000,
      new_subscriptions: 1,
      new_subscriptions_revenue: 1500,
      renewed_subscriptions: 0,
      renewed_subscriptions_revenue: 0,
      active_subscriptions: 1,
      monthly_recurring_revenue: 1000,
      checkouts: 6,
      succeeded_checkouts: 3,
      checkouts_conversion: 0.5,
      new_customers: 3,
      refunds: 1,
      refunded_amount: 500,
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

  it('refuses families of different periods (a bug, never an answer)', () => {
    expect(() => metricsAnswer({ ...families, refunds: families.refunds.slice(1) }, 'usd')).toThrow(
      'metric families answered different periods',
    );
  });
});
