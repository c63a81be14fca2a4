// Customer state: what a customer holds (active subscriptions, granted benefits, meters), read in
// one statement about the customer, and what they bought (the summary). The rows belong to the
// subscriptions, benefit grants, customer meters and orders; this repository only reads them.
import type { Db, SqlClient } from '../../infra/db.js';
import { jsonSelectList, revive, selectList, type JsonRevivals } from '../../infra/sql.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { GrantRecord } from '../benefit-grants/repository.js';
import type { CustomerMeterRecord } from '../customer-meters/repository.js';
import type { CustomerRow } from '../customers/repository.js';
import { ACTIVE_STATUSES } from '../products/schemas.js';
import type { SubscriptionRecord } from '../subscriptions/repository.js';

type ActiveGrant = GrantRecord & { benefit: { type: string; metadata: unknown } };

const GRANT_REVIVALS: JsonRevivals<GrantRecord> = {
  grantedAt: 'date',
  revokedAt: 'date',
  cycledAt: 'date',
  createdAt: 'date',
  modifiedAt: 'date',
};

/**
 * The SQL of the grants a customer holds now (granted and not revoked, of benefits that still
 * exist), oldest grant first, as one JSON array: a statement about the customer (`customer` is the
 * SQL of their id) reads them in the same round trip. `activeGrantsFromJson` reads the array.
 */
function activeGrantsJsonSql(customer: string): string {
  return `(SELECT coalesce(json_agg(r ORDER BY r."grantedAt", r.id), '[]') FROM (
       SELECT ${jsonSelectList(Prisma.BenefitGrantScalarFieldEnum, 'g', GRANT_REVIVALS)}, json_build_object('type', b.type, 'metadata', b.metadata) AS benefit
       FROM benefit_grants g JOIN benefits b ON b.id = g.benefit_id
       WHERE g.customer_id = ${customer} AND g.granted_at IS NOT NULL AND g.revoked_at IS NULL
         AND b.deleted_at IS NULL
     ) r)`;
}

function activeGrantsFromJson(json: unknown): ActiveGrant[] {
  return (json as Record<string, unknown>[]).map((row) => revive<ActiveGrant>(row, GRANT_REVIVALS));
}

const CUSTOMER_METER_REVIVALS: JsonRevivals<CustomerMeterRecord> = {
  consumedUnits: 'decimal',
  creditedUnits: 'decimal',
  balance: 'decimal',
  createdAt: 'date',
  modifiedAt: 'date',
};

/**
 * The SQL of every meter of the customer, oldest first, as one JSON array: a statement about the
 * customer (`customer` is the SQL of their id) reads them in the same round trip. Meters that one
 * refresher round creates share their instant: the meter's id orders them, so that the list does not
 * reshuffle between reads. `customerMetersFromJson` reads the array.
 */
function customerMetersJsonSql(customer: string): string {
  return `(SELECT coalesce(json_agg(r ORDER BY r."createdAt", r."meterId"), '[]') FROM (
       SELECT ${jsonSelectList(Prisma.CustomerMeterScalarFieldEnum, 'cm', CUSTOMER_METER_REVIVALS)}
       FROM customer_meters cm WHERE cm.customer_id = ${customer}
     ) r)`;
}

function customerMetersFromJson(json: unknown): CustomerMeterRecord[] {
  return (json as Record<string, unknown>[]).map((row) =>
    revive<CustomerMeterRecord>(row, CUSTOMER_METER_REVIVALS),
  );
}

type SubscriptionMeterRecord = Prisma.SubscriptionMeterGetPayload<object>;
type SubscriptionWithMeters = SubscriptionRecord & { meters: SubscriptionMeterRecord[] };

const SUBSCRIPTION_REVIVALS: JsonRevivals<SubscriptionRecord> = {
  discountFirstPeriodStart: 'date',
  billingAnchor: 'date',
  currentPeriodStart: 'date',
  currentPeriodEnd: 'date',
  canceledAt: 'date',
  startedAt: 'date',
  endsAt: 'date',
  endedAt: 'date',
  periodLedgerSince: 'date',
  nextAttemptAt: 'date',
  clockCaughtUpTo: 'date',
  pastDueAt: 'date',
  createdAt: 'date',
  modifiedAt: 'date',
  pendingUpdateCreatedAt: 'date',
  pendingUpdateModifiedAt: 'date',
  pausedAt: 'date',
  resumesAt: 'date',
  trialStart: 'date',
  trialEnd: 'date',
  meterPeriodStart: 'date',
};

const SUBSCRIPTION_METER_REVIVALS: JsonRevivals<SubscriptionMeterRecord> = {
  consumedUnits: 'decimal',
  creditedUnits: 'decimal',
  createdAt: 'date',
  modifiedAt: 'date',
};

/**
 * The SQL of the customer's started `active` subscriptions, oldest first, each with its metered
 * prices' usage, as one JSON array: a statement about the customer (`customer` is the SQL of their
 * id) reads them in the same round trip. `activeSubscriptionsFromJson` reads the array.
 */
function activeSubscriptionsJsonSql(customer: string): string {
  return `(SELECT coalesce(json_agg(r ORDER BY r."createdAt", r.id), '[]') FROM (
       SELECT ${jsonSelectList(Prisma.SubscriptionScalarFieldEnum, 's', SUBSCRIPTION_REVIVALS)},
              (SELECT coalesce(json_agg(m ORDER BY m."createdAt", m.id), '[]') FROM (
                 SELECT ${jsonSelectList(Prisma.SubscriptionMeterScalarFieldEnum, 'sm', SUBSCRIPTION_METER_REVIVALS)}
                 FROM subscription_meters sm WHERE sm.subscription_id = s.id
               ) m) AS meters
       FROM subscriptions s
       WHERE s.customer_id = ${customer} AND s.status = 'active' AND s.started_at IS NOT NULL
     ) r)`;
}

function activeSubscriptionsFromJson(json: unknown): SubscriptionWithMeters[] {
  return (json as (Record<string, unknown> & { meters: Record<string, unknown>[] })[]).map((row) => ({
    ...revive<SubscriptionRecord>(row, SUBSCRIPTION_REVIVALS),
    meters: row.meters.map((meter) => revive<SubscriptionMeterRecord>(meter, SUBSCRIPTION_METER_REVIVALS)),
  }));
}

/** What customer state shows a customer holds. */
export type CustomerHoldings = {
  grants: ActiveGrant[];
  subscriptions: SubscriptionWithMeters[];
  meters: CustomerMeterRecord[];
};

type HoldingsJson = { grants: unknown; subscriptions: unknown; meters: unknown };

const holdingsSql = (customer: string) =>
  `${activeGrantsJsonSql(customer)} AS grants, ${activeSubscriptionsJsonSql(customer)} AS subscriptions,
   ${customerMetersJsonSql(customer)} AS meters`;

const holdingsOf = (row: HoldingsJson): CustomerHoldings => ({
  grants: activeGrantsFromJson(row.grants),
  subscriptions: activeSubscriptionsFromJson(row.subscriptions),
  meters: customerMetersFromJson(row.meters),
});

const withHoldings = (where: string) =>
  `SELECT ${selectList(Prisma.CustomerScalarFieldEnum, 'c')}, ${holdingsSql('c.id')}
   FROM customers c
   WHERE ${where} AND c.organization_id = ANY($2::uuid[]) AND c.deleted_at IS NULL
   LIMIT 1`;

/**
 * Named, so that PostgreSQL parses and plans each once per connection: planning this statement
 * took twice as long as running it.
 */
const LIVE_CUSTOMER_WITH_HOLDINGS = {
  id: { name: 'live-customer-with-holdings-by-id', text: withHoldings('c.id = $1::uuid') },
  externalId: {
    name: 'live-customer-with-holdings-by-external-id',
    text: withHoldings('c.external_id = $1'),
  },
};

/**
 * The live customer of one of `organizationIds`, by id or external id, with what they hold, in one
 * plain statement: a seller's app reads a customer's state on each of its own requests, and each
 * Prisma statement would cost more CPU than the read itself (docs/architecture.md).
 */
export async function findLiveCustomerWithHoldings(
  sql: SqlClient,
  organizationIds: string[],
  ref: { id: string } | { externalId: string },
): Promise<{ customer: CustomerRow; holdings: CustomerHoldings } | null> {
  const { rows } = await sql.query<CustomerRow & HoldingsJson>({
    ...('id' in ref ? LIVE_CUSTOMER_WITH_HOLDINGS.id : LIVE_CUSTOMER_WITH_HOLDINGS.externalId),
    values: ['id' in ref ? ref.id : ref.externalId, organizationIds],
  });
  if (!rows[0]) return null;
  const { grants, subscriptions, meters, ...customer } = rows[0];
  return { customer, holdings: holdingsOf({ grants, subscriptions, meters }) };
}

const HOLDINGS_OF_CUSTOMER = `SELECT ${holdingsSql('$1::uuid')}`;

/**
 * What the customer holds as the transaction sees it: the state recorded with a change includes
 * the change. The same subqueries, run by Prisma on the transaction's connection, the only one its
 * callers have (the statement's text is ours; the id is a parameter).
 */
export async function customerHoldingsIn(
  tx: Prisma.TransactionClient,
  customerId: string,
): Promise<CustomerHoldings> {
  const [row] = await tx.$queryRawUnsafe<HoldingsJson[]>(HOLDINGS_OF_CUSTOMER, customerId);
  return holdingsOf(row!);
}

export type CustomerOrderTotals = {
  ordersCount: number;
  paidOrdersCount: number;
  firstOrderAt: Date | null;
  lastOrderAt: Date | null;
  byCurrency: { currency: string; amount: number }[];
  activeSubscriptions: number;
  subscriptions: number;
};

/** The customer's orders and subscriptions (read, never written) counted and summed by the database. */
export async function customerOrderTotals(
  db: Db,
  organizationId: string,
  customerId: string,
): Promise<CustomerOrderTotals> {
  const [counts, sums, plans] = await Promise.all([
    db.sql.query<{ orders: number; paid: number; first: Date | null; last: Date | null }>(
      `SELECT count(*)::int AS orders, (count(*) FILTER (WHERE status NOT IN ('pending', 'draft')))::int AS paid,
              min(created_at) AS first, max(created_at) AS last
       FROM orders WHERE organization_id = $1::uuid AND customer_id = $2::uuid AND status <> 'draft'`,
      [organizationId, customerId],
    ),
    // bigint sums: a long-lived customer's total may outgrow an int.
    db.sql.query<{ currency: string; amount: string }>(
      `SELECT currency, sum(net_amount::bigint - refunded_amount::bigint)::text AS amount
       FROM orders WHERE organization_id = $1::uuid AND customer_id = $2::uuid AND status NOT IN ('pending', 'draft')
       GROUP BY currency ORDER BY currency`,
      [organizationId, customerId],
    ),
    db.sql.query<{ active: number; total: number }>(
      `SELECT (count(*) FILTER (WHERE status = ANY($3::text[])))::int AS active, count(*)::int AS total
       FROM subscriptions WHERE organization_id = $1::uuid AND customer_id = $2::uuid
         AND started_at IS NOT NULL`,
      [organizationId, customerId, ACTIVE_STATUSES],
    ),
  ]);
  const count = counts.rows[0]!;
  return {
    ordersCount: count.orders,
    paidOrdersCount: count.paid,
    firstOrderAt: count.first,
    lastOrderAt: count.last,
    byCurrency: sums.rows.map((row) => ({ currency: row.currency, amount: Number(row.amount) })),
    activeSubscriptions: plans.rows[0]!.active,
    subscriptions: plans.rows[0]!.total,
  };
}
