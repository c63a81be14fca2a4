import type { Db } from '../../infra/db.js';
import { Prisma } from '../../generated/prisma/client.js';

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
