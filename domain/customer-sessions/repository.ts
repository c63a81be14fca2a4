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
    select: { customerId: true, organizationId: true, expiresAt: true, returnUrl: true },
  });
}

/** When a live session's token stops working and where it returns to, or null for a token that is no session's. */
export function findCustomerSessionExpiry(db: Client, tokenHash: string, now: Date) {
  return db.customerSession.findFirst({
    where: { tokenHash, expiresAt: { gt: now } },
    select: { expiresAt: true, returnUrl: true },
  });
}

export function insertSignInCode(db: Client, data: Prisma.CustomerSignInCodeUncheckedCreateInput) {
  return db.customerSignInCode.create({ data });
}

/** The customer's newest code still usable: unused, not expired, not tried too often. */
export function findUsableSignInCode(db: Client, customerId: string, now: Date, maxAttempts: number) {
  return db.customerSignInCode.findFirst({
    where: { customerId, usedAt: null, expiresAt: { gt: now }, attempts: { lt: maxAttempts } },
    orderBy: { createdAt: 'desc' },
  });
}

export async function countWrongSignInCode(db: Client, id: string): Promise<void> {
  await db.customerSignInCode.update({ where: { id }, data: { attempts: { increment: 1 } } });
}

export async function useSignInCode(db: Client, id: string, now: Date): Promise<boolean> {
  const { count } = await db.customerSignInCode.updateMany({
    where: { id, usedAt: null },
    data: { usedAt: now },
  });
  return count === 1;
}

export async function deleteCustomerSession(db: Client, tokenHash: string): Promise<void> {
  await db.customerSession.deleteMany({ where: { tokenHash } });
}
