import type { Db, SqlClient } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { returningList, updateRow } from '../../infra/sql.js';
import { Prisma as PrismaNamespace } from '../../generated/prisma/client.js';
import type { SubscriptionStatus } from '../products/schemas.js';
import type { DesiredGrant, GrantDesire } from './rules.js';

/** Serializes the dispatcher's rounds for these customers (two workers, one customer). */
export async function lockCustomersForGrants(sql: SqlClient, customerIds: string[]): Promise<void> {
  await sql.query(
    `SELECT pg_advisory_xact_lock(hashtextextended('benefit-grants:' || id::text, 0))
     FROM unnest($1::uuid[]) AS id ORDER BY id`,
    [[...customerIds].sort()],
  );
}

const grantFields = PrismaNamespace.BenefitGrantScalarFieldEnum;
export type GrantRecord = Prisma.BenefitGrantGetPayload<object>;

export async function grantRowsOfCustomers(sql: SqlClient, customerIds: string[]): Promise<GrantRecord[]> {
  const { rows } = await sql.query<GrantRecord>(
    `SELECT ${returningList(grantFields)} FROM benefit_grants WHERE customer_id = ANY($1::uuid[])`,
    [customerIds],
  );
  return rows;
}

export async function insertDesiredGrants(sql: SqlClient, grants: DesiredGrant[]): Promise<void> {
  if (grants.length === 0) return;
  await sql.query(
    `INSERT INTO benefit_grants (customer_id, benefit_id, order_id, subscription_id, desired)
     SELECT g.customer_id, g.benefit_id, g.order_id, g.subscription_id, 'granted'
     FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[]) AS g(customer_id, benefit_id, order_id, subscription_id)
     ON CONFLICT DO NOTHING`,
    [
      grants.map((grant) => grant.customerId),
      grants.map((grant) => grant.benefitId),
      grants.map((grant) => (grant.source.kind === 'order' ? grant.source.id : null)),
      grants.map((grant) => (grant.source.kind === 'subscription' ? grant.source.id : null)),
    ],
  );
}

export async function setGrantDesires(
  sql: SqlClient,
  desires: { id: string; desired: GrantDesire }[],
): Promise<void> {
  if (desires.length === 0) return;
  await sql.query(
    `UPDATE benefit_grants g SET desired = d.desired, modified_at = now()
     FROM unnest($1::uuid[], $2::text[]) AS d(id, desired) WHERE g.id = d.id`,
    [desires.map((desire) => desire.id), desires.map((desire) => desire.desired)],
  );
}

/**
 * The SQL of a grant whose workflow has something to do (rules.ts `nextGrantStep`): the predicate
 * of the partial index `benefit_grants_pending_idx`, written the same so the planner uses it.
 */
const PENDING = `((g.desired = 'granted' AND (g.granted_at IS NULL OR g.revoked_at IS NOT NULL OR g.cycles_applied < g.cycles_requested OR g.update_requested)) OR (g.desired = 'revoked' AND g.revoked_at IS NULL))`;

export type GrantPair = { customerId: string; benefitId: string };

/** The (customer, benefit) pairs of these customers with a grant to bring to what it should be. */
export async function pendingPairsOf(sql: SqlClient, customerIds: string[]): Promise<GrantPair[]> {
  const { rows } = await sql.query<GrantPair>(
    `SELECT DISTINCT g.customer_id AS "customerId", g.benefit_id AS "benefitId"
     FROM benefit_grants g WHERE g.customer_id = ANY($1::uuid[]) AND ${PENDING}`,
    [customerIds],
  );
  return rows;
}

/**
 * Pending pairs untouched since `before`, a grant waiting for the customer's linked account
 * excepted: the reconciler's list (a workflow start lost after the dispatcher's commit).
 */
export async function stalePendingPairs(sql: SqlClient, before: Date, limit: number): Promise<GrantPair[]> {
  const { rows } = await sql.query<GrantPair>(
    `SELECT DISTINCT g.customer_id AS "customerId", g.benefit_id AS "benefitId"
     FROM benefit_grants g
     WHERE ${PENDING} AND coalesce(g.modified_at, g.created_at) < $1
       AND coalesce(g.error->>'type', '') <> 'account_not_linked'
     LIMIT $2`,
    [before, limit],
  );
  return rows;
}

/** The pair's grants, locked for the caller's transaction: one step at a time per grant. */
export async function lockGrantsOfPair(sql: SqlClient, pair: GrantPair): Promise<GrantRecord[]> {
  const { rows } = await sql.query<GrantRecord>(
    `SELECT ${returningList(grantFields)} FROM benefit_grants
     WHERE customer_id = $1::uuid AND benefit_id = $2::uuid ORDER BY created_at, id FOR UPDATE`,
    [pair.customerId, pair.benefitId],
  );
  return rows;
}

export function updateGrantRow(
  sql: SqlClient,
  id: string,
  data: Partial<Omit<GrantRecord, 'id'>>,
): Promise<GrantRecord | null> {
  return updateRow<GrantRecord>(
    sql,
    'benefit_grants',
    id,
    { ...data, modifiedAt: new Date() },
    { returning: grantFields, jsonFields: ['properties', 'error'] },
  );
}

/** A grant's failure, recorded outside the failed step's transaction so the seller sees it. */
export async function recordGrantErrors(
  sql: SqlClient,
  ids: string[],
  error: { message: string; type: string; timestamp: string },
): Promise<void> {
  await sql.query(
    `UPDATE benefit_grants SET error = $2::jsonb, modified_at = now() WHERE id = ANY($1::uuid[])`,
    [ids, JSON.stringify(error)],
  );
}

/** Each paid cycle of the subscription cycles its granted grants once, at `at`. */
export async function requestGrantCycles(sql: SqlClient, subscriptionId: string, at: Date): Promise<void> {
  await sql.query(
    `WITH cycled AS (
       UPDATE benefit_grants SET cycles_requested = cycles_requested + 1, cycled_at = $2, modified_at = now()
       WHERE subscription_id = $1::uuid AND desired = 'granted'
       RETURNING customer_id
     )
     INSERT INTO benefit_grant_syncs (customer_id) SELECT DISTINCT customer_id FROM cycled`,
    [subscriptionId, at],
  );
}

/** Whether the customer holds this benefit through another grant (a second order, say). */
export async function holdsThroughAnotherGrant(
  sql: SqlClient,
  pair: GrantPair,
  exceptGrantId: string,
): Promise<boolean> {
  const { rows } = await sql.query(
    `SELECT 1 FROM benefit_grants WHERE customer_id = $1::uuid AND benefit_id = $2::uuid AND id <> $3::uuid
       AND desired = 'granted' AND granted_at IS NOT NULL AND revoked_at IS NULL LIMIT 1`,
    [pair.customerId, pair.benefitId, exceptGrantId],
  );
  return rows.length > 0;
}

/** What the customer's other held grants of this benefit hold (a second order's, say). */
export async function propertiesOfOtherHeldGrants(
  sql: SqlClient,
  pair: GrantPair,
  exceptGrantId: string,
): Promise<Prisma.JsonValue[]> {
  const { rows } = await sql.query<{ properties: Prisma.JsonValue }>(
    `SELECT properties FROM benefit_grants WHERE customer_id = $1::uuid AND benefit_id = $2::uuid AND id <> $3::uuid
       AND desired = 'granted' AND granted_at IS NOT NULL AND revoked_at IS NULL`,
    [pair.customerId, pair.benefitId, exceptGrantId],
  );
  return rows.map((row) => row.properties);
}

/**
 * The customer chose the account a GitHub or Discord benefit goes to: its held grants that went
 * to another account follow it (an update step); the caller marks the customer to be looked at again.
 */
export async function requestGrantAccountMoves(
  tx: Prisma.TransactionClient,
  pair: GrantPair,
  accountId: string,
) {
  await tx.$executeRaw`UPDATE benefit_grants SET update_requested = true, modified_at = now()
    WHERE customer_id = ${pair.customerId}::uuid AND benefit_id = ${pair.benefitId}::uuid
      AND desired = 'granted' AND granted_at IS NOT NULL AND revoked_at IS NULL
      AND coalesce(properties->>'account_id', '') <> ${accountId}`;
}

export function listGrants(
  db: Db,
  where: Prisma.BenefitGrantWhereInput,
  page: { skip: number; take: number },
) {
  return db.$transaction([
    db.benefitGrant.findMany({
      where,
      include: { customer: true },
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      ...page,
    }),
    db.benefitGrant.count({ where }),
  ]);
}

const WITH_BENEFIT = { benefit: true, customer: true } as const;
export type GrantWithBenefitRow = Prisma.BenefitGrantGetPayload<{ include: typeof WITH_BENEFIT }>;

/** A page of grants with their benefit and customer, in this order, and how many match. */
export function listGrantsWithBenefit(
  db: Db,
  where: Prisma.BenefitGrantWhereInput,
  orderBy: Prisma.BenefitGrantOrderByWithRelationInput[],
  page: { skip: number; take: number },
) {
  return db.$transaction([
    db.benefitGrant.findMany({ where, include: WITH_BENEFIT, orderBy, ...page }),
    db.benefitGrant.count({ where }),
  ]);
}

export function findGrantWithBenefit(
  db: Db,
  where: Prisma.BenefitGrantWhereInput,
): Promise<GrantWithBenefitRow | null> {
  return db.benefitGrant.findFirst({ where, include: WITH_BENEFIT });
}

export type GrantRow = Awaited<ReturnType<typeof listGrants>>[0][number];

/** A customer's grants that were ever granted or revoked, the latest change first (their timeline). */
export async function listCustomerGrantHistory(
  sql: SqlClient,
  organizationId: string,
  customerId: string,
  limit: number,
) {
  const { rows } = await sql.query<{
    grantedAt: Date | null;
    revokedAt: Date | null;
    description: string;
  }>(
    `SELECT g.granted_at AS "grantedAt", g.revoked_at AS "revokedAt", b.description
     FROM benefit_grants g JOIN benefits b ON b.id = g.benefit_id
     WHERE g.customer_id = $2::uuid AND b.organization_id = $1::uuid
       AND (g.granted_at IS NOT NULL OR g.revoked_at IS NOT NULL)
     ORDER BY COALESCE(g.revoked_at, g.granted_at) DESC LIMIT $3`,
    [organizationId, customerId, limit],
  );
  return rows;
}

// What customers bought, read (never written) for the grants they should hold: the orders, refunds
// and subscriptions belong to the processes above, which mark their customers when they change.

/**
 * Paid one-time orders these customers made, or with these ids (the orders whose seats someone
 * holds): each entitles its buyer, or its seats' holders, to the product's benefits.
 */
export async function paidPurchasesOf(
  sql: SqlClient,
  customerIds: string[],
  orderIds: string[] = [],
): Promise<PurchaseRow[]> {
  const { rows } = await sql.query<PurchaseRow>(
    `SELECT id, customer_id AS "customerId", product_id AS "productId", seats FROM orders
     WHERE (customer_id = ANY($1::uuid[]) OR id = ANY($2::uuid[])) AND subscription_id IS NULL
       AND status IN ('paid', 'partially_refunded', 'refunded')`,
    [customerIds, orderIds],
  );
  return rows;
}

/** A purchase that holds benefits; `seats` set, they go to its seats' holders, not its buyer. */
export type PurchaseRow = { id: string; customerId: string; productId: string; seats: number | null };

/**
 * Of these orders, those a succeeded refund took the benefits of, or a dispute holds them from
 * (the organization's `revoke_benefits`; open or lost, not won or prevented: domain/disputes/rules.ts).
 */
export async function ordersWithBenefitsRevoked(db: Db | Prisma.TransactionClient, orderIds: string[]) {
  if (orderIds.length === 0) return new Set<string>();
  const [refunds, disputes] = await Promise.all([
    db.refund.findMany({
      where: { orderId: { in: orderIds }, status: 'succeeded', revokeBenefits: true },
      select: { orderId: true },
    }),
    db.dispute.findMany({
      where: { orderId: { in: orderIds }, revokesBenefits: true, status: { notIn: ['won', 'prevented'] } },
      select: { orderId: true },
    }),
  ]);
  return new Set([...refunds, ...disputes].map((row) => row.orderId));
}

/**
 * These customers' subscriptions (or those with these ids: the ones whose seats someone holds)
 * that hold their product's benefits: billable (past_due keeps them through dunning) and not ended.
 */
export async function benefitHoldingSubscriptionsOf(
  sql: SqlClient,
  customerIds: string[],
  statuses: readonly SubscriptionStatus[],
  subscriptionIds: string[] = [],
): Promise<PurchaseRow[]> {
  const { rows } = await sql.query<PurchaseRow>(
    `SELECT id, customer_id AS "customerId", product_id AS "productId", seats FROM subscriptions
     WHERE (customer_id = ANY($1::uuid[]) OR id = ANY($3::uuid[])) AND ended_at IS NULL
       AND (status = ANY($2::text[])
         -- A paused plan keeps its benefits where its product says so (subscriptions/pause.ts).
         OR (status = 'paused' AND product_id IN (SELECT id FROM products WHERE pause_keeps_benefits)))`,
    [customerIds, statuses, subscriptionIds],
  );
  return rows;
}

// Seats (domain/customer-seats): a claimed seat gives its holder the purchase's benefits.

/**
 * The holders of claimed seats on purchases these customers made: a change of the buyer's plan
 * (which marks only the buyer) changes what each holder should hold.
 */
export async function seatHoldersOfBuyers(sql: SqlClient, buyerIds: string[]): Promise<string[]> {
  const { rows } = await sql.query<{ customerId: string }>(
    `SELECT DISTINCT seat.customer_id AS "customerId" FROM customer_seats seat
     LEFT JOIN subscriptions s ON s.id = seat.subscription_id
     LEFT JOIN orders o ON o.id = seat.order_id
     WHERE seat.status = 'claimed' AND (s.customer_id = ANY($1::uuid[]) OR o.customer_id = ANY($1::uuid[]))`,
    [buyerIds],
  );
  return rows.map((row) => row.customerId);
}

/** The purchases whose claimed seats these customers hold, with the product each seat gives. */
export async function claimedSeatsOf(
  sql: SqlClient,
  holderIds: string[],
): Promise<{ customerId: string; subscriptionId: string | null; orderId: string | null }[]> {
  const { rows } = await sql.query<{
    customerId: string;
    subscriptionId: string | null;
    orderId: string | null;
  }>(
    `SELECT customer_id AS "customerId", subscription_id AS "subscriptionId", order_id AS "orderId"
     FROM customer_seats WHERE customer_id = ANY($1::uuid[]) AND status = 'claimed'`,
    [holderIds],
  );
  return rows;
}
