import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';

const live = { deletedAt: null };

export function findLiveBenefit(db: Db, id: string) {
  return db.benefit.findFirst({ where: { id, ...live } });
}

/** Any benefit, deleted or not; a missing one throws (a grant's benefit is never removed). */
export function findBenefitOrThrow(db: Db | Prisma.TransactionClient, id: string) {
  return db.benefit.findUniqueOrThrow({ where: { id } });
}

export function listLiveBenefits(
  db: Db,
  where: Prisma.BenefitWhereInput,
  orderBy: Prisma.BenefitOrderByWithRelationInput[],
  page: { skip: number; take: number },
) {
  const filter = { ...where, ...live };
  return db.$transaction([
    db.benefit.findMany({ where: filter, orderBy, ...page }),
    db.benefit.count({ where: filter }),
  ]);
}

/** Which of these benefits of the organization a product may offer (live and selectable). */
export async function findSelectableBenefitIds(
  db: Db,
  organizationId: string,
  ids: string[],
): Promise<string[]> {
  const rows = await db.benefit.findMany({
    where: { id: { in: ids }, organizationId, deletedAt: null, selectable: true },
    select: { id: true },
  });
  return rows.map(({ id }) => id);
}

export function insertBenefit(tx: Prisma.TransactionClient, data: Prisma.BenefitUncheckedCreateInput) {
  return tx.benefit.create({ data });
}

export function updateBenefitRow(tx: Prisma.TransactionClient, id: string, data: Prisma.BenefitUpdateInput) {
  return tx.benefit.update({ where: { id }, data });
}

export type BenefitRow = NonNullable<Awaited<ReturnType<typeof findLiveBenefit>>>;

/** What the start of a benefit's grant workflows tells operators (temporal/entity-directory.ts). */
export function findBenefitForOperators(db: Db, id: string) {
  return db.benefit.findUnique({
    where: { id },
    select: { organizationId: true, organization: { select: { name: true } }, description: true, type: true },
  });
}

// A benefit's edit reaches the grants of it in the edit's transaction: they are asked to follow it,
// and their customers are marked for the grant dispatcher (docs/benefits.md).

/** Every customer holding a grant of this benefit (it was edited or deleted). */
export async function markBenefitHoldersStale(
  tx: Db | Prisma.TransactionClient,
  benefitId: string,
): Promise<void> {
  await tx.$executeRaw`INSERT INTO benefit_grant_syncs (customer_id)
    SELECT DISTINCT customer_id FROM benefit_grants WHERE benefit_id = ${benefitId}::uuid`;
}

/** The benefit changed: its granted grants follow it, and their customers are looked at. */
export async function requestGrantUpdates(
  tx: Db | Prisma.TransactionClient,
  benefitId: string,
): Promise<void> {
  await tx.$executeRaw`UPDATE benefit_grants SET update_requested = true, modified_at = now()
    WHERE benefit_id = ${benefitId}::uuid AND desired = 'granted'`;
  await markBenefitHoldersStale(tx, benefitId);
}
