import { DEFAULT_TIME_ZONE, startOfDayIn } from '../dates/rules.js';
import type { FieldIssue } from '../platform/errors.js';
import { csvLine } from '../platform/rules.js';
import type { TimeInterval } from '../usage/schemas.js';
import { CANCELED_SUBSCRIPTION_METRICS, METRIC_SLUGS } from './schemas.js';
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
  disputes: { display_name: 'Disputes', type: 'scalar' },
  disputed_amount: { display_name: 'Disputed Amount', type: 'currency' },
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
 * holding one. A plan's amounts count as trial amounts while its free trial lasts and as paying
 * amounts from the trial's end (the counts take it from its start either way). The first period
 * also carries every change before it (`prior_active` of them active subscriptions), so that
 * running sums give the state at each period's end.
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
  trial_monthly_amount_change: number;
  trial_yearly_amount_change: number;
  trial_committed_monthly_amount_change: number;
  trial_committed_yearly_amount_change: number;
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
export type DisputePeriodRow = { timestamp: Date; disputes: number; disputed_amount: number };
/** Costs in minor units with fractions; customers who sent an event in the period. */
export type EventPeriodRow = { timestamp: Date; costs: number; active_users: number };

export type MetricFamilies = {
  orders: OrderPeriodRow[];
  subscriptions: SubscriptionPeriodRow[];
  cancellations: CancellationPeriodRow[];
  checkouts: CheckoutPeriodRow[];
  customers: CustomerPeriodRow[];
  refunds: RefundPeriodRow[];
  disputes: DisputePeriodRow[];
  events: EventPeriodRow[];
  /** Customers who sent an event anywhere in the range (each once). */
  eventUsers: number;
};

/** A total per unit (an order, a subscriber) to the nearest minor unit, half up; 0 without units. */
export function roundedAverage(total: number, units: number): number {
  return units === 0 ? 0 : Math.round(total / units);
}

/** Revenue per order: the rounded average the order metrics take. */
export const averageOrderValue = roundedAverage;

/**
 * Monthly plans count at their amount, every other cadence at a twelfth of what it bills in a year
 * (a yearly plan's amount, 4 × an every-3-months one's, 52 × a weekly one's): those are summed
 * first (exactly, as fractions of a cent may arise) and divided once, so a hundred yearly plans do
 * not gather a hundred roundings.
 */
export function monthlyRecurringRevenue(monthlyAmounts: number, yearlyAmounts: number): number {
  return monthlyAmounts + Math.round(yearlyAmounts / 12);
}

/**
 * A part of a whole, unrounded (Polar's percentage metrics are ratios from 0 to 1, its costs per
 * user keep their fractions); 0 when there is no whole, as every ratio of Polar's answers then.
 */
export function ratio(part: number, whole: number): number {
  return whole <= 0 ? 0 : part / whole;
}

/** Succeeded checkouts per checkout opened: the ratio the conversion metric takes. */
export const checkoutConversion = ratio;

const annualized = (monthly: number) => monthly * 12;
const difference = (from: number, less: number) => from - less;

/**
 * What a subscriber brings before they leave: what they pay per month, less what they cost, over
 * the share that leaves per period (Polar's: whole minor units, never below 0, 0 without churn).
 */
export function lifetimeValue(arpu: number, costPerUser: number, churn: number): number {
  if (churn === 0) return 0;
  return Math.max(0, Math.trunc((arpu - costPerUser) / churn));
}

/**
 * Figures that are no metric but that metrics derive from: the subscriptions active when a
 * stretch starts (for churn), the customers holding one, and the plans' amounts per interval
 * (paying, and in a free trial).
 */
type Basis =
  | 'active_at_start'
  | 'subscribers'
  | 'monthly_amounts'
  | 'yearly_amounts'
  | 'committed_monthly_amounts'
  | 'committed_yearly_amounts'
  | 'trial_monthly_amounts'
  | 'trial_yearly_amounts'
  | 'trial_committed_monthly_amounts'
  | 'trial_committed_yearly_amounts';
type Figure = MetricSlug | Basis;
type Figures = Record<Figure, number>;

type PeriodRows = Omit<MetricFamilies, 'eventUsers'>;
type Column<F extends keyof PeriodRows> = Exclude<keyof PeriodRows[F][number], 'timestamp'>;
/** A family's column, read from its row of a period. */
type Source = { [F in keyof PeriodRows]: readonly [family: F, column: Column<F>] }[keyof PeriodRows];

const columnOf = (families: MetricFamilies, [family, column]: Source, period: number): number =>
  (families[family][period] as unknown as Record<string, number>)[column]!;

const CANCELLATION_SLUGS = [...CANCELED_SUBSCRIPTION_METRICS, 'churned_subscriptions'] as const;

/**
 * What happens in a period, read from its family's column of the metric's own name; over the
 * range, the sum of the periods.
 */
const COUNTED_IN = {
  orders: [
    'orders',
    'revenue',
    'net_revenue',
    'one_time_products',
    'one_time_products_revenue',
    'one_time_products_net_revenue',
    'new_subscriptions',
    'new_subscriptions_revenue',
    'new_subscriptions_net_revenue',
    'renewed_subscriptions',
    'renewed_subscriptions_revenue',
    'renewed_subscriptions_net_revenue',
  ],
  cancellations: CANCELLATION_SLUGS,
  checkouts: ['checkouts', 'succeeded_checkouts'],
  customers: ['new_customers'],
  refunds: ['refunds', 'refunded_amount'],
  disputes: ['disputes', 'disputed_amount'],
  events: ['costs'],
} as const satisfies { [F in keyof PeriodRows]?: readonly (Column<F> & MetricSlug)[] };

const COUNTED = Object.entries(COUNTED_IN).flatMap(([family, slugs]) =>
  slugs.map((slug) => ({ slug, source: [family, slug] as Source })),
);

/**
 * States at a period's end, the running sum of a column from the range's first period (whose
 * subscription changes carry every change before it); over the range, the state at its end.
 */
const RUNNING_SUMS = {
  cumulative_revenue: ['orders', 'revenue'],
  net_cumulative_revenue: ['orders', 'net_revenue'],
  cumulative_costs: ['events', 'costs'],
  active_subscriptions: ['subscriptions', 'active_change'],
  committed_subscriptions: ['subscriptions', 'committed_change'],
  subscribers: ['subscriptions', 'subscriber_change'],
  monthly_amounts: ['subscriptions', 'monthly_amount_change'],
  yearly_amounts: ['subscriptions', 'yearly_amount_change'],
  committed_monthly_amounts: ['subscriptions', 'committed_monthly_amount_change'],
  committed_yearly_amounts: ['subscriptions', 'committed_yearly_amount_change'],
  trial_monthly_amounts: ['subscriptions', 'trial_monthly_amount_change'],
  trial_yearly_amounts: ['subscriptions', 'trial_yearly_amount_change'],
  trial_committed_monthly_amounts: ['subscriptions', 'trial_committed_monthly_amount_change'],
  trial_committed_yearly_amounts: ['subscriptions', 'trial_committed_yearly_amount_change'],
} as const satisfies Partial<Record<Figure, Source>>;

type Derivation = { metric: MetricSlug; by: (...figures: number[]) => number; from: readonly Figure[] };

/**
 * The metrics that follow from other figures, derived the same way in a period and over the
 * range (so a range's averages are of its sums, never averages of averages), in an order where
 * each reads only figures counted, summed or derived before it.
 */
const DERIVATIONS: readonly Derivation[] = [
  {
    metric: 'monthly_recurring_revenue',
    by: monthlyRecurringRevenue,
    from: ['monthly_amounts', 'yearly_amounts'],
  },
  {
    metric: 'committed_monthly_recurring_revenue',
    by: monthlyRecurringRevenue,
    from: ['committed_monthly_amounts', 'committed_yearly_amounts'],
  },
  // What trialing plans will bill once their trials end, rounded once as MRR is.
  {
    metric: 'trial_monthly_recurring_revenue',
    by: monthlyRecurringRevenue,
    from: ['trial_monthly_amounts', 'trial_yearly_amounts'],
  },
  {
    metric: 'trial_committed_monthly_recurring_revenue',
    by: monthlyRecurringRevenue,
    from: ['trial_committed_monthly_amounts', 'trial_committed_yearly_amounts'],
  },
  { metric: 'annual_recurring_revenue', by: annualized, from: ['monthly_recurring_revenue'] },
  {
    metric: 'committed_annual_recurring_revenue',
    by: annualized,
    from: ['committed_monthly_recurring_revenue'],
  },
  { metric: 'average_order_value', by: roundedAverage, from: ['revenue', 'orders'] },
  { metric: 'net_average_order_value', by: roundedAverage, from: ['net_revenue', 'orders'] },
  {
    metric: 'average_revenue_per_user',
    by: roundedAverage,
    from: ['monthly_recurring_revenue', 'subscribers'],
  },
  { metric: 'cost_per_user', by: ratio, from: ['costs', 'active_user_by_event'] },
  { metric: 'checkouts_conversion', by: ratio, from: ['succeeded_checkouts', 'checkouts'] },
  // Polar's churn rate: canceled in the stretch per subscription active at its start.
  { metric: 'churn_rate', by: ratio, from: ['canceled_subscriptions', 'active_at_start'] },
  { metric: 'gross_margin', by: difference, from: ['cumulative_revenue', 'cumulative_costs'] },
  { metric: 'gross_margin_percentage', by: ratio, from: ['gross_margin', 'cumulative_revenue'] },
  { metric: 'cashflow', by: difference, from: ['revenue', 'costs'] },
  {
    metric: 'ltv',
    by: lifetimeValue,
    from: ['average_revenue_per_user', 'cost_per_user', 'churn_rate'],
  },
];

function sameSeries(families: MetricFamilies): Date[] {
  const timestamps = families.orders.map((row) => row.timestamp.getTime());
  for (const rows of [
    families.subscriptions,
    families.cancellations,
    families.checkouts,
    families.customers,
    families.refunds,
    families.disputes,
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
 * Seat-based prices are not part of Tollgate's catalogue yet: Polar answers 0 for an organization
 * without them, and so do we.
 */
const ABSENT_IN_TOLLGATE = {
  seats_total: 0,
  seats_claimed: 0,
  seats_pending: 0,
  seat_customers: 0,
  new_seat_customers: 0,
  churned_seat_customers: 0,
  average_seats_per_customer: 0,
  seat_utilization_rate: 0,
} as const satisfies Partial<MetricValues>;

/** The metrics of a period or of the range, from its counted, running and basis figures. */
function metricValuesOf(figures: Partial<Figures>): MetricValues {
  const all = { ...ABSENT_IN_TOLLGATE, ...figures } as Figures;
  for (const { metric, by, from } of DERIVATIONS) all[metric] = by(...from.map((figure) => all[figure]));
  return Object.fromEntries(METRIC_SLUGS.map((slug) => [slug, all[slug]])) as MetricValues;
}

/**
 * The answer from the families' rows: each period's figures, and the totals over the range: sums
 * for what happens in a period, the state at the range's end for what is a state (subscriptions,
 * MRR and ARR, ARPU, cumulative figures), customers who sent an event once however many periods
 * they did, and the derivations of those (ratios of the sums for averages, conversion, costs per
 * user and churn: canceled in the range per active at its start).
 */
export function metricsAnswer(families: MetricFamilies, currency: string): MetricsResponse {
  const timestamps = sameSeries(families);
  const running = Object.fromEntries(Object.keys(RUNNING_SUMS).map((figure) => [figure, 0])) as Record<
    keyof typeof RUNNING_SUMS,
    number
  >;
  const periods: MetricPeriod[] = timestamps.map((timestamp, i) => {
    // Before this period's changes: the previous period's end, or (first) the changes before the range.
    const activeAtStart = i === 0 ? families.subscriptions[0]!.prior_active : running.active_subscriptions;
    for (const [figure, source] of Object.entries(RUNNING_SUMS))
      running[figure as keyof typeof RUNNING_SUMS] += columnOf(families, source, i);
    const values = metricValuesOf({
      ...Object.fromEntries(COUNTED.map(({ slug, source }) => [slug, columnOf(families, source, i)])),
      ...running,
      active_user_by_event: families.events[i]!.active_users,
      active_at_start: activeAtStart,
    });
    return { timestamp: timestamp.toISOString(), ...values };
  });
  const sum = (slug: MetricSlug) => periods.reduce((total, period) => total + period[slug], 0);
  const totals = metricValuesOf({
    ...Object.fromEntries(COUNTED.map(({ slug }) => [slug, sum(slug)])),
    ...running,
    active_user_by_event: families.eventUsers,
    active_at_start: families.subscriptions[0]?.prior_active ?? 0,
  });
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
