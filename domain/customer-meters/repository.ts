// Customer meters: what each customer used of each meter since its last reset, and was credited.
// Recomputed from `events` by the refresher for the customers marked stale (docs/usage.md).
import type { Prisma } from '../../generated/prisma/client.js';
import type { Db, SqlClient } from '../../infra/db.js';
import type { Aggregation, Filter } from '../meters/schemas.js';
import { aggregateSql, filterSql, QueryParameters, valueSql } from '../usage/repository.js';
import { SYSTEM_EVENT_NAMES } from '../usage/rules.js';

/** Two refreshes of one customer never interleave (a slower one would write older values last). */
export async function lockCustomerMeters(sql: SqlClient, customerIds: string[]): Promise<void> {
  await sql.query(
    `SELECT pg_advisory_xact_lock(hashtextextended('customer-meters:' || id::text, 0))
     FROM unnest($1::uuid[]) AS id ORDER BY id`,
    [customerIds],
  );
}

/**
 * `stale` (the customers) and `customer_events`: each one's events, those stored with their id and
 * those sent for their external id before they had it. Read once per statement, however many
 * meters count them.
 */
function customerEventsSql(organization: string, customerIds: string): string {
  return `stale AS (
       SELECT c.id, c.external_id FROM customers c
       WHERE c.id = ANY(${customerIds}) AND c.organization_id = ${organization}
     ), customer_events AS MATERIALIZED (
       SELECT s.id AS customer_id, e.name, e.source, e.timestamp, e.metadata
       FROM stale s JOIN events e ON e.customer_id = s.id
       UNION ALL
       SELECT s.id, e.name, e.source, e.timestamp, e.metadata
       FROM stale s JOIN events e ON e.organization_id = ${organization} AND e.customer_id IS NULL
                                  AND e.external_customer_id = s.external_id
     )`;
}

export type StaleCustomer = { id: string; organizationId: string; externalId: string | null };

export async function findLiveCustomersOf(sql: SqlClient, customerIds: string[]): Promise<StaleCustomer[]> {
  const { rows } = await sql.query<StaleCustomer>(
    `SELECT id, organization_id AS "organizationId", external_id AS "externalId"
     FROM customers WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL`,
    [customerIds],
  );
  return rows;
}

export type CountedMeter = { id: string; filter: Filter; aggregation: Aggregation };

export async function findMetersOfOrganization(
  sql: SqlClient,
  organizationId: string,
): Promise<CountedMeter[]> {
  const { rows } = await sql.query<CountedMeter>(
    'SELECT id, filter, aggregation FROM meters WHERE organization_id = $1::uuid ORDER BY id',
    [organizationId],
  );
  return rows;
}

/**
 * Recomputes one organization's customers' meters and writes those that changed. Per customer and
 * meter: the window starts at the customer's last `meter.reset` of that meter (or at their first
 * event); consumed is the meter's aggregation of the user events it matches in the window,
 * credited the sum of the window's `meter.credited` units. A pair gets a row once it has such an
 * event; a row whose events are gone from the window (a meter's filter changed) goes to zero.
 * Returns the customers whose meters changed.
 */
export async function refreshCustomerMeterRows(
  sql: SqlClient,
  organizationId: string,
  customers: StaleCustomer[],
  meters: CountedMeter[],
): Promise<string[]> {
  if (customers.length === 0 || meters.length === 0) return [];
  const params = new QueryParameters();
  const organization = params.add(organizationId, '::uuid');
  const customerIds = params.add(
    customers.map((customer) => customer.id),
    '::uuid[]',
  );
  const meterIds = params.add(
    meters.map((meter) => meter.id),
    '::uuid[]',
  );
  const perMeter = meters.map((meter) => {
    const meterId = params.add(meter.id, '::text');
    const ofThisMeter = `e.source = 'system' AND e.metadata->>'meter_id' = ${meterId}`;
    const reset = params.add(SYSTEM_EVENT_NAMES.meterReset);
    const credited = params.add(SYSTEM_EVENT_NAMES.meterCredited);
    const counts = `e.source = 'user' AND (${filterSql(meter.filter, params)})`;
    return `SELECT ${meterId}::uuid AS meter_id, w.customer_id,
                   ${aggregateSql(meter.aggregation, 'w.value')} FILTER (WHERE w.counts) AS consumed,
                   coalesce(sum(w.credit), 0) AS credited,
                   bool_or(w.counts OR w.touches) AS seen
            FROM (
              SELECT e.customer_id, e.timestamp, ${counts} AS counts, ${valueSql(meter.aggregation, params)} AS value,
                     (${ofThisMeter}) AS touches,
                     CASE WHEN ${ofThisMeter} AND e.name = ${credited}
                          AND jsonb_typeof(e.metadata->'units') = 'number'
                          THEN (e.metadata->'units')::numeric END AS credit,
                     max(e.timestamp) FILTER (WHERE ${ofThisMeter} AND e.name = ${reset})
                       OVER (PARTITION BY e.customer_id) AS reset_at
              FROM customer_events e
            ) w
            WHERE w.timestamp >= coalesce(w.reset_at, '-infinity')
            GROUP BY w.customer_id`;
  });
  const { rows } = await sql.query<{ customerId: string }>(
    `WITH ${customerEventsSql(organization, customerIds)}, computed AS (
       ${perMeter.join('\n       UNION ALL\n       ')}
     ), wanted AS (
       SELECT s.id AS customer_id, m.meter_id, coalesce(c.consumed, 0) AS consumed,
              coalesce(c.credited, 0) AS credited, coalesce(c.seen, false) AS seen
       FROM stale s
       CROSS JOIN unnest(${meterIds}) AS m(meter_id)
       LEFT JOIN computed c ON c.customer_id = s.id AND c.meter_id = m.meter_id
     )
     INSERT INTO customer_meters AS cm (organization_id, customer_id, meter_id, consumed_units, credited_units, balance)
     SELECT ${organization}, w.customer_id, w.meter_id, w.consumed, w.credited, w.credited - w.consumed
     FROM wanted w
     WHERE w.seen OR EXISTS (SELECT 1 FROM customer_meters x WHERE x.customer_id = w.customer_id AND x.meter_id = w.meter_id)
     ON CONFLICT (customer_id, meter_id) DO UPDATE
       SET consumed_units = EXCLUDED.consumed_units, credited_units = EXCLUDED.credited_units,
           balance = EXCLUDED.balance, modified_at = now()
       WHERE (cm.consumed_units, cm.credited_units) IS DISTINCT FROM (EXCLUDED.consumed_units, EXCLUDED.credited_units)
     RETURNING cm.customer_id AS "customerId"`,
    params.values,
  );
  return [...new Set(rows.map((row) => row.customerId))];
}

const customerMeterInclude = { customer: true, meter: true } as const;

export type CustomerMeterRow = Prisma.CustomerMeterGetPayload<{ include: typeof customerMeterInclude }>;
export type CustomerMeterRecord = Prisma.CustomerMeterGetPayload<object>;

/** Only live customers' meters are listed or found. */
export function listCustomerMeterRows(
  db: Db,
  where: Prisma.CustomerMeterWhereInput & { organizationId: { in: string[] } },
  orderBy: Prisma.CustomerMeterOrderByWithRelationInput[],
  page: { skip: number; take: number },
) {
  const live = { AND: [where, { customer: { deletedAt: null } }] };
  return db.$transaction([
    db.customerMeter.findMany({ where: live, orderBy, include: customerMeterInclude, ...page }),
    db.customerMeter.count({ where: live }),
  ]);
}

export function findCustomerMeterRow(db: Db, id: string, organizationIds: string[]) {
  return db.customerMeter.findFirst({
    where: { id, organizationId: { in: organizationIds }, customer: { deletedAt: null } },
    include: customerMeterInclude,
  });
}

/**
 * A metered price's usage to measure: the customer's events its meter counts from `from` (and
 * before `to`, when set), and the meter's credits from `creditsFrom`.
 */
export type UsageWindow = {
  key: string;
  customerId: string;
  meter: CountedMeter;
  from: Date;
  to: Date | null;
  creditsFrom: Date;
};

/** Units (decimal text, exact) and credited units of each window, by key. */
export async function usageInWindows(
  sql: SqlClient,
  organizationId: string,
  windows: UsageWindow[],
): Promise<Map<string, { units: string; credited: string }>> {
  if (windows.length === 0) return new Map();
  const params = new QueryParameters();
  const organization = params.add(organizationId, '::uuid');
  const customerIds = params.add([...new Set(windows.map((window) => window.customerId))], '::uuid[]');
  const byMeter = new Map<string, UsageWindow[]>();
  for (const window of windows)
    byMeter.set(window.meter.id, [...(byMeter.get(window.meter.id) ?? []), window]);
  const perMeter = [...byMeter.values()].map((meterWindows) => {
    const { meter } = meterWindows[0]!;
    const keys = params.add(
      meterWindows.map((window) => window.key),
      '::text[]',
    );
    const customers = params.add(
      meterWindows.map((window) => window.customerId),
      '::uuid[]',
    );
    const froms = params.add(
      meterWindows.map((window) => window.from),
      '::timestamptz[]',
    );
    const tos = params.add(
      meterWindows.map((window) => window.to),
      '::timestamptz[]',
    );
    const creditsFroms = params.add(
      meterWindows.map((window) => window.creditsFrom),
      '::timestamptz[]',
    );
    const meterId = params.add(meter.id, '::text');
    const credited = params.add(SYSTEM_EVENT_NAMES.meterCredited);
    const counts = `e.source = 'user' AND e.timestamp >= w.from_at AND (${filterSql(meter.filter, params)})`;
    return `SELECT w.key,
                   ${aggregateSql(meter.aggregation, valueSql(meter.aggregation, params))} FILTER (WHERE ${counts}) AS units,
                   coalesce(sum((e.metadata->'units')::numeric) FILTER (
                     WHERE e.source = 'system' AND e.name = ${credited} AND e.metadata->>'meter_id' = ${meterId}
                       AND jsonb_typeof(e.metadata->'units') = 'number' AND e.timestamp >= w.credits_from), 0) AS credited
            FROM unnest(${keys}, ${customers}, ${froms}, ${tos}, ${creditsFroms})
                   AS w(key, customer_id, from_at, to_at, credits_from)
            LEFT JOIN customer_events e
              ON e.customer_id = w.customer_id AND e.timestamp >= least(w.from_at, w.credits_from)
             AND (w.to_at IS NULL OR e.timestamp < w.to_at)
            GROUP BY w.key`;
  });
  const { rows } = await sql.query<{ key: string; units: string | null; credited: string }>(
    `WITH ${customerEventsSql(organization, customerIds)}
     ${perMeter.join('\n     UNION ALL\n     ')}`,
    params.values,
  );
  return new Map(rows.map((row) => [row.key, { units: row.units ?? '0', credited: row.credited }]));
}

/** A metered price of a subscription that has not ended, with what measuring its period takes. */
export type MeteredSubscriptionPrice = {
  subscriptionId: string;
  customerId: string;
  organizationId: string;
  meter: CountedMeter;
  unitAmount: string;
  capAmount: number | null;
  /** When the price joined the subscription, in the subscription's time: usage counts from then. */
  attachedAt: Date;
  periodStart: Date;
  /** The period's credits of the meter that usage billed earlier took (a plan change), as units. */
  creditsTaken: string;
};

export async function findMeteredSubscriptionPrices(
  sql: SqlClient,
  customerIds: string[],
): Promise<MeteredSubscriptionPrice[]> {
  const { rows } = await sql.query<
    Omit<MeteredSubscriptionPrice, 'meter'> & {
      meterId: string;
      filter: Filter;
      aggregation: Aggregation;
    }
  >(
    `SELECT s.id AS "subscriptionId", s.customer_id AS "customerId", s.organization_id AS "organizationId",
            m.id AS "meterId", m.filter, m.aggregation, sp.created_at AS "attachedAt",
            pp.unit_amount::text AS "unitAmount", pp.cap_amount AS "capAmount",
            -- The current meter cycle's start once one closed inside the period (a cycle of its own).
            GREATEST(s.current_period_start, COALESCE(s.meter_period_start, s.current_period_start)) AS "periodStart",
            coalesce(s.period_meter_credits ->> m.id::text, '0') AS "creditsTaken"
     FROM subscriptions s
     JOIN subscription_prices sp ON sp.subscription_id = s.id
     JOIN product_prices pp ON pp.id = sp.product_price_id AND pp.amount_type = 'metered_unit'
     JOIN meters m ON m.id = pp.meter_id
     WHERE s.customer_id = ANY($1::uuid[]) AND s.started_at IS NOT NULL AND s.ended_at IS NULL
     ORDER BY s.id, sp.created_at, sp.id`,
    [customerIds],
  );
  return rows.map(({ meterId, filter, aggregation, ...price }) => ({
    ...price,
    meter: { id: meterId, filter, aggregation },
  }));
}

export type SubscriptionMeterValues = {
  subscriptionId: string;
  meterId: string;
  consumed: string;
  credited: string;
  amount: number;
};

/**
 * Writes these subscriptions' meters as given (and drops those of meters no longer priced in
 * them); answers the subscriptions whose meters changed.
 */
export async function writeSubscriptionMeterRows(
  sql: SqlClient,
  subscriptionIds: string[],
  values: SubscriptionMeterValues[],
): Promise<string[]> {
  if (subscriptionIds.length === 0) return [];
  const column = <T>(pick: (value: SubscriptionMeterValues) => T) => values.map(pick);
  const { rows } = await sql.query<{ subscriptionId: string }>(
    `WITH wanted AS (
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::numeric[], $4::numeric[], $5::int[])
         AS w(subscription_id, meter_id, consumed, credited, amount)
     ), gone AS (
       DELETE FROM subscription_meters sm
       WHERE sm.subscription_id = ANY($6::uuid[])
         AND NOT EXISTS (SELECT 1 FROM wanted w WHERE w.subscription_id = sm.subscription_id AND w.meter_id = sm.meter_id)
       RETURNING sm.subscription_id
     ), written AS (
       INSERT INTO subscription_meters AS sm (subscription_id, meter_id, consumed_units, credited_units, amount)
       SELECT subscription_id, meter_id, consumed, credited, amount FROM wanted
       ON CONFLICT (subscription_id, meter_id) DO UPDATE
         SET consumed_units = EXCLUDED.consumed_units, credited_units = EXCLUDED.credited_units,
             amount = EXCLUDED.amount, modified_at = now()
         WHERE (sm.consumed_units, sm.credited_units, sm.amount)
               IS DISTINCT FROM (EXCLUDED.consumed_units, EXCLUDED.credited_units, EXCLUDED.amount)
       RETURNING sm.subscription_id
     )
     SELECT subscription_id AS "subscriptionId" FROM gone UNION SELECT subscription_id FROM written`,
    [
      column((value) => value.subscriptionId),
      column((value) => value.meterId),
      column((value) => value.consumed),
      column((value) => value.credited),
      column((value) => value.amount),
      subscriptionIds,
    ],
  );
  return rows.map((row) => row.subscriptionId);
}

/** The customers' subscriptions that have not ended (their meters are kept current). */
export async function findLiveSubscriptionsOf(
  sql: SqlClient,
  customerIds: string[],
): Promise<{ id: string; customerId: string }[]> {
  const { rows } = await sql.query<{ id: string; customerId: string }>(
    `SELECT id, customer_id AS "customerId" FROM subscriptions
     WHERE customer_id = ANY($1::uuid[]) AND started_at IS NOT NULL AND ended_at IS NULL`,
    [customerIds],
  );
  return rows;
}

/** The row's balance (0 without a row), in whole units as credits count them. */
export async function meterBalanceOf(sql: SqlClient, customerId: string, meterId: string): Promise<number> {
  const { rows } = await sql.query<{ balance: string }>(
    `SELECT balance::text AS balance FROM customer_meters WHERE customer_id = $1::uuid AND meter_id = $2::uuid`,
    [customerId, meterId],
  );
  return rows[0] ? Number(rows[0].balance) : 0;
}
