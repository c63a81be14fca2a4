import type { Db } from '../../infra/db.js';

export function findAccessTokenByHash(db: Db, tokenHash: string) {
  return db.organizationAccessToken.findUnique({
    where: { tokenHash },
    select: {
      id: true,
      organizationId: true,
      createdById: true,
      scopes: true,
      expiresAt: true,
      lastUsedAt: true,
    },
  });
}

export function insertAccessToken(
  db: Db,
  data: {
    organizationId: string;
    createdById: string | null;
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

export function listAccessTokens(
  db: Db,
  where: { organizationIds: string[] },
  page: { skip: number; take: number },
) {
  const filter = { organizationId: { in: where.organizationIds } };
  return db.$transaction([
    db.organizationAccessToken.findMany({ where: filter, orderBy: { createdAt: 'desc' }, ...page }),
    db.organizationAccessToken.count({ where: filter }),
  ]);
}

export function findAccessTokenById(db: Db, id: string) {
  return db.organizationAccessToken.findUnique({ where: { id } });
}

export function deleteAccessToken(db: Db, id: string) {
  return db.organizationAccessToken.delete({ where: { id } });
}

export type AccessTokenRow = NonNullable<Awaited<ReturnType<typeof findAccessTokenById>>>;
