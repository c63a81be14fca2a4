// Customer meters: what each customer used of each meter since its last reset, and was credited.
// Recomputed from `events` by the refresher for the customers marked stale (docs/usage.md).
import type { Prisma } from '../../generated/prisma/client.js';
import type { Db, SqlClient } from '../../infra/db.js';
import type { Aggregation, Filter } from '../meters/schemas.js';
import { aggregateSql, filterSql, Parameters, valueSql } from '../usage/repository.js';
import { SYSTEM_EVENT_NAMES } from '../usage/rules.js';

type Client = Db | Prisma.TransactionClient;

/** Marks customers' meters stale, in the transaction of the change that may have moved them. */
export async function markCustomerMetersStale(tx: Client, customerIds: string[]): Promise<void> {
  if (customerIds.length === 0) return;
  await tx.customerMeterRefresh.createMany({ data: customerIds.map((customerId) => ({ customerId })) });
}

/** Every live customer of the organization: a meter was created or now counts differently. */
export async function markOrganizationCustomerMetersStale(tx: Client, organizationId: string): Promise<void> {
  await tx.$executeRaw`INSERT INTO customer_meter_refreshes (customer_id)
    SELECT id FROM customers WHERE organization_id = ${organizationId}::uuid AND deleted_at IS NULL`;
}

/**
 * Takes the oldest marks (up to `limit`) and every other mark of the same customers, deleting
 * them in the caller's transaction: if it fails, they are there again. A mark committed after
 * this statement is left for the next round, and its events were committed with it, so a
 * recomputation in a later statement of the transaction sees every event of the marks it took.
 */
export async function claimStaleCustomers(sql: SqlClient, limit: number): Promise<string[]> {
  const { rows } = await sql.query<{ customerId: string }>(
    `WITH picked AS (
       SELECT DISTINCT customer_id FROM (
         SELECT customer_id FROM customer_meter_refreshes ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED
       ) oldest
     )
     DELETE FROM customer_meter_refreshes r USING picked p WHERE r.customer_id = p.customer_id
     RETURNING r.customer_id AS "customerId"`,
    [limit],
  );
  return [...new Set(rows.map((row) => row.customerId))].sort();
}

/** Two refreshes of one customer never interleave (a slower one would write older values last). */
export async function lockCustomerMeters(sql: SqlClient, customerIds: string[]): Promise<void> {
  await sql.query(
    `SELECT pg_advisory_xact_lock(hashtextextended('customer-meters:' || id::text, 0))
     FROM unnest($1::uuid[]) AS id ORDER BY id`,
    [customerIds],
  );
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
  const params = new Parameters();
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
    `WITH stale AS (
       SELECT c.id, c.external_id FROM customers c
       WHERE c.id = ANY(${customerIds}) AND c.organization_id = ${organization}
     ), customer_events AS MATERIALIZED (
       SELECT s.id AS customer_id, e.name, e.source, e.timestamp, e.metadata
       FROM stale s JOIN events e ON e.customer_id = s.id
       UNION ALL
       SELECT s.id, e.name, e.source, e.timestamp, e.metadata
       FROM stale s JOIN events e ON e.organization_id = ${organization} AND e.customer_id IS NULL
                                  AND e.external_customer_id = s.external_id
     ), computed AS (
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

export function customerMetersOf(db: Client, customerId: string): Promise<CustomerMeterRecord[]> {
  return db.customerMeter.findMany({ where: { customerId }, orderBy: { createdAt: 'asc' } });
}
