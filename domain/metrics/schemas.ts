import { z } from 'zod';
import { TIME_ZONE_MAX_LENGTH } from '../dates/rules.js';
import { oneOrManyUuids, queryListSchema, TEXT_MAX_LENGTH, textSchema } from '../platform/schemas.js';
import { timeIntervalSchema } from '../usage/schemas.js';

// `GET /v1/metrics/` and `GET /v1/metrics/limits` as @polar-sh/sdk@0.33.2 and 0.48.1 read them
// (components/metricsresponse.ts, metricperiod.ts, metricstotals.ts, metrics.ts, metricslimits.ts),
// plus the figures the dashboard's Overview needs that Polar's answer lacks (docs/metrics.md).

/** Canceled subscriptions in all, and by the reason the customer gave. */
export const CANCELED_SUBSCRIPTION_METRICS = [
  'canceled_subscriptions',
  'canceled_subscriptions_customer_service',
  'canceled_subscriptions_low_quality',
  'canceled_subscriptions_missing_features',
  'canceled_subscriptions_switched_service',
  'canceled_subscriptions_too_complex',
  'canceled_subscriptions_too_expensive',
  'canceled_subscriptions_unused',
  'canceled_subscriptions_other',
] as const;

/**
 * Polar's metrics: every one is required by 0.33.2's MetricPeriod, MetricsTotals and Metrics, and
 * named (optional) by 0.48.1's; in 0.48.1's order. Definitions: docs/metrics.md.
 */
export const POLAR_METRIC_SLUGS = [
  'active_subscriptions',
  'committed_subscriptions',
  'monthly_recurring_revenue',
  'trial_monthly_recurring_revenue',
  'committed_monthly_recurring_revenue',
  'trial_committed_monthly_recurring_revenue',
  'average_revenue_per_user',
  'checkouts',
  'succeeded_checkouts',
  'churned_subscriptions',
  'churn_rate',
  'seats_total',
  'seats_claimed',
  'seats_pending',
  'seat_customers',
  'new_seat_customers',
  'churned_seat_customers',
  'orders',
  'revenue',
  'net_revenue',
  'cumulative_revenue',
  'net_cumulative_revenue',
  'costs',
  'cumulative_costs',
  'average_order_value',
  'net_average_order_value',
  'cost_per_user',
  'active_user_by_event',
  'one_time_products',
  'one_time_products_revenue',
  'one_time_products_net_revenue',
  'new_subscriptions',
  'new_subscriptions_revenue',
  'new_subscriptions_net_revenue',
  'renewed_subscriptions',
  'renewed_subscriptions_revenue',
  'renewed_subscriptions_net_revenue',
  ...CANCELED_SUBSCRIPTION_METRICS,
  'annual_recurring_revenue',
  'committed_annual_recurring_revenue',
  'checkouts_conversion',
  'ltv',
  'gross_margin',
  'gross_margin_percentage',
  'cashflow',
  'average_seats_per_customer',
  'seat_utilization_rate',
] as const;

/** Ours: the SDK ignores them, a raw client reads them. */
export const TOLLGATE_METRIC_SLUGS = [
  'new_customers',
  'refunds',
  'refunded_amount',
  'disputes',
  'disputed_amount',
] as const;

export const METRIC_SLUGS = [...POLAR_METRIC_SLUGS, ...TOLLGATE_METRIC_SLUGS] as const;
export type MetricSlug = (typeof METRIC_SLUGS)[number];

/** `currency_sub_cent`: minor units with fractions (event costs). */
export const METRIC_TYPES = ['scalar', 'currency', 'currency_sub_cent', 'percentage'] as const;
export type MetricType = (typeof METRIC_TYPES)[number];

const isTollgateMetric = (slug: MetricSlug) => (TOLLGATE_METRIC_SLUGS as readonly string[]).includes(slug);

/** One field per metric; ours say so in the OpenAPI document, as every extension field does. */
function metricFields<T extends z.ZodType>(field: () => T): Record<MetricSlug, T> {
  return Object.fromEntries(
    METRIC_SLUGS.map((slug) => [
      slug,
      isTollgateMetric(slug)
        ? field().meta({
            description: `Tollgate extension, in neither @polar-sh/sdk 0.33.2 nor 0.48.1: ${slug} (docs/metrics.md).`,
            'x-tollgate': true,
          })
        : field(),
    ]),
  ) as Record<MetricSlug, T>;
}

export const BILLING_TYPES = ['one_time', 'recurring'] as const;

export const metricsQuerySchema = z.object({
  start_date: z.iso.date({ message: 'Enter the start date as YYYY-MM-DD.' }).meta({
    description: 'First day counted, from its midnight (in `timezone`, UTC by default).',
  }),
  end_date: z.iso.date({ message: 'Enter the end date as YYYY-MM-DD.' }).meta({
    description: 'Last day counted, to its end (the next midnight in `timezone`, UTC by default).',
  }),
  interval: timeIntervalSchema,
  // Polar's later API has it; @polar-sh/sdk 0.33.2 does not send it (our extension there).
  timezone: textSchema({ min: 1, max: TIME_ZONE_MAX_LENGTH }).optional().meta({
    description:
      'Tollgate extension, not in @polar-sh/sdk 0.33.2: the IANA time zone whose days the dates and periods are (they start at its midnights). UTC when absent.',
    'x-tollgate': true,
  }),
  organization_id: oneOrManyUuids.optional(),
  product_id: oneOrManyUuids.optional(),
  billing_type: queryListSchema(z.enum(BILLING_TYPES)).optional(),
  customer_id: oneOrManyUuids.optional(),
  // 0.48.1 sends it so that Polar runs only the queries those metrics need; every family here
  // answers a year by day in well under a second, so all run and the answer holds every metric
  // (the SDK's fields are optional: more is valid). Unknown slugs are still a 422.
  metrics: z
    .union([z.enum(METRIC_SLUGS), z.array(z.enum(METRIC_SLUGS)).max(METRIC_SLUGS.length)])
    .optional()
    .meta({ description: 'Metric slugs the caller needs; the answer holds every metric all the same.' }),
});
export type MetricsQuery = z.infer<typeof metricsQuerySchema>;

export type MetricValues = Record<MetricSlug, number>;

export const metricPeriodSchema = z.object({
  timestamp: z.iso.datetime({ offset: true }),
  ...metricFields(() => z.number()),
});
export type MetricPeriod = z.infer<typeof metricPeriodSchema>;

export const metricSchema = z.object({
  slug: z.string(),
  display_name: z.string(),
  type: z.enum(METRIC_TYPES),
});
export type Metric = z.infer<typeof metricSchema>;

export const metricsResponseSchema = z.object({
  periods: z.array(metricPeriodSchema),
  totals: z.object(metricFields(() => z.number())),
  metrics: z.object(metricFields(() => metricSchema)),
  currency: z.string().meta({
    description:
      "Tollgate extension, not in @polar-sh/sdk 0.33.2: the currency (lowercase ISO 4217) of every amount of the answer: the one the organization's orders brought the most revenue in, else that of its newest price.",
    'x-tollgate': true,
  }),
});
export type MetricsResponse = z.infer<typeof metricsResponseSchema>;

const intervalLimitSchema = z.object({ min_days: z.number().int(), max_days: z.number().int() });

export const metricsLimitsSchema = z.object({
  min_date: z.iso.date(),
  max_date: z.iso.date().meta({
    description: 'Tollgate extension, not in @polar-sh/sdk 0.33.2: the last date the metrics accept.',
    'x-tollgate': true,
  }),
  intervals: z.object({
    hour: intervalLimitSchema,
    day: intervalLimitSchema,
    week: intervalLimitSchema,
    month: intervalLimitSchema,
    year: intervalLimitSchema,
  }),
});
export type MetricsLimits = z.infer<typeof metricsLimitsSchema>;

// Saved dashboards as @polar-sh/sdk@0.48.1 reads them (components/metricdashboardschema.ts,
// metricdashboardcreate.ts, metricdashboardupdate.ts): a name and the metrics it pins.

const dashboardNameSchema = textSchema({ min: 1, max: TEXT_MAX_LENGTH.name });
/** In the order the dashboard shows them; a slug named twice is shown once. */
const dashboardMetricsSchema = z
  .array(z.enum(METRIC_SLUGS))
  .max(METRIC_SLUGS.length)
  .transform((slugs) => [...new Set(slugs)]);

export const metricDashboardSchema = z.object({
  created_at: z.iso.datetime({ offset: true }),
  modified_at: z.iso.datetime({ offset: true }).nullable(),
  id: z.uuid(),
  name: z.string(),
  metrics: z.array(z.string()),
  organization_id: z.uuid(),
});
export type MetricDashboard = z.infer<typeof metricDashboardSchema>;

export const metricDashboardCreateSchema = z.strictObject({
  name: dashboardNameSchema,
  metrics: dashboardMetricsSchema.optional(),
  organization_id: z.uuid().nullable().optional(),
});
export type MetricDashboardCreate = z.infer<typeof metricDashboardCreateSchema>;

/** A field left out (or null) stays as it is. */
export const metricDashboardUpdateSchema = z.strictObject({
  name: dashboardNameSchema.nullable().optional(),
  metrics: dashboardMetricsSchema.nullable().optional(),
});
export type MetricDashboardUpdate = z.infer<typeof metricDashboardUpdateSchema>;

export const metricDashboardListQuerySchema = z.object({ organization_id: oneOrManyUuids.optional() });
export type MetricDashboardListQuery = z.infer<typeof metricDashboardListQuerySchema>;
