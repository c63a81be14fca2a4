// The metrics' aggregates, in plain SQL: one statement per family of metrics (orders,
// subscriptions, cancellations, checkouts, customers, refunds, disputes, events), each a scan of the organization's rows of the
// range through its `(organization_id, created_at …)` index (subscriptions: its plans started
// before the range's end), grouped by period and joined to the periods of `generate_series`, so
// that a period without rows answers 0. They read other domains' tables without changing them: a
// report over the whole business, kept in one place so that every family shares the same periods
// and filters (docs/metrics.md).
import type { SqlClient } from '../../infra/db.js';
import { CANCELLATION_REASONS } from '../products/schemas.js';
import {
  METRICS_DEFAULT_CURRENCY,
  type CancellationPeriodRow,
  type CheckoutPeriodRow,
  type EventPeriodRow,
  type CustomerPeriodRow,
  type MetricFamilies,
  type OrderPeriodRow,
  type RefundPeriodRow,
  type DisputePeriodRow,
  type SubscriptionPeriodRow,
} from './rules.js';
import { and, Statement, type MetricsScope } from './repository-statement.js';

export type { MetricsScope } from './repository-statement.js';

/** How many of an organization's latest paid orders choose its metrics' currency. */
const CURRENCY_SAMPLE_ORDERS = 1000;

/**
 * The currency an organization's metrics are counted in: the one its latest paid orders brought
 * the most revenue in (ties: alphabetical), else the currency of its newest price, else USD. The
 * latest orders, not all of them: a read of the index's newest end that costs the same after
 * years of sales, and follows a seller who moved to another currency.
 */
export async function organizationCurrency(sql: SqlClient, organizationId: string): Promise<string> {
  const { rows } = await sql.query<{ currency: string }>(
    `SELECT currency FROM (
       (SELECT currency, 0 AS preference FROM (
          SELECT currency, net_amount FROM orders
          WHERE organization_id = $1::uuid AND status NOT IN ('pending', 'draft')
          ORDER BY created_at DESC LIMIT $2
        ) AS latest
        GROUP BY currency ORDER BY sum(net_amount) DESC, currency LIMIT 1)
       UNION ALL
       (SELECT price_currency, 1 FROM product_prices
        WHERE organization_id = $1::uuid AND price_currency IS NOT NULL
        ORDER BY created_at DESC, id LIMIT 1)
     ) AS candidates ORDER BY preference LIMIT 1`,
    [organizationId, CURRENCY_SAMPLE_ORDERS],
  );
  return rows[0]?.currency ?? METRICS_DEFAULT_CURRENCY;
}

const ORDER_COLUMNS = [
  'orders',
  'revenue',
  'one_time_products',
  'one_time_products_revenue',
  'new_subscriptions',
  'new_subscriptions_revenue',
  'renewed_subscriptions',
  'renewed_subscriptions_revenue',
  'net_revenue',
  'one_time_products_net_revenue',
  'new_subscriptions_net_revenue',
  'renewed_subscriptions_net_revenue',
];

/** Paid orders (refunded ones too: refunds are their own figures) by the period they were placed in. */
function orderRows(sql: SqlClient, scope: MetricsScope): Promise<OrderPeriodRow[]> {
  const q = new Statement(scope);
  const reason = (billingReason: string) => `FILTER (WHERE o.billing_reason = '${billingReason}')`;
  // What the seller keeps of an order: Tollgate takes no platform fee (Polar's net is after its
  // fee), so the net is the amount before tax less what has been refunded of it so far.
  const kept = '(o.net_amount - o.refunded_amount)';
  return q.rows(
    sql,
    `SELECT ${q.periodOf('o.created_at')} AS period,
       count(*) AS orders,
       sum(o.net_amount) AS revenue,
       count(*) ${reason('purchase')} AS one_time_products,
       sum(o.net_amount) ${reason('purchase')} AS one_time_products_revenue,
       count(*) ${reason('subscription_create')} AS new_subscriptions,
       sum(o.net_amount) ${reason('subscription_create')} AS new_subscriptions_revenue,
       count(*) ${reason('subscription_cycle')} AS renewed_subscriptions,
       sum(o.net_amount) ${reason('subscription_cycle')} AS renewed_subscriptions_revenue,
       sum(${kept}) AS net_revenue,
       sum(${kept}) ${reason('purchase')} AS one_time_products_net_revenue,
       sum(${kept}) ${reason('subscription_create')} AS new_subscriptions_net_revenue,
       sum(${kept}) ${reason('subscription_cycle')} AS renewed_subscriptions_net_revenue
     FROM orders o
     WHERE o.organization_id = ANY(${q.organizations}) AND ${q.within('o.created_at')}
       AND o.currency = ${q.currency} AND o.status NOT IN ('pending', 'draft')${q.orderFilters('o')}
     GROUP BY 1`,
    ORDER_COLUMNS,
  );
}

/**
 * Every start of a subscription (+1, + its amount) and every end (−1, − its amount) up to the
 * range's end, by period; changes before the range fall in its first period (`prior_active` says
 * how many of them). Running sums of the changes are the active subscriptions and their amounts
 * at each period's end: one pass over the organization's subscriptions instead of one per period.
 * A subscription stops being committed when it is canceled (at once or at its period's end) or
 * ends, whichever comes first. A plan with a free trial (`trial_end` after `started_at`) is active
 * and committed from its start, but its amounts count as trial amounts until the trial ends (or the
 * plan ends, or is canceled, first) and as paying amounts (MRR) only from `trial_end`: one that
 * ends during its trial never enters MRR (Polar's split). Subscribers are counted once however many plans they hold: each
 * customer's overlapping subscriptions merge into spans (gaps and islands), a span starting and
 * ending once.
 */
function subscriptionRows(sql: SqlClient, scope: MetricsScope): Promise<SubscriptionPeriodRow[]> {
  const q = new Statement(scope);
  const { productIds, customerIds, billingTypes } = scope;
  const filters = and([
    productIds && `s.product_id = ANY(${q.products})`,
    customerIds && `s.customer_id = ANY(${q.customers})`,
    billingTypes && !billingTypes.includes('recurring') && 'false',
  ]);
  return q.rows(
    sql,
    `WITH started AS (
       SELECT s.customer_id, s.started_at, s.ended_at,
         -- The end of a free trial (null: none), and when the plan's amounts start to count as paid.
         CASE WHEN s.trial_end > s.started_at THEN s.trial_end END AS trial_end,
         greatest(s.trial_end, s.started_at) AS paying_from,
         -- least and greatest skip nulls: a plan neither canceled nor ended stays committed (null);
         -- one canceled before it started stops being committed when it starts.
         CASE WHEN coalesce(s.canceled_at, s.ended_at) IS NOT NULL
           THEN greatest(least(s.canceled_at, s.ended_at), s.started_at) END AS uncommitted_at,
         -- A plan billed every month counts at its amount; every other cadence at what it bills in a
         -- year (52 weeks, 365 days), summed exactly and divided by 12 once (monthlyRecurringRevenue).
         CASE WHEN s.recurring_interval = 'month' AND s.recurring_interval_count = 1 THEN s.amount ELSE 0 END
           AS monthly,
         CASE
           WHEN s.recurring_interval = 'month' AND s.recurring_interval_count = 1 THEN 0
           ELSE s.amount * (CASE s.recurring_interval
             WHEN 'year' THEN 1 WHEN 'month' THEN 12 WHEN 'week' THEN 52 ELSE 365 END)::numeric
             / s.recurring_interval_count
         END AS yearly
       FROM subscriptions s
       WHERE s.organization_id = ANY(${q.organizations}) AND s.currency = ${q.currency}
         AND s.started_at IS NOT NULL AND s.started_at < ${q.to}${filters}
     ), reaches AS (
       SELECT customer_id, started_at, ended_at,
         max(coalesce(ended_at, 'infinity'::timestamptz)) OVER (
           PARTITION BY customer_id ORDER BY started_at ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
         ) AS reach
       FROM started
     ), islands AS (
       SELECT customer_id, started_at, ended_at,
         sum(CASE WHEN reach IS NULL OR started_at > reach THEN 1 ELSE 0 END) OVER (
           PARTITION BY customer_id ORDER BY started_at ROWS UNBOUNDED PRECEDING
         ) AS island
       FROM reaches
     ), spans AS (
       SELECT min(started_at) AS started_at, max(coalesce(ended_at, 'infinity'::timestamptz)) AS ended_at
       FROM islands GROUP BY customer_id, island
     ), changes AS (
       ${changeRows(q)}
     )
     SELECT greatest(${q.periodOf('at')}, (SELECT min(period) FROM periods)) AS period,
       sum(active) AS active_change,
       sum(active) FILTER (WHERE at < ${q.from}) AS prior_active,
       sum(monthly) AS monthly_amount_change,
       sum(yearly) AS yearly_amount_change,
       sum(committed) AS committed_change,
       sum(committed_monthly) AS committed_monthly_amount_change,
       sum(committed_yearly) AS committed_yearly_amount_change,
       sum(subscribers) AS subscriber_change,
       sum(trial_monthly) AS trial_monthly_amount_change,
       sum(trial_yearly) AS trial_yearly_amount_change,
       sum(trial_committed_monthly) AS trial_committed_monthly_amount_change,
       sum(trial_committed_yearly) AS trial_committed_yearly_amount_change
     FROM changes GROUP BY 1`,
    [
      'active_change',
      'prior_active',
      'monthly_amount_change',
      'yearly_amount_change',
      'committed_change',
      'committed_monthly_amount_change',
      'committed_yearly_amount_change',
      'subscriber_change',
      'trial_monthly_amount_change',
      'trial_yearly_amount_change',
      'trial_committed_monthly_amount_change',
      'trial_committed_yearly_amount_change',
    ],
  );
}

/** What a row of `changes` moves, each column 0 unless said. */
const CHANGE_COLUMNS = [
  'active',
  'monthly',
  'yearly',
  'committed',
  'committed_monthly',
  'committed_yearly',
  'subscribers',
  'trial_monthly',
  'trial_yearly',
  'trial_committed_monthly',
  'trial_committed_yearly',
] as const;
type ChangeColumn = (typeof CHANGE_COLUMNS)[number];

/** A plan's amounts, added (`+`) or taken off (`-`), in the columns of `prefix`. */
const amounts = (prefix: '' | 'committed_' | 'trial_' | 'trial_committed_', sign: '' | '-') =>
  ({ [`${prefix}monthly`]: `${sign}monthly`, [`${prefix}yearly`]: `${sign}yearly` }) as Partial<
    Record<ChangeColumn, string>
  >;

/**
 * The `changes` of subscriptionRows: a row per moment a figure moves (`at`) from `started` (the
 * plans) or `spans` (the subscribers), only moments before the range's end (later ones count in no
 * period). Each stretch a figure counts a plan for adds at its start and takes off at its end.
 */
function changeRows(q: Statement): string {
  const change = (
    at: string,
    from: 'started' | 'spans',
    values: Partial<Record<ChangeColumn, string>>,
    when?: string,
  ) =>
    `SELECT ${at} AS at, ${CHANGE_COLUMNS.map((column) => `${values[column] ?? '0'} AS ${column}`).join(', ')}
       FROM ${from} WHERE ${at} < ${q.to}${when ? ` AND ${when}` : ''}`;
  // A stretch from `start` to `end` (null: not ended) of the plans `of`: nothing for one that
  // ends before it starts.
  const stretch = (start: string, end: string, prefix: Parameters<typeof amounts>[0], of = 'true') => [
    change(start, 'started', amounts(prefix, ''), `${of} AND (${end} IS NULL OR ${start} < ${end})`),
    change(end, 'started', amounts(prefix, '-'), `${of} AND ${start} < ${end}`),
  ];
  return [
    change('started_at', 'started', { active: '1', committed: '1' }),
    change('ended_at', 'started', { active: '-1' }),
    change('uncommitted_at', 'started', { committed: '-1' }),
    // Paying: from the trial's end (or the start, without a trial) until the plan ends.
    ...stretch('paying_from', 'ended_at', ''),
    ...stretch('paying_from', 'uncommitted_at', 'committed_'),
    // In a trial: from the start until the trial ends, or the plan ends (or is canceled) first.
    ...stretch('started_at', 'least(trial_end, ended_at)', 'trial_', 'trial_end IS NOT NULL'),
    ...stretch('started_at', 'least(trial_end, uncommitted_at)', 'trial_committed_', 'trial_end IS NOT NULL'),
    change('started_at', 'spans', { subscribers: '1' }),
    change('ended_at', 'spans', { subscribers: '-1' }),
  ].join('\n       UNION ALL\n       ');
}

/** `FILTER` clauses of the cancellation reasons, by column (Polar's: no reason counts as other). */
const reasonColumns = CANCELLATION_REASONS.map((reason) => {
  const condition = reason === 'other' ? `reason = 'other' OR reason IS NULL` : `reason = '${reason}'`;
  return `count(*) FILTER (WHERE kind = 'canceled' AND (${condition})) AS canceled_subscriptions_${reason}`;
});

/**
 * Started subscriptions canceled in the period (when the cancellation was asked for: at once or at
 * the period's end), by the customer's reason, and those that ended in it (churned).
 */
function cancellationRows(sql: SqlClient, scope: MetricsScope): Promise<CancellationPeriodRow[]> {
  const q = new Statement(scope);
  const { productIds, customerIds, billingTypes } = scope;
  const filters = and([
    productIds && `s.product_id = ANY(${q.products})`,
    customerIds && `s.customer_id = ANY(${q.customers})`,
    billingTypes && !billingTypes.includes('recurring') && 'false',
  ]);
  const base = `FROM subscriptions s
       WHERE s.organization_id = ANY(${q.organizations}) AND s.currency = ${q.currency}
         AND s.started_at IS NOT NULL${filters}`;
  return q.rows(
    sql,
    `SELECT ${q.periodOf('at')} AS period,
       count(*) FILTER (WHERE kind = 'canceled') AS canceled_subscriptions,
       ${reasonColumns.join(',\n       ')},
       count(*) FILTER (WHERE kind = 'ended') AS churned_subscriptions
     FROM (
       SELECT s.canceled_at AS at, 'canceled' AS kind, s.customer_cancellation_reason AS reason
       ${base} AND ${q.within('s.canceled_at')}
       UNION ALL
       SELECT s.ended_at, 'ended', NULL ${base} AND ${q.within('s.ended_at')}
     ) AS moments
     GROUP BY 1`,
    [
      'canceled_subscriptions',
      ...CANCELLATION_REASONS.map((reason) => `canceled_subscriptions_${reason}`),
      'churned_subscriptions',
    ],
  );
}

/** Checkouts by the period they were opened in, and how many of those succeeded (whenever they did). */
function checkoutRows(sql: SqlClient, scope: MetricsScope): Promise<CheckoutPeriodRow[]> {
  const q = new Statement(scope);
  const { productIds, customerIds, billingTypes } = scope;
  const filters = and([
    // Any of the products the checkout offered.
    productIds && `c.product_ids && ${q.products}`,
    customerIds && `c.customer_id = ANY(${q.customers})`,
    billingTypes?.length === 1 &&
      `EXISTS (SELECT 1 FROM products p WHERE p.id = c.product_id
               AND p.recurring_interval IS ${billingTypes[0] === 'one_time' ? '' : 'NOT '}NULL)`,
  ]);
  return q.rows(
    sql,
    `SELECT ${q.periodOf('c.created_at')} AS period,
       count(*) AS checkouts,
       count(*) FILTER (WHERE c.status = 'succeeded') AS succeeded_checkouts
     FROM checkouts c
     WHERE c.organization_id = ANY(${q.organizations}) AND ${q.within('c.created_at')}${filters}
     GROUP BY 1`,
    ['checkouts', 'succeeded_checkouts'],
  );
}

/**
 * Customers by the period they were created in (deleted ones left out); filtered to products,
 * those with a paid order of one of them.
 */
function customerRows(sql: SqlClient, scope: MetricsScope): Promise<CustomerPeriodRow[]> {
  const q = new Statement(scope);
  const filters = and([
    scope.customerIds && `c.id = ANY(${q.customers})`,
    q.hasProductFilters &&
      `EXISTS (SELECT 1 FROM orders o
               WHERE o.customer_id = c.id AND o.status NOT IN ('pending', 'draft')${q.orderFilters('o')})`,
  ]);
  return q.rows(
    sql,
    `SELECT ${q.periodOf('c.created_at')} AS period, count(*) AS new_customers
     FROM customers c
     WHERE c.organization_id = ANY(${q.organizations}) AND ${q.within('c.created_at')}
       AND c.deleted_at IS NULL${filters}
     GROUP BY 1`,
    ['new_customers'],
  );
}

/** Succeeded refunds by the period they were asked for in, their amounts before tax (as revenue is). */
function refundRows(sql: SqlClient, scope: MetricsScope): Promise<RefundPeriodRow[]> {
  const q = new Statement(scope);
  const filters = and([
    scope.customerIds && `r.customer_id = ANY(${q.customers})`,
    q.hasProductFilters && `EXISTS (SELECT 1 FROM orders o WHERE o.id = r.order_id${q.orderFilters('o')})`,
  ]);
  return q.rows(
    sql,
    `SELECT ${q.periodOf('r.created_at')} AS period, count(*) AS refunds, sum(r.amount) AS refunded_amount
     FROM refunds r
     WHERE r.organization_id = ANY(${q.organizations}) AND ${q.within('r.created_at')}
       AND r.currency = ${q.currency} AND r.status = 'succeeded'${filters}
     GROUP BY 1`,
    ['refunds', 'refunded_amount'],
  );
}

/**
 * Disputes by the period they were opened in, whatever became of them (a chargeback costs the
 * seller when it is filed), their amounts before tax as refunds count.
 */
function disputeRows(sql: SqlClient, scope: MetricsScope): Promise<DisputePeriodRow[]> {
  const q = new Statement(scope);
  const filters = and([
    scope.customerIds &&
      `EXISTS (SELECT 1 FROM orders o WHERE o.id = d.order_id AND o.customer_id = ANY(${q.customers}))`,
    q.hasProductFilters && `EXISTS (SELECT 1 FROM orders o WHERE o.id = d.order_id${q.orderFilters('o')})`,
  ]);
  return q.rows(
    sql,
    `SELECT ${q.periodOf('d.created_at')} AS period, count(*) AS disputes, sum(d.amount) AS disputed_amount
     FROM disputes d
     WHERE d.organization_id = ANY(${q.organizations}) AND ${q.within('d.created_at')}
       AND d.currency = ${q.currency}${filters}
     GROUP BY 1`,
    ['disputes', 'disputed_amount'],
  );
}

/**
 * The customers an ingested (user) event names: by id, else by the external id it was sent with.
 * Events name no product, so product and billing filters leave them as they are.
 */
const EVENT_USER = `coalesce(e.customer_id::text, 'external:' || e.external_customer_id)`;

function eventFilters(q: Statement): string {
  return `e.organization_id = ANY(${q.organizations}) AND ${q.within('e.timestamp')} AND e.source = 'user'${and(
    [q.scope.customerIds && `e.customer_id = ANY(${q.customers})`],
  )}`;
}

/**
 * Costs (`metadata._cost.amount`, minor units with fractions, as Polar's ingestion reads it) of
 * the events of the period in the answer's currency or naming none, and how many customers sent
 * events in it.
 */
function eventRows(sql: SqlClient, scope: MetricsScope): Promise<EventPeriodRow[]> {
  const q = new Statement(scope);
  const cost = `e.metadata -> '_cost'`;
  return q.rows(
    sql,
    `SELECT ${q.periodOf('e.timestamp')} AS period,
       count(DISTINCT ${EVENT_USER}) AS active_users,
       sum((${cost} ->> 'amount')::numeric) FILTER (
         WHERE jsonb_typeof(${cost} -> 'amount') = 'number'
           AND (${cost} ->> 'currency' IS NULL OR lower(${cost} ->> 'currency') = ${q.currency})
       ) AS costs
     FROM events e
     WHERE ${eventFilters(q)}
     GROUP BY 1`,
    ['active_users'],
    ['costs'],
  );
}

/** How many customers sent events anywhere in the range (one who did in every period counts once). */
async function eventUsersInRange(sql: SqlClient, scope: MetricsScope): Promise<number> {
  const q = new Statement(scope);
  const { rows } = await sql.query<{ users: string }>(
    `SELECT count(DISTINCT ${EVENT_USER}) AS users FROM events e WHERE ${eventFilters(q)}`,
    q.params.values,
  );
  return Number(rows[0]?.users ?? 0);
}

/** Every family's rows; the statements run side by side on the pool's connections. */
export async function metricFamilyRows(sql: SqlClient, scope: MetricsScope): Promise<MetricFamilies> {
  const [orders, subscriptions, cancellations, checkouts, customers, refunds, disputes, events, eventUsers] =
    await Promise.all([
      orderRows(sql, scope),
      subscriptionRows(sql, scope),
      cancellationRows(sql, scope),
      checkoutRows(sql, scope),
      customerRows(sql, scope),
      refundRows(sql, scope),
      disputeRows(sql, scope),
      eventRows(sql, scope),
      eventUsersInRange(sql, scope),
    ]);
  return {
    orders,
    subscriptions,
    cancellations,
    checkouts,
    customers,
    refunds,
    disputes,
    events,
    eventUsers,
  };
}
