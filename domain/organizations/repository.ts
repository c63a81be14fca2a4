import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';

export function findOrganizationById(db: Db | Prisma.TransactionClient, id: string) {
  return db.organization.findUnique({ where: { id } });
}

export function findOrganizationBySlug(db: Db, slug: string) {
  return db.organization.findUnique({ where: { slug }, select: { id: true } });
}

export function listOrganizations(
  db: Db,
  filter: { ids: string[]; slug?: string },
  order: Prisma.OrganizationOrderByWithRelationInput[],
  page: { skip: number; take: number },
) {
  const where: Prisma.OrganizationWhereInput = {
    id: { in: filter.ids },
    ...(filter.slug ? { slug: filter.slug } : {}),
  };
  return db.$transaction([
    db.organization.findMany({ where, orderBy: order, ...page }),
    db.organization.count({ where }),
  ]);
}

export function updateOrganizationRow(
  db: Db | Prisma.TransactionClient,
  args: Prisma.OrganizationUpdateArgs,
) {
  return db.organization.update(args);
}

export function updateOrganizationProfile(
  tx: Db | Prisma.TransactionClient,
  id: string,
  data: Prisma.OrganizationUpdateInput,
) {
  return tx.organization.update({ where: { id }, data });
}

export type OrganizationRow = NonNullable<Awaited<ReturnType<typeof findOrganizationById>>>;
