import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';

type Client = Db | Prisma.TransactionClient;

export function insertCustomerSession(db: Client, data: Prisma.CustomerSessionUncheckedCreateInput) {
  return db.customerSession.create({ data, include: { customer: true } });
}

/** A session still valid at `now`, of a customer not deleted. */
export function findLiveCustomerSession(db: Client, tokenHash: string, now: Date) {
  return db.customerSession.findFirst({
    where: { tokenHash, expiresAt: { gt: now }, customer: { deletedAt: null } },
    select: { customerId: true, organizationId: true },
  });
}
