import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';

const live = { deletedAt: null };

export function findLiveBenefit(db: Db, id: string) {
  return db.benefit.findFirst({ where: { id, ...live } });
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

/** The grants a customer holds now: granted and not revoked, of benefits that still exist. */
export function activeGrantsOf(db: Db | Prisma.TransactionClient, customerId: string) {
  return db.benefitGrant.findMany({
    where: { customerId, grantedAt: { not: null }, revokedAt: null, benefit: { deletedAt: null } },
    include: { benefit: { select: { type: true } } },
    orderBy: { grantedAt: 'asc' },
  });
}

export type BenefitRow = NonNullable<Awaited<ReturnType<typeof findLiveBenefit>>>;
export type GrantRow = Awaited<ReturnType<typeof listGrants>>[0][number];
