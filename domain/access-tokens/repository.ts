import type { Db } from '../../infra/db.js';

export type UsableTokenRecord = {
  id: string;
  organizationId: string;
  createdById: string | null;
  scopes: string[];
  expiresAt: Date | null;
  lastUsedAt: Date | null;
};

/**
 * Read by every request made with a token: plain SQL, as Prisma's query compiler costs more CPU
 * than the lookup itself (docs/architecture.md, "plain SQL").
 */
export async function findAccessTokenByHash(db: Db, tokenHash: string): Promise<UsableTokenRecord | null> {
  const { rows } = await db.sql.query<UsableTokenRecord>(
    `SELECT id, organization_id AS "organizationId", created_by_id AS "createdById", scopes,
            expires_at AS "expiresAt", last_used_at AS "lastUsedAt"
     FROM organization_access_tokens WHERE token_hash = $1`,
    [tokenHash],
  );
  return rows[0] ?? null;
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

export async function recordAccessTokenUse(db: Db, id: string, now: Date): Promise<void> {
  await db.sql.query('UPDATE organization_access_tokens SET last_used_at = $2 WHERE id = $1::uuid', [
    id,
    now,
  ]);
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

/** A changed scope list notifies every API process (the table's trigger), so none keeps the old one. */
export function updateAccessToken(
  db: Db,
  id: string,
  data: { comment?: string; scopes?: string[]; modifiedAt: Date },
) {
  return db.organizationAccessToken.update({ where: { id }, data });
}

export function deleteAccessToken(db: Db, id: string) {
  return db.organizationAccessToken.delete({ where: { id } });
}

export type AccessTokenRow = NonNullable<Awaited<ReturnType<typeof findAccessTokenById>>>;
