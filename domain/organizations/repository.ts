import type { Db, SqlClient } from '../../infra/db.js';
import { selectList } from '../../infra/sql.js';
import { Prisma, type Organization } from '../../generated/prisma/client.js';

const ORGANIZATION_COLUMNS = selectList(Prisma.OrganizationScalarFieldEnum, 'o');

/** Plain SQL: every token-authenticated read of the organization goes through here. */
export async function findOrganizationById(sql: SqlClient, id: string): Promise<Organization | null> {
  const { rows } = await sql.query<Organization>(
    `SELECT ${ORGANIZATION_COLUMNS} FROM organizations o WHERE o.id = $1::uuid`,
    [id],
  );
  return rows[0] ?? null;
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

/** `dispute_settings` and our `revoke_benefits`, read when a dispute opens. */
export function findDisputeSettings(db: Db | Prisma.TransactionClient, id: string) {
  return db.organization.findUnique({
    where: { id },
    select: { disputeAutoAcceptBelowAmount: true, disputeRevokeBenefits: true },
  });
}

export function updateOrganizationProfile(
  tx: Db | Prisma.TransactionClient,
  id: string,
  data: Prisma.OrganizationUpdateInput,
) {
  return tx.organization.update({ where: { id }, data });
}

export type OrganizationRow = Organization;
