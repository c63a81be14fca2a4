import type { Db, SqlClient } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';

type Holder = { organizationId: string; customerId: string; benefitId: string };

/**
 * Gives the customer these files of the benefit (granted again if they had been revoked) and takes
 * back the benefit's other files they held. Answers the files they hold now.
 */
export async function setGrantedFiles(sql: SqlClient, holder: Holder, fileIds: string[]): Promise<string[]> {
  await sql.query(
    `INSERT INTO downloadables (organization_id, customer_id, benefit_id, file_id, status)
     SELECT $1::uuid, $2::uuid, $3::uuid, unnest($4::uuid[]), 'granted'
     ON CONFLICT (customer_id, benefit_id, file_id)
     DO UPDATE SET status = 'granted', modified_at = now() WHERE downloadables.status <> 'granted'`,
    [holder.organizationId, holder.customerId, holder.benefitId, fileIds],
  );
  await sql.query(
    `UPDATE downloadables SET status = 'revoked', modified_at = now()
     WHERE customer_id = $1::uuid AND benefit_id = $2::uuid AND status = 'granted' AND NOT (file_id = ANY($3::uuid[]))`,
    [holder.customerId, holder.benefitId, fileIds],
  );
  return fileIds;
}

/** The files of the benefit the customer holds now (an archived file they had stays theirs). */
export async function grantedFileIds(sql: SqlClient, holder: Holder): Promise<string[]> {
  const { rows } = await sql.query<{ fileId: string }>(
    `SELECT file_id AS "fileId" FROM downloadables
     WHERE customer_id = $1::uuid AND benefit_id = $2::uuid AND status = 'granted' ORDER BY created_at, file_id`,
    [holder.customerId, holder.benefitId],
  );
  return rows.map((row) => row.fileId);
}

export async function revokeAllFiles(sql: SqlClient, holder: Holder): Promise<void> {
  await sql.query(
    `UPDATE downloadables SET status = 'revoked', modified_at = now()
     WHERE customer_id = $1::uuid AND benefit_id = $2::uuid AND status = 'granted'`,
    [holder.customerId, holder.benefitId],
  );
}

/** The files a customer may download now: granted, uploaded, of benefits that still exist. */
export function listDownloadableRows(
  db: Db,
  where: Prisma.DownloadableWhereInput,
  page: { skip: number; take: number },
) {
  const filter: Prisma.DownloadableWhereInput = {
    ...where,
    status: 'granted',
    file: { isUploaded: true },
    benefit: { deletedAt: null },
  };
  return db.$transaction([
    db.downloadable.findMany({
      where: filter,
      include: { file: true },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      ...page,
    }),
    db.downloadable.count({ where: filter }),
  ]);
}

export function findGrantedDownloadable(db: Db, id: string) {
  return db.downloadable.findFirst({
    where: { id, status: 'granted', file: { isUploaded: true }, benefit: { deletedAt: null } },
    include: { file: true },
  });
}

export async function countDownload(db: Db, id: string): Promise<void> {
  await db.downloadable.update({
    where: { id },
    data: { downloads: { increment: 1 }, lastDownloadedAt: new Date(), modifiedAt: new Date() },
  });
}

/** Per file of the benefit: how often it was downloaded, and by how many customers. */
export async function downloadStatsOfBenefit(
  db: Db,
  benefitId: string,
): Promise<Map<string, { downloads: number; downloaders: number }>> {
  const rows = await db.downloadable.groupBy({
    by: ['fileId'],
    where: { benefitId, downloads: { gt: 0 } },
    _sum: { downloads: true },
    _count: { customerId: true },
  });
  return new Map(
    rows.map((row) => [
      row.fileId,
      { downloads: row._sum.downloads ?? 0, downloaders: row._count.customerId },
    ]),
  );
}
