import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';

type Client = Db | Prisma.TransactionClient;

export function findCustomField(db: Client, id: string, organizationIds: string[]) {
  return db.customField.findFirst({ where: { id, organizationId: { in: organizationIds } } });
}

export function findCustomFieldBySlug(db: Client, organizationId: string, slug: string) {
  return db.customField.findUnique({ where: { organizationId_slug: { organizationId, slug } } });
}

export function listCustomFields(
  db: Db,
  where: Prisma.CustomFieldWhereInput & { organizationId: { in: string[] } },
  orderBy: Prisma.CustomFieldOrderByWithRelationInput[],
  page: { skip: number; take: number },
) {
  return db.$transaction([
    db.customField.findMany({ where, orderBy, ...page }),
    db.customField.count({ where }),
  ]);
}

export function insertCustomField(db: Client, data: Prisma.CustomFieldUncheckedCreateInput) {
  return db.customField.create({ data });
}

export function updateCustomField(
  db: Client,
  id: string,
  organizationId: string,
  data: Prisma.CustomFieldUpdateInput,
) {
  return db.customField.update({ where: { id, organizationId }, data });
}

export function deleteCustomField(db: Client, id: string, organizationId: string) {
  return db.customField.delete({ where: { id, organizationId } });
}

/** Fields of one organization among `ids`, for products that attach them. */
export function findCustomFieldsOfOrganization(db: Client, organizationId: string, ids: string[]) {
  return db.customField.findMany({ where: { organizationId, id: { in: ids } }, select: { id: true } });
}

export type CustomFieldRow = NonNullable<Awaited<ReturnType<typeof findCustomField>>>;
