import { DEFAULT_TIME_ZONE, startOfDayIn } from '../dates/rules.js';
import type { FieldIssue } from '../platform/errors.js';
import { csvLine } from '../platform/rules.js';
import type { TimeInterval } from '../usage/schemas.js';
import { METRIC_SLUGS } from './schemas.js';
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
  active_subscriptions: { display_name: 'Active Subscriptions', type: 'scalar' },
  committed_subscriptions: { display_name: 'Committed Subscriptions', type: 'scalar' },
  monthly_recurring_revenue: { display_name: 'Monthly Recurring Revenue', type: 'currency' },
  trial_monthly_recurring_revenue: { display_name: 'Trial Monthly Recurring Revenue', type: 'currency' },
  committed_monthly_recurring_revenue: {
    display_name: 'Committed Monthly Recurring Revenue',
    type: 'currency',
  },
  trial_committed_monthly_recurring_revenue: {
    display_name: 'Trial Committed Monthly Recurring Revenue',
    type: 'currency',
  },
  average_revenue_per_user: { display_name: 'Average Revenue Per User', type: 'currency' },
  checkouts: { display_name: 'Checkouts', type: 'scalar' },
  succeeded_checkouts: { display_name: 'Succeeded Checkouts', type: 'scalar' },
  churned_subscriptions: { display_name: 'Churned Subscriptions', type: 'scalar' },
  churn_rate: { display_name: 'Churn Rate', type: 'percentage' },
  seats_total: { display_name: 'Total Seats', type: 'scalar' },
  seats_claimed: { display_name: 'Claimed Seats', type: 'scalar' },
  seats_pending: { display_name: 'Pending Seats', type: 'scalar' },
  seat_customers: { display_name: 'Seat Customers', type: 'scalar' },
  new_seat_customers: { display_name: 'New Seat Customers', type: 'scalar' },
  churned_seat_customers: { display_name: 'Churned Seat Customers', type: 'scalar' },
  orders: { display_name: 'Orders', type: 'scalar' },
  revenue: { display_name: 'Revenue', type: 'currency' },
  net_revenue: { display_name: 'Net Revenue', type: 'currency' },
  cumulative_revenue: { display_name: 'Cumulative Revenue', type: 'currency' },
  net_cumulative_revenue: { display_name: 'Net Cumulative Revenue', type: 'currency' },
  costs: { display_name: 'Costs', type: 'currency_sub_cent' },
  cumulative_costs: { display_name: 'Cumulative Costs', type: 'currency_sub_cent' },
  average_order_value: { display_name: 'Average Order Value', type: 'currency' },
  net_average_order_value: { display_name: 'Net Average Order Value', type: 'currency' },
  cost_per_user: { display_name: 'Cost Per User', type: 'currency_sub_cent' },
  active_user_by_event: { display_name: 'Active User (By event)', type: 'scalar' },
  one_time_products: { display_name: 'One-Time Products', type: 'scalar' },
  one_time_products_revenue: { display_name: 'One-Time Products Revenue', type: 'currency' },
  one_time_products_net_revenue: { display_name: 'One-Time Products Net Revenue', type: 'currency' },
  new_subscriptions: { display_name: 'New Subscriptions', type: 'scalar' },
  new_subscriptions_revenue: { display_name: 'New Subscriptions Revenue', type: 'currency' },
  new_subscriptions_net_revenue: { display_name: 'New Subscriptions Net Revenue', type: 'currency' },
  renewed_subscriptions: { display_name: 'Renewed Subscriptions', type: 'scalar' },
  renewed_subscriptions_revenue: { display_name: 'Renewed Subscriptions Revenue', type: 'currency' },
  renewed_subscriptions_net_revenue: { display_name: 'Renewed Subscriptions Net Revenue', type: 'currency' },
  canceled_subscriptions: { display_name: 'Canceled Subscriptions', type: 'scalar' },
  canceled_subscriptions_customer_service: {
    display_name: 'Canceled Subscriptions - Customer Service',
    type: 'scalar',
  },
  canceled_subscriptions_low_quality: {
    display_name: 'Canceled Subscriptions - Low Quality',
    type: 'scalar',
  },
  canceled_subscriptions_missing_features: {
    display_name: 'Canceled Subscriptions - Missing Features',
    type: 'scalar',
  },
  canceled_subscriptions_switched_service: {
    display_name: 'Canceled Subscriptions - Switched Service',
    type: 'scalar',
  },
  canceled_subscriptions_too_complex: {
    display_name: 'Canceled Subscriptions - Too Complex',
    type: 'scalar',
  },
  canceled_subscriptions_too_expensive: {
    display_name: 'Canceled Subscriptions - Too Expensive',
    type: 'scalar',
  },
  canceled_subscriptions_unused: { display_name: 'Canceled Subscriptions - Unused', type: 'scalar' },
  canceled_subscriptions_other: { display_name: 'Canceled Subscriptions - Other', type: 'scalar' },
  annual_recurring_revenue: { display_name: 'Annual Recurring Revenue', type: 'currency' },
  committed_annual_recurring_revenue: {
    display_name: 'Committed Annual Recurring Revenue',
    type: 'currency',
  },
  checkouts_conversion: { display_name: 'Checkouts Conversion Rate', type: 'percentage' },
  ltv: { display_name: 'Lifetime Value', type: 'currency' },
  gross_margin: { display_name: 'Gross Margin', type: 'currency' },
  gross_margin_percentage: { display_name: 'Gross Margin %', type: 'percentage' },
  cashflow: { display_name: 'Cashflow', type: 'currency' },
  average_seats_per_customer: { display_name: 'Average Seats Per Customer', type: 'scalar' },
  seat_utilization_rate: { display_name: 'Seat Utilization Rate', type: 'percentage' },
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
  /** The same orders' amounts less what has been refunded of them (Tollgate takes no fee). */
  net_revenue: number;
  one_time_products_net_revenue: number;
  new_subscriptions_net_revenue: number;
  renewed_subscriptions_net_revenue: number;
};

/**
 * How the active subscriptions changed during the period (started minus ended), and their fixed
 * amounts per interval; the same for the committed ones (not canceled) and for the customers
 * holding one. The first period also carries every change before it (`prior_active` of them
 * active subscriptions), so that running sums give the state at each period's end.
 */
export type SubscriptionPeriodRow = {
  timestamp: Date;
  active_change: number;
  prior_active: number;
  monthly_amount_change: number;
  yearly_amount_change: number;
  committed_change: number;
  committed_monthly_amount_change: number;
  committed_yearly_amount_change: number;
  subscriber_change: number;
};

export type CancellationPeriodRow = {
  timestamp: Date;
  canceled_subscriptions: number;
  canceled_subscriptions_customer_service: number;
  canceled_subscriptions_low_quality: number;
  canceled_subscriptions_missing_features: number;
  canceled_subscriptions_switched_service: number;
  canceled_subscriptions_too_complex: number;
  canceled_subscriptions_too_expensive: number;
  canceled_subscriptions_unused: number;
  canceled_subscriptions_other: number;
  churned_subscriptions: number;
};

export type CheckoutPeriodRow = { timestamp: Date; checkouts: number; succeeded_checkouts: number };
export type CustomerPeriodRow = { timestamp: Date; new_customers: number };
export type RefundPeriodRow = { timestamp: Date; refunds: number; refunded_amount: number };
/** Costs in minor units with fractions; customers who sent an event in the period. */
export type EventPeriodRow = { timestamp: Date; costs: number; active_users: number };

export type MetricFamilies = {
  orders: OrderPeriodRow[];
  subscriptions: SubscriptionPeriodRow[];
  cancellations: CancellationPeriodRow[];
  checkouts: CheckoutPeriodRow[];
  customers: CustomerPeriodRow[];
  refunds: RefundPeriodRow[];
  events: EventPeriodRow[];
  /** Customers who sent an event anywhere in the range (each once). */
  eventUsers: number;
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

/** A part of a whole, 0 when there is no whole (every ratio of Polar's answers 0 then). */
export function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : part / whole;
}

/** MRR per customer holding a subscription, to the nearest minor unit. */
export function averageRevenuePerUser(mrr: number, subscribers: number): number {
  return subscribers === 0 ? 0 : Math.round(mrr / subscribers);
}

/**
 * Subscriptions canceled in a stretch per subscription active at its start (Polar's churn rate:
 * active at the end, less those started, plus those ended, is active at the start).
 */
export function churnRate(canceled: number, activeAtStart: number): number {
  return activeAtStart <= 0 ? 0 : canceled / activeAtStart;
}

/**
 * What a subscriber brings before they leave: what they pay per month, less what they cost, over
 * the share that leaves per period (Polar's: whole minor units, never below 0, 0 without churn).
 */
export function lifetimeValue(arpu: number, costPerUser: number, churn: number): number {
  if (churn === 0) return 0;
  return Math.max(0, Math.trunc((arpu - costPerUser) / churn));
}

function sameSeries(families: MetricFamilies): Date[] {
  const timestamps = families.orders.map((row) => row.timestamp.getTime());
  for (const rows of [
    families.subscriptions,
    families.cancellations,
    families.checkouts,
    families.customers,
    families.refunds,
    families.events,
  ]) {
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
 * Seat-based prices and trials are not part of Tollgate's catalogue yet (products/schemas.ts
 * refuses trials): Polar answers 0 for an organization without them, and so do we.
 */
const ABSENT_IN_TOLLGATE = {
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
} as const satisfies Partial<MetricValues>;

/** The figures that follow from the others, in a period or over the range. */
function derived(
  values: Omit<
    MetricValues,
    | 'ltv'
    | 'gross_margin'
    | 'gross_margin_percentage'
    | 'cashflow'
    | 'annual_recurring_revenue'
    | 'committed_annual_recurring_revenue'
  >,
): MetricValues {
  const grossMargin = values.cumulative_revenue - values.cumulative_costs;
  return {
    ...values,
    annual_recurring_revenue: values.monthly_recurring_revenue * 12,
    committed_annual_recurring_revenue: values.committed_monthly_recurring_revenue * 12,
    ltv: lifetimeValue(values.average_revenue_per_user, values.cost_per_user, values.churn_rate),
    gross_margin: grossMargin,
    gross_margin_percentage: values.cumulative_revenue > 0 ? grossMargin / values.cumulative_revenue : 0,
    cashflow: values.revenue - values.costs,
  };
}

const CANCELLATION_SLUGS = [
  'canceled_subscriptions',
  'canceled_subscriptions_customer_service',
  'canceled_subscriptions_low_quality',
  'canceled_subscriptions_missing_features',
  'canceled_subscriptions_switched_service',
  'canceled_subscriptions_too_complex',
  'canceled_subscriptions_too_expensive',
  'canceled_subscriptions_unused',
  'canceled_subscriptions_other',
  'churned_subscriptions',
] as const;

/**
 * The answer from the families' rows: each period's figures, and the totals over the range: sums
 * for what happens in a period, the state at the range's end for what is a state (subscriptions,
 * MRR and ARR, ARPU, cumulative figures), ratios of the sums for averages, conversion, costs per
 * user and churn (canceled in the range per active at its start), and what follows from those.
 */
export function metricsAnswer(families: MetricFamilies, currency: string): MetricsResponse {
  const timestamps = sameSeries(families);
  let cumulativeRevenue = 0;
  let netCumulativeRevenue = 0;
  let cumulativeCosts = 0;
  let active = 0;
  let monthly = 0;
  let yearly = 0;
  let committed = 0;
  let committedMonthly = 0;
  let committedYearly = 0;
  let subscribers = 0;
  let activeAtRangeStart = 0;
  const periods: MetricPeriod[] = timestamps.map((timestamp, i) => {
    const order = families.orders[i]!;
    const subscription = families.subscriptions[i]!;
    const cancellation = families.cancellations[i]!;
    const checkout = families.checkouts[i]!;
    const refund = families.refunds[i]!;
    const event = families.events[i]!;
    // Before this period's changes: the previous period's end, or (first) the changes before the range.
    const activeAtStart = i === 0 ? subscription.prior_active : active;
    if (i === 0) activeAtRangeStart = activeAtStart;
    cumulativeRevenue += order.revenue;
    netCumulativeRevenue += order.net_revenue;
    cumulativeCosts += event.costs;
    active += subscription.active_change;
    monthly += subscription.monthly_amount_change;
    yearly += subscription.yearly_amount_change;
    committed += subscription.committed_change;
    committedMonthly += subscription.committed_monthly_amount_change;
    committedYearly += subscription.committed_yearly_amount_change;
    subscribers += subscription.subscriber_change;
    const mrr = monthlyRecurringRevenue(monthly, yearly);
    const values = derived({
      ...ABSENT_IN_TOLLGATE,
      orders: order.orders,
      revenue: order.revenue,
      net_revenue: order.net_revenue,
      cumulative_revenue: cumulativeRevenue,
      net_cumulative_revenue: netCumulativeRevenue,
      costs: event.costs,
      cumulative_costs: cumulativeCosts,
      average_order_value: averageOrderValue(order.revenue, order.orders),
      net_average_order_value: averageOrderValue(order.net_revenue, order.orders),
      cost_per_user: ratio(event.costs, event.active_users),
      active_user_by_event: event.active_users,
      one_time_products: order.one_time_products,
      one_time_products_revenue: order.one_time_products_revenue,
      one_time_products_net_revenue: order.one_time_products_net_revenue,
      new_subscriptions: order.new_subscriptions,
      new_subscriptions_revenue: order.new_subscriptions_revenue,
      new_subscriptions_net_revenue: order.new_subscriptions_net_revenue,
      renewed_subscriptions: order.renewed_subscriptions,
      renewed_subscriptions_revenue: order.renewed_subscriptions_revenue,
      renewed_subscriptions_net_revenue: order.renewed_subscriptions_net_revenue,
      active_subscriptions: active,
      committed_subscriptions: committed,
      monthly_recurring_revenue: mrr,
      committed_monthly_recurring_revenue: monthlyRecurringRevenue(committedMonthly, committedYearly),
      average_revenue_per_user: averageRevenuePerUser(mrr, subscribers),
      ...Object.fromEntries(CANCELLATION_SLUGS.map((slug) => [slug, cancellation[slug]])),
      churn_rate: churnRate(cancellation.canceled_subscriptions, activeAtStart),
      checkouts: checkout.checkouts,
      succeeded_checkouts: checkout.succeeded_checkouts,
      checkouts_conversion: checkoutConversion(checkout.succeeded_checkouts, checkout.checkouts),
      new_customers: families.customers[i]!.new_customers,
      refunds: refund.refunds,
      refunded_amount: refund.refunded_amount,
    } as Parameters<typeof derived>[0]);
    return { timestamp: timestamp.toISOString(), ...values };
  });
  const sum = (slug: MetricSlug) => periods.reduce((total, period) => total + period[slug], 0);
  const last = periods.at(-1);
  const atEnd = (slug: MetricSlug) => last?.[slug] ?? 0;
  const totals = derived({
    ...ABSENT_IN_TOLLGATE,
    orders: sum('orders'),
    revenue: sum('revenue'),
    net_revenue: sum('net_revenue'),
    cumulative_revenue: cumulativeRevenue,
    net_cumulative_revenue: netCumulativeRevenue,
    costs: cumulativeCosts,
    cumulative_costs: cumulativeCosts,
    average_order_value: averageOrderValue(sum('revenue'), sum('orders')),
    net_average_order_value: averageOrderValue(sum('net_revenue'), sum('orders')),
    cost_per_user: ratio(cumulativeCosts, families.eventUsers),
    active_user_by_event: families.eventUsers,
    one_time_products: sum('one_time_products'),
    one_time_products_revenue: sum('one_time_products_revenue'),
    one_time_products_net_revenue: sum('one_time_products_net_revenue'),
    new_subscriptions: sum('new_subscriptions'),
    new_subscriptions_revenue: sum('new_subscriptions_revenue'),
    new_subscriptions_net_revenue: sum('new_subscriptions_net_revenue'),
    renewed_subscriptions: sum('renewed_subscriptions'),
    renewed_subscriptions_revenue: sum('renewed_subscriptions_revenue'),
    renewed_subscriptions_net_revenue: sum('renewed_subscriptions_net_revenue'),
    active_subscriptions: atEnd('active_subscriptions'),
    committed_subscriptions: atEnd('committed_subscriptions'),
    monthly_recurring_revenue: atEnd('monthly_recurring_revenue'),
    committed_monthly_recurring_revenue: atEnd('committed_monthly_recurring_revenue'),
    average_revenue_per_user: atEnd('average_revenue_per_user'),
    ...Object.fromEntries(CANCELLATION_SLUGS.map((slug) => [slug, sum(slug)])),
    churn_rate: churnRate(sum('canceled_subscriptions'), activeAtRangeStart),
    checkouts: sum('checkouts'),
    succeeded_checkouts: sum('succeeded_checkouts'),
    checkouts_conversion: checkoutConversion(sum('succeeded_checkouts'), sum('checkouts')),
    new_customers: sum('new_customers'),
    refunds: sum('refunds'),
    refunded_amount: sum('refunded_amount'),
  } as Parameters<typeof derived>[0]);
  const metrics = Object.fromEntries(
    Object.entries(METRIC_DEFINITIONS).map(([slug, definition]) => [slug, { slug, ...definition }]),
  ) as Record<MetricSlug, Metric>;
  return { periods, totals, metrics, currency };
}

/** The columns of an export: the metrics asked for, in that order (each once), else every metric. */
export function exportedMetricSlugs(asked: MetricSlug | MetricSlug[] | undefined): MetricSlug[] {
  return asked === undefined ? [...METRIC_SLUGS] : [...new Set([asked].flat())];
}

/** `GET /v1/metrics/export`: a header of `timestamp` and the slugs, then a line per period. */
export function* metricsCsvLines(answer: MetricsResponse, slugs: readonly MetricSlug[]): Generator<string> {
  yield csvLine(['timestamp', ...slugs]);
  for (const period of answer.periods)
    yield csvLine([period.timestamp, ...slugs.map((slug) => period[slug])]);
}
