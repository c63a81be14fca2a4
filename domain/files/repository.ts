import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';

type Client = Db | Prisma.TransactionClient;

export function findFile(db: Client, id: string, organizationIds: string[]) {
  return db.file.findFirst({ where: { id, organizationId: { in: organizationIds } } });
}

/** A file by id alone: only for public files served to anyone (product media, avatars). */
export function findFileById(db: Client, id: string) {
  return db.file.findUnique({ where: { id } });
}

export function listFiles(
  db: Db,
  where: Prisma.FileWhereInput & { organizationId: { in: string[] } },
  page: { skip: number; take: number },
) {
  return db.$transaction([
    db.file.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], ...page }),
    db.file.count({ where }),
  ]);
}

export function insertFile(db: Client, data: Prisma.FileUncheckedCreateInput) {
  return db.file.create({ data });
}

export function updateFile(db: Client, id: string, organizationId: string, data: Prisma.FileUpdateInput) {
  return db.file.update({ where: { id, organizationId }, data });
}

/** Marks a file uploaded unless another request already did; null when it lost that race. */
export async function markFileUploaded(
  db: Client,
  id: string,
  organizationId: string,
  data: Prisma.FileUpdateManyMutationInput,
) {
  const { count } = await db.file.updateMany({ where: { id, organizationId, isUploaded: false }, data });
  return count === 1 ? db.file.findUnique({ where: { id } }) : null;
}

export function deleteFile(db: Client, id: string, organizationId: string) {
  return db.file.delete({ where: { id, organizationId } });
}

/** Files of one organization among `ids`, for products that show them. */
export function findFilesOfOrganization(db: Client, organizationId: string, ids: string[]) {
  return db.file.findMany({ where: { organizationId, id: { in: ids } } });
}

export type FileRow = NonNullable<Awaited<ReturnType<typeof findFile>>>;
