// The buyers' pending email changes (table customer_email_updates): one per customer at most.
import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';

type Client = Db | Prisma.TransactionClient;

/** The customer's request, replacing the one they made before (its link stops working). */
export async function replaceEmailUpdate(
  db: Db,
  data: { organizationId: string; customerId: string; email: string; tokenHash: string; expiresAt: Date },
) {
  return db.customerEmailUpdate.upsert({
    where: { customerId: data.customerId },
    create: data,
    update: {
      email: data.email,
      tokenHash: data.tokenHash,
      expiresAt: data.expiresAt,
      createdAt: new Date(),
    },
  });
}

/** A request whose link still works, of a customer not deleted. */
export function findUsableEmailUpdate(db: Client, tokenHash: string, now: Date) {
  return db.customerEmailUpdate.findFirst({
    where: { tokenHash, expiresAt: { gt: now }, customer: { deletedAt: null } },
    include: { customer: true },
  });
}

/** Spends the request; false when another call spent it first (the link works once). */
export async function deleteEmailUpdate(db: Client, id: string, tokenHash: string): Promise<boolean> {
  const { count } = await db.customerEmailUpdate.deleteMany({ where: { id, tokenHash } });
  return count === 1;
}
