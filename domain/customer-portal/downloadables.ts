// The signed-in customer's files (Polar's portal `downloadables`): the list with signed download
// links, and following a link, which needs no session (the link is the permission).

import type { Prisma } from '../../generated/prisma/client.js';
import type { CustomerCaller } from '../customer-sessions/rules.js';
import { countDownload, findGrantedDownloadable, listDownloadableRows } from '../downloadables/repository.js';
import { DOWNLOAD_LINK_TTL_MS, signDownloadToken, verifyDownloadToken } from '../downloadables/rules.js';
import { fileView } from '../files/views.js';
import { AppError } from '../platform/errors.js';
import { pageToSkipTake, paginated } from '../platform/rules.js';
import type { PortalContext } from './context.js';
import { downloadableSchema, type Downloadable, type DownloadableListQuery } from './schemas.js';

export async function listPortalDownloadables(
  ctx: PortalContext,
  customer: CustomerCaller,
  query: DownloadableListQuery,
) {
  const where: Prisma.DownloadableWhereInput = {
    organizationId: customer.organizationId,
    customerId: customer.customerId,
    ...(query.benefit_id ? { benefitId: { in: query.benefit_id } } : {}),
  };
  const [rows, total] = await listDownloadableRows(ctx.db, where, pageToSkipTake(query));
  const secret = await ctx.linkSecret();
  const expiresAtMs = Date.now() + DOWNLOAD_LINK_TTL_MS;
  const items = rows.map((row): Downloadable =>
    downloadableSchema.parse({
      id: row.id,
      benefit_id: row.benefitId,
      file: {
        ...fileView(row.file, ctx.publicUrl),
        download: {
          url: `${ctx.publicUrl}/v1/customer-portal/downloadables/${signDownloadToken(secret, row.id, expiresAtMs)}`,
          expires_at: new Date(expiresAtMs).toISOString(),
        },
      },
    }),
  );
  return paginated(items, total, query);
}

/**
 * A download link followed: where the file's bytes are (a short-lived storage URL). The link is
 * the permission, so no session is asked for; a tampered link is not found, an old one is gone.
 */
export async function followDownloadLink(ctx: PortalContext, token: string): Promise<string> {
  const check = verifyDownloadToken(await ctx.linkSecret(), token, Date.now());
  if (check.outcome === 'malformed') throw new AppError('BadRequest', 'This is not a download link.');
  if (check.outcome === 'forged') throw new AppError('ResourceNotFound', 'Download not found.');
  if (check.outcome !== 'valid') {
    throw new AppError(
      'ResourceUnavailable',
      'This download link has expired: open your downloads again for a new one.',
    );
  }
  const row = await findGrantedDownloadable(ctx.db, check.downloadableId);
  if (!row) throw new AppError('ResourceNotFound', 'Download not found.');
  await countDownload(ctx.db, row.id);
  return ctx.storage.downloadUrl({
    path: row.file.path,
    filename: row.file.name,
    mimeType: row.file.mimeType,
    expiresInMs: DOWNLOAD_LINK_TTL_MS,
  });
}
