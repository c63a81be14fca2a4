import type { Db, SqlClient } from '../../infra/db.js';
import { Prisma } from '../../generated/prisma/client.js';

type Client = Db | Prisma.TransactionClient;

const live = { deletedAt: null };

export function findLiveCustomer(db: Client, id: string) {
  return db.customer.findFirst({ where: { id, ...live } });
}

/** Where a customer's emails go and whom they greet; deleted customers too (their receipts). */
export async function findCustomerContact(
  sql: SqlClient,
  id: string,
): Promise<{ email: string; name: string | null } | null> {
  const { rows } = await sql.query<{ email: string; name: string | null }>(
    `SELECT c.email, c.name FROM customers c WHERE c.id = $1::uuid`,
    [id],
  );
  return rows[0] ?? null;
}

/** Any customer, deleted or not; a missing one throws (a caller that knows it exists). */
export function findCustomerOrThrow(db: Client, id: string) {
  return db.customer.findUniqueOrThrow({ where: { id } });
}

/** Customers by id, deleted ones too, in id order. */
export function listCustomersByIds(db: Client, ids: string[]) {
  return db.customer.findMany({ where: { id: { in: ids } }, orderBy: { id: 'asc' } });
}

/** Which of these customers are live (not deleted). */
export async function liveCustomerIdsAmong(db: Client, ids: string[]): Promise<string[]> {
  const rows = await db.customer.findMany({ where: { id: { in: ids }, ...live }, select: { id: true } });
  return rows.map(({ id }) => id);
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

export async function insertCustomer(
  tx: Prisma.TransactionClient,
  data: Prisma.CustomerUncheckedCreateInput,
) {
  const firstUserEventAt = data.externalId
    ? await firstUnclaimedEventAt(tx, data.organizationId, data.externalId)
    : null;
  return tx.customer.create({ data: { ...data, ...(firstUserEventAt ? { firstUserEventAt } : {}) } });
}

export async function updateCustomerRow(
  tx: Prisma.TransactionClient,
  id: string,
  data: Prisma.CustomerUpdateInput,
) {
  if (typeof data.externalId === 'string') {
    const current = await tx.customer.findUniqueOrThrow({
      where: { id },
      select: { organizationId: true, firstUserEventAt: true },
    });
    const unclaimed = await firstUnclaimedEventAt(tx, current.organizationId, data.externalId);
    if (unclaimed && (!current.firstUserEventAt || unclaimed < current.firstUserEventAt)) {
      data = { ...data, firstUserEventAt: unclaimed };
    }
  }
  return tx.customer.update({ where: { id }, data });
}

/**
 * The earliest user event sent for an external id before any customer had it: such events belong
 * to the customer who takes the id (docs/usage.md). Reads `events`, which `usage` owns, since a
 * customer's first event derives from them.
 */
async function firstUnclaimedEventAt(
  tx: Prisma.TransactionClient,
  organizationId: string,
  externalId: string,
): Promise<Date | null> {
  const [row] = await tx.$queryRaw<{ first: Date | null }[]>`
    SELECT min(e.timestamp) AS first FROM events e
    WHERE e.organization_id = ${organizationId}::uuid AND e.customer_id IS NULL
      AND e.external_customer_id = ${externalId} AND e.source = 'user'`;
  return row?.first ?? null;
}

/**
 * Moves customers' first user event earlier to what a batch of ingested events says. Only a row
 * whose value changes is written, so steady ingestion reads the customers and locks none.
 */
export async function advanceFirstUserEvents(
  sql: SqlClient,
  firsts: { customerId: string; at: Date }[],
): Promise<void> {
  if (firsts.length === 0) return;
  await sql.query(
    `UPDATE customers c SET first_user_event_at = f.at
     FROM unnest($1::uuid[], $2::timestamptz[]) AS f(customer_id, at)
     WHERE c.id = f.customer_id AND (c.first_user_event_at IS NULL OR c.first_user_event_at > f.at)`,
    [firsts.map((first) => first.customerId), firsts.map((first) => first.at)],
  );
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

/** What the start of a customer's workflows tells operators (temporal/entity-directory.ts). */
export function findCustomerForOperators(db: Db, id: string) {
  return db.customer.findUnique({
    where: { id },
    select: { organizationId: true, organization: { select: { name: true } }, email: true },
  });
}

// The marks that ask the meter refresher and the grant dispatcher to look at customers again
// (`customer_meter_refreshes`, `benefit_grant_syncs`): written in the transaction of any change to
// what a customer holds, by whichever domain makes it, and claimed by the refresher and the
// dispatcher (docs/usage.md, docs/benefits.md).

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

/** These customers' benefits may have to change: the dispatcher will look (docs/benefits.md). */
export async function markBenefitGrantsStale(tx: Client, customerIds: string[]): Promise<void> {
  if (customerIds.length === 0) return;
  await tx.benefitGrantSync.createMany({
    data: [...new Set(customerIds)].map((customerId) => ({ customerId })),
  });
}

/** The same, for the plain-SQL paths (the renewal step). */
export async function markBenefitGrantsStaleSql(sql: SqlClient, customerIds: string[]): Promise<void> {
  if (customerIds.length === 0) return;
  await sql.query(`INSERT INTO benefit_grant_syncs (customer_id) SELECT unnest($1::uuid[])`, [
    [...new Set(customerIds)],
  ]);
}

/**
 * Takes the oldest marks (up to `limit`) and every other mark of their customers, deleting them in
 * the caller's transaction: if it fails, they are there again.
 */
export async function claimGrantSyncs(sql: SqlClient, limit: number): Promise<string[]> {
  const { rows } = await sql.query<{ customerId: string }>(
    `WITH picked AS (
       SELECT DISTINCT customer_id FROM (
         SELECT customer_id FROM benefit_grant_syncs ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED
       ) oldest
     )
     DELETE FROM benefit_grant_syncs s USING picked p WHERE s.customer_id = p.customer_id
     RETURNING s.customer_id AS "customerId"`,
    [limit],
  );
  return [...new Set(rows.map((row) => row.customerId))];
}

/** The time a customer's purchases live in: their test clock's, else null (the wall clock). */
export async function clockTimeOfCustomer(
  db: Client,
  customer: { testClockId: string | null },
): Promise<Date | null> {
  if (!customer.testClockId) return null;
  const clock = await db.testClock.findUnique({
    where: { id: customer.testClockId },
    select: { frozenTime: true },
  });
  return clock?.frozenTime ?? null;
}
