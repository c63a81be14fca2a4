import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../infra/db.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import { organizationAccess, organizationsWithRole } from '../access/service.js';
import { pageToSkipTake, paginated } from '../platform/rules.js';
import type { PageQuery } from '../platform/schemas.js';
import {
  deleteAccessToken,
  updateAccessToken,
  findAccessTokenByHash,
  findAccessTokenById,
  insertAccessToken,
  listAccessTokens,
  recordAccessTokenUse,
} from './repository.js';
import { ACCESS_TOKEN_PREFIX, isTokenUsable, looksLikeAccessToken, shouldRecordUse } from './rules.js';
import type { AccessTokenCreate, AccessTokenUpdate } from './schemas.js';
import type { AccessTokenCache } from './cache.js';
import { AppError } from '../platform/errors.js';
import { accessTokenView } from './views.js';

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
  options: { cache?: AccessTokenCache; now?: Date } = {},
): Promise<TokenCaller | null> {
  if (!looksLikeAccessToken(token)) return null;
  const now = options.now ?? new Date();
  const tokenHash = hashToken(token);
  const load = () => findAccessTokenByHash(db, tokenHash);
  const record = options.cache ? await options.cache.lookup(tokenHash, load) : await load();
  // Expiry is checked at every request, cached or not.
  if (!record || !isTokenUsable(record, now)) return null;
  if (shouldRecordUse(record.lastUsedAt, now)) {
    await recordAccessTokenUse(db, record.id, now);
    options.cache?.recordedUse(tokenHash, now);
  }
  return {
    kind: 'organization_access_token',
    tokenId: record.id,
    organizationId: record.organizationId,
    createdById: record.createdById,
    scopes: record.scopes,
  };
}

/** Managing API access is for a person signed in to the dashboard, never for a token. */
function requireSessionUser(caller: Caller): string {
  if (caller.kind !== 'user_session') {
    throw new AppError(
      'NotPermitted',
      'Access tokens are managed from a signed-in session, not with a token.',
    );
  }
  return caller.userId;
}

export async function createAccessTokenForCaller(
  db: Db,
  caller: Caller,
  input: AccessTokenCreate,
  now = new Date(),
) {
  const userId = requireSessionUser(caller);
  const access = await organizationAccess(db, caller, input.organization_id, ORGANIZATION_MANAGERS);
  if (access === 'none') throw new AppError('ResourceNotFound', 'Organization not found');
  if (access === 'read')
    throw new AppError('NotPermitted', 'Only owners and admins can create access tokens.');
  const { token, record } = await issueAccessToken(db, {
    organizationId: input.organization_id,
    createdById: userId,
    comment: input.comment,
    scopes: input.scopes,
    expiresAt: input.expires_in ? new Date(now.getTime() + input.expires_in * 1000) : null,
  });
  return { organization_access_token: accessTokenView(record), token };
}

export async function listAccessTokensForCaller(
  db: Db,
  caller: Caller,
  query: PageQuery & { organization_id?: string },
) {
  const userId = requireSessionUser(caller);
  const managed = await organizationsWithRole(db, userId, ORGANIZATION_MANAGERS);
  const organizationIds = query.organization_id
    ? managed.filter((id) => id === query.organization_id)
    : managed;
  const [rows, total] = await listAccessTokens(db, { organizationIds }, pageToSkipTake(query));
  return paginated(rows.map(accessTokenView), total, query);
}

/** A token the signed-in caller manages; another organization's is not found. */
async function findManagedToken(db: Db, caller: Caller, id: string, doing: 'change' | 'revoke') {
  requireSessionUser(caller);
  const row = await findAccessTokenById(db, id);
  const access = row
    ? await organizationAccess(db, caller, row.organizationId, ORGANIZATION_MANAGERS)
    : 'none';
  if (!row || access === 'none') throw new AppError('ResourceNotFound', 'Access token not found');
  if (access === 'read')
    throw new AppError('NotPermitted', `Only owners and admins can ${doing} access tokens.`);
  return row;
}

/** A new comment or scope list; a request already authenticated with the old scopes finishes with them. */
export async function updateAccessTokenForCaller(
  db: Db,
  caller: Caller,
  id: string,
  input: AccessTokenUpdate,
) {
  await findManagedToken(db, caller, id, 'change');
  const updated = await updateAccessToken(db, id, {
    modifiedAt: new Date(),
    ...(input.comment ? { comment: input.comment } : {}),
    ...(input.scopes ? { scopes: input.scopes } : {}),
  });
  return accessTokenView(updated);
}

/** Revokes a token at once: it is deleted, so the next request with it is a 401. */
export async function deleteAccessTokenForCaller(db: Db, caller: Caller, id: string) {
  await findManagedToken(db, caller, id, 'revoke');
  await deleteAccessToken(db, id);
}
