import { DEFAULT_TIME_ZONE, startOfDayIn } from '../dates/rules.js';
import type { FieldIssue } from '../platform/errors.js';
import type { TimeInterval } from '../usage/schemas.js';
import type {
  Metric,
  MetricPeriod,
  MetricsLimits,
  MetricsQuery,
  MetricsResponse,
  MetricSlug,
  MetricValues,
} from './schemas.js';

/** Each metric as the answer's `metrics` describes it (Polar's names for Polar's metrics). */
export const METRIC_DEFINITIONS: Record<MetricSlug, Omit<Metric, 'slug'>> = {
  orders: { display_name: 'Orders', type: 'scalar' },
  revenue: { display_name: 'Revenue', type: 'currency' },
  cumulative_revenue: { display_name: 'Cumulative Revenue', type: 'currency' },
  average_order_value: { display_name: 'Average Order Value', type: 'currency' },
  one_time_products: { display_name: 'One-Time Products', type: 'scalar' },
  one_time_products_revenue: { display_name: 'One-Time Products Revenue', type: 'currency' },
  new_subscriptions: { display_name: 'New Subscriptions', type: 'scalar' },
  new_subscriptions_revenue: { display_name: 'New Subscriptions Revenue', type: 'currency' },
  renewed_subscriptions: { display_name: 'Renewed Subscriptions', type: 'scalar' },
  renewed_subscriptions_revenue: { display_name: 'Renewed Subscriptions Revenue', type: 'currency' },
  active_subscriptions: { display_name: 'Active Subscriptions', type: 'scalar' },
  monthly_recurring_revenue: { display_name: 'Monthly Recurring Revenue', type: 'currency' },
  checkouts: { display_name: 'Checkouts', type: 'scalar' },
  succeeded_checkouts: { display_name: 'Succeeded Checkouts', type: 'scalar' },
  checkouts_conversion: { display_name: 'Checkouts Conversion Rate', type: 'percentage' },
  new_customers: { display_name: 'New Customers', type: 'scalar' },
  refunds: { display_name: 'Refunds', type: 'scalar' },
  refunded_amount: { display_name: 'Refunded Amount', type: 'currency' },
};

/** Used when an organization has neither orders nor priced products, or none is counted. */
export const METRICS_DEFAULT_CURRENCY = 'usd';

/** The earliest and latest dates asked about: bounds that keep every period a plain ISO instant. */
export const METRICS_MIN_DATE = '2000-01-01';
export const METRICS_MAX_DATE = '2099-12-31';

/**
 * The longest range per interval, in days between the start and end dates (Polar's caps, but a
 * year of days where Polar allows 90: the Overview draws a year by day).
 */
export const METRICS_MAX_RANGE_DAYS: Record<TimeInterval, number> = {
  hour: 7,
  day: 366,
  week: 365,
  month: 1460,
  year: 3650,
};

/**
 * The shortest range that each interval charts well, in days: advice for a dashboard choosing an
 * interval, never refused (Polar's values, and Polar does not refuse them either).
 */
export const METRICS_MIN_RANGE_DAYS: Record<TimeInterval, number> = {
  hour: 0,
  day: 0,
  week: 14,
  month: 60,
  year: 366,
};

const DAY_MS = 24 * 60 * 60 * 1000;

const INTERVAL_WORDS: Record<TimeInterval, string> = {
  hour: 'By hour',
  day: 'By day',
  week: 'By week',
  month: 'By month',
  year: 'By year',
};

export function metricsLimits(): MetricsLimits {
  const limit = (interval: TimeInterval) => ({
    min_days: METRICS_MIN_RANGE_DAYS[interval],
    max_days: METRICS_MAX_RANGE_DAYS[interval],
  });
  return {
    min_date: METRICS_MIN_DATE,
    max_date: METRICS_MAX_DATE,
    intervals: {
      hour: limit('hour'),
      day: limit('day'),
      week: limit('week'),
      month: limit('month'),
      year: limit('year'),
    },
  };
}

/** What is counted: from the start date's midnight UTC up to (not including) the midnight after the end date. */
/** The instants counted (`to` excluded), cut into periods of `interval` on the time zone's calendar. */
export type MetricsRange = { from: Date; to: Date; interval: TimeInterval; timeZone: string };

/** The range the dates describe, or what is wrong with them, each issue at its field. */
export function metricsRange(
  query: Pick<MetricsQuery, 'start_date' | 'end_date' | 'interval' | 'timezone'>,
): { range: MetricsRange } | { issues: FieldIssue[] } {
  const issues: FieldIssue[] = [];
  const issue = (field: string, msg: string) =>
    issues.push({ loc: ['query', field], msg, type: 'value_error' });
  // ISO dates compare as text.
  for (const field of ['start_date', 'end_date'] as const) {
    if (query[field] < METRICS_MIN_DATE) issue(field, `Choose a date on or after ${METRICS_MIN_DATE}.`);
    else if (query[field] > METRICS_MAX_DATE) issue(field, `Choose a date on or before ${METRICS_MAX_DATE}.`);
  }
  if (issues.length > 0) return { issues };
  const from = new Date(`${query.start_date}T00:00:00Z`);
  const last = new Date(`${query.end_date}T00:00:00Z`);
  const days = (last.getTime() - from.getTime()) / DAY_MS;
  if (days < 0) {
    issue('end_date', 'The end date is before the start date: choose an end date on or after it.');
  } else if (days > METRICS_MAX_RANGE_DAYS[query.interval]) {
    const max = METRICS_MAX_RANGE_DAYS[query.interval];
    issue(
      'end_date',
      `${INTERVAL_WORDS[query.interval]}, metrics cover at most ${max} days after the start date: choose a shorter range or a longer interval.`,
    );
  }
  if (issues.length > 0) return { issues };
  const timeZone = query.timezone ?? DEFAULT_TIME_ZONE;
  // The days are the time zone's: from the start date's midnight there to the one after the end date.
  const dayAfterEnd = new Date(last.getTime() + DAY_MS).toISOString().slice(0, 10);
  return {
    range: {
      from: startOfDayIn(query.start_date, timeZone),
      to: startOfDayIn(dayAfterEnd, timeZone),
      interval: query.interval,
      timeZone,
    },
  };
}

// What the repository reads, one row per period of the same series in every family.

export type OrderPeriodRow = {
  timestamp: Date;
  orders: number;
  revenue: number;
  one_time_products: number;
  one_time_products_revenue: number;
  new_subscriptions: number;
  new_subscriptions_revenue: number;
  renewed_subscriptions: number;
  renewed_subscriptions_revenue: number;
};

/**
 * How the active subscriptions changed during the period (started minus ended), and their fixed
 * amounts per interval; the first period also carries every change before it, so that running
 * sums give the state at each period's end.
 */
export type SubscriptionPeriodRow = {
  timestamp: Date;
  active_change: number;
  monthly_amount_change: number;
  yearly_amount_change: number;
};

export type CheckoutPeriodRow = { timestamp: Date; checkouts: number; succeeded_checkouts: number };
export type CustomerPeriodRow = { timestamp: Date; new_customers: number };
export type RefundPeriodRow = { timestamp: Date; refunds: number; refunded_amount: number };

export type MetricFamilies = {
  orders: OrderPeriodRow[];
  subscriptions: SubscriptionPeriodRow[];
  checkouts: CheckoutPeriodRow[];
  customers: CustomerPeriodRow[];
  refunds: RefundPeriodRow[];
};

/** Revenue per order, to the nearest minor unit (half up); 0 without orders. */
export function averageOrderValue(revenue: number, orders: number): number {
  return orders === 0 ? 0 : Math.round(revenue / orders);
}

/**
 * Monthly plans count at their amount, yearly ones at a twelfth: the yearly amounts are summed
 * first and divided once, so a hundred yearly plans do not gather a hundred roundings.
 */
export function monthlyRecurringRevenue(monthlyAmounts: number, yearlyAmounts: number): number {
  return monthlyAmounts + Math.round(yearlyAmounts / 12);
}

/** Succeeded checkouts per checkout opened, from 0 to 1 (Polar's percentage metrics are ratios). */
export function checkoutConversion(succeeded: number, checkouts: number): number {
  return checkouts === 0 ? 0 : succeeded / checkouts;
}

function sameSeries(families: MetricFamilies): Date[] {
  const timestamps = families.orders.map((row) => row.timestamp.getTime());
  for (const rows of [families.subscriptions, families.checkouts, families.customers, families.refunds]) {
    if (
      rows.length !== timestamps.length ||
      rows.some((row, i) => row.timestamp.getTime() !== timestamps[i])
    ) {
      throw new Error('metric families answered different periods');
    }
  }
  return families.orders.map((row) => row.timestamp);
}

/**
 * The answer from the families' rows: each period's figures, and the totals over the range: sums
 * for what happens in a period, the state at the range's end for what is a state (active
 * subscriptions, MRR, cumulative revenue), ratios of the sums for averages and conversion.
 */
export function metricsAnswer(families: MetricFamilies, currency: string): MetricsResponse {
  const timestamps = sameSeries(families);
  let cumulativeRevenue = 0;
  let active = 0;
  let monthly = 0;
  let yearly = 0;
  const periods: MetricPeriod[] = timestamps.map((timestamp, i) => {
    const order = families.orders[i]!;
    const subscription = families.subscriptions[i]!;
    const checkout = families.checkouts[i]!;
    const refund = families.refunds[i]!;
    cumulativeRevenue += order.revenue;
    active += subscription.active_change;
    monthly += subscription.monthly_amount_change;
    yearly += subscription.yearly_amount_change;
    const values: MetricValues = {
      orders: order.orders,
      revenue: order.revenue,
      cumulative_revenue: cumulativeRevenue,
      average_order_value: averageOrderValue(order.revenue, order.orders),
      one_time_products: order.one_time_products,
      one_time_products_revenue: order.one_time_products_revenue,
      new_subscriptions: order.new_subscriptions,
      new_subscriptions_revenue: order.new_subscriptions_revenue,
      renewed_subscriptions: order.renewed_subscriptions,
      renewed_subscriptions_revenue: order.renewed_subscriptions_revenue,
      active_subscriptions: active,
      monthly_recurring_revenue: monthlyRecurringRevenue(monthly, yearly),
      checkouts: checkout.checkouts,
      succeeded_checkouts: checkout.succeeded_checkouts,
      checkouts_conversion: checkoutConversion(checkout.succeeded_checkouts, checkout.checkouts),
      new_customers: families.customers[i]!.new_customers,
      refunds: refund.refunds,
      refunded_amount: refund.refunded_amount,
    };
    return { timestamp: timestamp.toISOString(), ...values };
  });
  const sum = (slug: MetricSlug) => periods.reduce((total, period) => total + period[slug], 0);
  const last = periods.at(-1);
  const totals: MetricValues = {
    orders: sum('orders'),
    revenue: sum('revenue'),
    cumulative_revenue: cumulativeRevenue,
    average_order_value: averageOrderValue(sum('revenue'), sum('orders')),
    one_time_products: sum('one_time_products'),
    one_time_products_revenue: sum('one_time_products_revenue'),
    new_subscriptions: sum('new_subscriptions'),
    new_subscriptions_revenue: sum('new_subscriptions_revenue'),
    renewed_subscriptions: sum('renewed_subscriptions'),
    renewed_subscriptions_revenue: sum('renewed_subscriptions_revenue'),
    active_subscriptions: last?.active_subscriptions ?? 0,
    monthly_recurring_revenue: last?.monthly_recurring_revenue ?? 0,
    checkouts: sum('checkouts'),
    succeeded_checkouts: sum('succeeded_checkouts'),
    checkouts_conversion: checkoutConversion(sum('succeeded_checkouts'), sum('checkouts')),
    new_customers: sum('new_customers'),
    refunds: sum('refunds'),
    refunded_amount: sum('refunded_amount'),
  };
  const metrics = Object.fromEntries(
    Object.entries(METRIC_DEFINITIONS).map(([slug, definition]) => [slug, { slug, ...definition }]),
  ) as Record<MetricSlug, Metric>;
  return { periods, totals, metrics, currency };
}
