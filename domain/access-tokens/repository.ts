import type { Db } from '../../infra/db.js';

export function findAccessTokenByHash(db: Db, tokenHash: string) {
  return db.organizationAccessToken.findUnique({
    where: { tokenHash },
    select: { id: true, organizationId: true, scopes: true, expiresAt: true, lastUsedAt: true },
  });
}

export function insertAccessToken(
  db: Db,
  data: {
    organizationId: string;
    comment: string;
    tokenHash: string;
    scopes: string[];
    expiresAt: Date | null;
  },
) {
  return db.organizationAccessToken.create({ data });
}

export function recordAccessTokenUse(db: Db, id: string, now: Date) {
  return db.organizationAccessToken.update({ where: { id }, data: { lastUsedAt: now } });
}
