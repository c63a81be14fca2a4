import type { Db } from '../../infra/db.js';
import { Prisma } from '../../generated/prisma/client.js';
import { ACTIVE_STATUSES } from '../subscriptions/schemas.js';

type Client = Db | Prisma.TransactionClient;

const live = { deletedAt: null };

export function findLiveCustomer(db: Client, id: string) {
  return db.customer.findFirst({ where: { id, ...live } });
}

/** The organization's live customer with this id, external id or (lower-cased) email. */
export function findLiveCustomerOfOrganization(
  db: Client,
  organizationId: string,
  by: { id: string } | { externalId: string } | { email: string },
) {
  return db.customer.findFirst({ where: { organizationId, deletedAt: null, ...by } });
}

export function findLiveCustomerByExternalId(db: Client, organizationIds: string[], externalId: string) {
  return db.customer.findFirst({ where: { organizationId: { in: organizationIds }, externalId, ...live } });
}

export function listLiveCustomers(
  db: Db,
  where: Prisma.CustomerWhereInput,
  orderBy: Prisma.CustomerOrderByWithRelationInput[],
  page: { skip: number; take: number },
) {
  const filter = { ...where, ...live };
  return db.$transaction([
    db.customer.findMany({ where: filter, orderBy, ...page }),
    db.customer.count({ where: filter }),
  ]);
}

/** One page of live customers without counting them all (the CSV export reads page after page). */
export function listLiveCustomerPage(
  db: Db,
  where: Prisma.CustomerWhereInput,
  orderBy: Prisma.CustomerOrderByWithRelationInput[],
  page: { skip: number; take: number },
) {
  return db.customer.findMany({ where: { ...where, ...live }, orderBy, ...page });
}

export function insertCustomer(tx: Prisma.TransactionClient, data: Prisma.CustomerUncheckedCreateInput) {
  return tx.customer.create({ data });
}

export function updateCustomerRow(
  tx: Prisma.TransactionClient,
  id: string,
  data: Prisma.CustomerUpdateInput,
) {
  return tx.customer.update({ where: { id }, data });
}

/** Which live-customer uniqueness rule a write broke, from PostgreSQL's unique violation. */
export function violatedCustomerConstraint(error: unknown): 'email' | 'external_id' | null {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== 'P2002') return null;
  const detail = JSON.stringify(error.meta ?? {}) + error.message;
  if (detail.includes('external_id')) return 'external_id';
  if (detail.includes('email')) return 'email';
  return null;
}

export type CustomerRow = NonNullable<Awaited<ReturnType<typeof findLiveCustomer>>>;

export type CustomerOrderTotals = {
  ordersCount: number;
  paidOrdersCount: number;
  firstOrderAt: Date | null;
  lastOrderAt: Date | null;
  byCurrency: { currency: string; amount: number }[];
  activeSubscriptions: number;
  subscriptions: number;
};

/** The customer's orders and subscriptions counted and summed by the database. */
export async function customerOrderTotals(
  db: Db,
  organizationId: string,
  customerId: string,
): Promise<CustomerOrderTotals> {
  const [counts, sums, plans] = await Promise.all([
    db.sql.query<{ orders: number; paid: number; first: Date | null; last: Date | null }>(
      `SELECT count(*)::int AS orders, (count(*) FILTER (WHERE status <> 'pending'))::int AS paid,
              min(created_at) AS first, max(created_at) AS last
       FROM orders WHERE organization_id = $1::uuid AND customer_id = $2::uuid`,
      [organizationId, customerId],
    ),
    // bigint sums: a long-lived customer's total may outgrow an int.
    db.sql.query<{ currency: string; amount: string }>(
      `SELECT currency, sum(net_amount::bigint - refunded_amount::bigint)::text AS amount
       FROM orders WHERE organization_id = $1::uuid AND customer_id = $2::uuid AND status <> 'pending'
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
