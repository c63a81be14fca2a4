// What an OAuth access token is on `/v1` (RFC 6750 bearer), and OpenID Connect's userinfo.
import type { Db } from '../../infra/db.js';
import type { Caller } from '../access/rules.js';
import { findOrganizationIdentity, findUsableAccessToken, findUserIdentity } from './repository.js';
import { OAuthError, hashSecret, looksLikeOAuthAccessToken } from './rules.js';

/**
 * The `/v1` caller of an OAuth access token: an organization-subject token acts for its
 * organization as an organization access token does; a user-subject token acts as the user, with
 * their role in each of their organizations. Both are bounded by the scopes granted.
 */
export async function authenticateOAuthAccessToken(
  db: Db,
  token: string,
  now = new Date(),
): Promise<Caller | null> {
  if (!looksLikeOAuthAccessToken(token)) return null;
  const row = await findUsableAccessToken(db, hashSecret(token), now);
  if (!row) return null;
  const oauth = { tokenId: row.id, clientId: row.clientId, scopes: row.scopes };
  if (row.subType === 'organization' && row.organizationId) {
    return {
      kind: 'organization_access_token',
      tokenId: row.id,
      organizationId: row.organizationId,
      createdById: row.userId,
      scopes: row.scopes,
      oauth,
    };
  }
  return { kind: 'user_session', userId: row.userId, sessionId: null, oauth };
}

/** OpenID Connect Core §5.3 claims, by scope, as Polar answers them. */
export async function userInfo(db: Db, token: string | undefined) {
  const caller = token ? await authenticateOAuthAccessToken(db, token) : null;
  if (!caller?.oauth) {
    throw new OAuthError('invalid_token', 'The access token is invalid, expired or revoked.', 401, {
      'WWW-Authenticate': 'Bearer error="invalid_token"',
    });
  }
  const scopes = caller.oauth.scopes;
  if (caller.kind === 'organization_access_token') {
    const organization = await findOrganizationIdentity(db, caller.organizationId);
    return {
      sub: caller.organizationId,
      ...(organization && scopes.includes('openid') ? { name: organization.slug } : {}),
    };
  }
  const user = await findUserIdentity(db, caller.userId);
  return {
    sub: caller.userId,
    ...(user && scopes.includes('profile') ? { name: user.name } : {}),
    ...(user && scopes.includes('email') ? { email: user.email, email_verified: user.emailVerified } : {}),
  };
}
