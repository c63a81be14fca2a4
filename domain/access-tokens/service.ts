import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../infra/db.js';
import type { Caller } from '../access/rules.js';
import { findAccessTokenByHash, insertAccessToken, recordAccessTokenUse } from './repository.js';
import { ACCESS_TOKEN_PREFIX, isTokenUsable, looksLikeAccessToken, shouldRecordUse } from './rules.js';

type TokenCaller = Extract<Caller, { kind: 'organization_access_token' }>;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Creates a token and returns it in clear text: the only time it is ever shown. */
export async function issueAccessToken(
  db: Db,
  input: {
    organizationId: string;
    createdById: string | null;
    comment: string;
    scopes?: string[];
    expiresAt?: Date | null;
  },
) {
  const token = `${ACCESS_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const record = await insertAccessToken(db, {
    organizationId: input.organizationId,
    createdById: input.createdById,
    comment: input.comment,
    tokenHash: hashToken(token),
    scopes: input.scopes ?? [],
    expiresAt: input.expiresAt ?? null,
  });
  return { token, record };
}

export async function authenticateAccessToken(
  db: Db,
  token: string,
  now = new Date(),
): Promise<TokenCaller | null> {
  if (!looksLikeAccessToken(token)) return null;
  const record = await findAccessTokenByHash(db, hashToken(token));
  if (!record || !isTokenUsable(record, now)) return null;
  if (shouldRecordUse(record.lastUsedAt, now)) await recordAccessTokenUse(db, record.id, now);
  return {
    kind: 'organization_access_token',
    tokenId: record.id,
    organizationId: record.organizationId,
    createdById: record.createdById,
    scopes: record.scopes,
  };
}
