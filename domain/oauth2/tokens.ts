// The token endpoint's grants (authorization code with PKCE, refresh token with rotation, Polar's
// web grant), revocation (RFC 7009) and introspection (RFC 7662).
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../../infra/db.js';
import { grantableOrganizations } from './authorization.js';
import {
  authenticateClient,
  invalidClient,
  newSecret,
  type ClientCredentials,
  type OAuthServer,
} from './credentials.js';
import {
  claimAuthorizationCode,
  claimRefreshToken,
  findAuthorizationCodeByHash,
  findTokenByAccessHash,
  findTokenByRefreshHash,
  findUserSessionByToken,
  insertToken,
  revokeAccessToken,
  revokeFamily,
  revokeTokensOfAuthorizationCode,
  type ClientRow,
  type TokenRow,
} from './repository.js';
import {
  ACCESS_TOKEN_LIFETIME_SECONDS,
  ACCESS_TOKEN_PREFIXES,
  OAuthError,
  REFRESH_TOKEN_LIFETIME_SECONDS,
  REFRESH_TOKEN_PREFIXES,
  WEB_GRANT_TYPE,
  hashSecret,
  isUsableSession,
  requestedScopes,
  splitScopes,
  verifiesCodeChallenge,
} from './rules.js';
import { SUB_TYPES, type SubType, type TokenActionRequest, type TokenRequest } from './schemas.js';

const invalidGrant = (description: string) => new OAuthError('invalid_grant', description);
const invalidRequest = (description: string) => new OAuthError('invalid_request', description);

async function issueTokens(
  db: Db,
  client: ClientRow,
  grant: {
    familyId: string;
    authorizationCodeId: string | null;
    subType: SubType;
    userId: string;
    organizationId: string | null;
    scopes: string[];
  },
  now: Date,
  { withRefreshToken = client.grantTypes.includes('refresh_token') } = {},
) {
  const accessToken = newSecret(ACCESS_TOKEN_PREFIXES[grant.subType]);
  const refreshToken = withRefreshToken ? newSecret(REFRESH_TOKEN_PREFIXES[grant.subType]) : null;
  await insertToken(db, {
    ...grant,
    clientId: client.id,
    accessTokenHash: hashSecret(accessToken),
    refreshTokenHash: refreshToken ? hashSecret(refreshToken) : null,
    accessExpiresAt: new Date(now.getTime() + ACCESS_TOKEN_LIFETIME_SECONDS * 1000),
    refreshExpiresAt: refreshToken ? new Date(now.getTime() + REFRESH_TOKEN_LIFETIME_SECONDS * 1000) : null,
  });
  return {
    access_token: accessToken,
    token_type: 'Bearer' as const,
    expires_in: ACCESS_TOKEN_LIFETIME_SECONDS,
    refresh_token: refreshToken,
    scope: grant.scopes.join(' '),
    id_token: null,
  };
}

async function exchangeAuthorizationCode(db: Db, client: ClientRow, body: TokenRequest, now: Date) {
  if (!body.code) throw invalidRequest('code is required.');
  if (!body.redirect_uri) throw invalidRequest('redirect_uri is required.');
  const code = await findAuthorizationCodeByHash(db, hashSecret(body.code));
  // Another client's code is as unknown to this one as a made-up code.
  if (!code || code.clientId !== client.id) throw invalidGrant('The authorization code is invalid.');
  if (code.usedAt) {
    // RFC 6749 §4.1.2: a code used twice may have been stolen; what it gave is taken back.
    await revokeTokensOfAuthorizationCode(db, code.id, now);
    throw invalidGrant('The authorization code was already used; the tokens it gave are revoked.');
  }
  if (code.expiresAt <= now) throw invalidGrant('The authorization code has expired.');
  if (code.redirectUri !== body.redirect_uri) {
    throw invalidGrant('redirect_uri is not the one of the authorization request.');
  }
  if (code.codeChallenge && code.codeChallengeMethod) {
    const challenge = { value: code.codeChallenge, method: code.codeChallengeMethod };
    if (!verifiesCodeChallenge(challenge, body.code_verifier)) {
      throw invalidGrant('The code_verifier does not match the code_challenge (PKCE).');
    }
  } else if (body.code_verifier !== undefined) {
    throw invalidRequest('code_verifier was sent for a code requested without PKCE.');
  }
  if (!(await claimAuthorizationCode(db, code.id, now))) {
    await revokeTokensOfAuthorizationCode(db, code.id, now);
    throw invalidGrant('The authorization code was already used; the tokens it gave are revoked.');
  }
  return issueTokens(
    db,
    client,
    {
      familyId: randomUUID(),
      authorizationCodeId: code.id,
      subType: code.subType as SubType,
      userId: code.userId,
      organizationId: code.organizationId,
      scopes: code.scopes,
    },
    now,
  );
}

async function exchangeRefreshToken(db: Db, client: ClientRow, body: TokenRequest, now: Date) {
  if (!client.grantTypes.includes('refresh_token')) {
    throw new OAuthError('unauthorized_client', 'The app is not registered for the refresh_token grant.');
  }
  if (!body.refresh_token) throw invalidRequest('refresh_token is required.');
  const token = await findTokenByRefreshHash(db, hashSecret(body.refresh_token));
  if (!token || token.clientId !== client.id) throw invalidGrant('The refresh token is invalid.');
  const reused = async () => {
    // OAuth 2.1 §4.3.1: a rotated refresh token used again means two parties hold it; the whole
    // authorization is revoked, the legitimate client signs the user in again.
    await revokeFamily(db, token.familyId, now);
    return invalidGrant('The refresh token was already used; its authorization is revoked.');
  };
  if (token.refreshRevokedAt) throw await reused();
  if (token.refreshExpiresAt && token.refreshExpiresAt <= now)
    throw invalidGrant('The refresh token has expired.');
  let scopes = token.scopes;
  if (body.scope !== undefined) {
    // §6: a refresh may narrow the scopes, never widen them.
    const asked = splitScopes(body.scope);
    const extra = asked.filter((scope) => !token.scopes.includes(scope));
    if (extra.length > 0 || asked.length === 0) {
      throw new OAuthError('invalid_scope', `Not granted: ${extra.join(' ') || '(no scope)'}.`);
    }
    scopes = asked;
  }
  if (!(await claimRefreshToken(db, token.id, now))) throw await reused();
  return issueTokens(
    db,
    client,
    {
      familyId: token.familyId,
      authorizationCodeId: token.authorizationCodeId,
      subType: token.subType as SubType,
      userId: token.userId,
      organizationId: token.organizationId,
      scopes,
    },
    now,
  );
}

/**
 * Polar's `grant_type=web`: an app the operator trusts exchanges a user's web session (the token of
 * a Better Auth session of `/api/auth`) for a token acting as that user, or for an organization
 * the user owns or administers. As Polar: confidential clients only, no refresh token (the app asks
 * again with the session), and an expired or ended session or an organization the user does not
 * manage is `invalid_grant`. Unlike Polar, the scopes must be the client's (Polar checks only that
 * they exist), as for the other grants.
 */
async function exchangeWebSession(
  db: Db,
  client: ClientRow,
  credentials: ClientCredentials,
  body: TokenRequest,
  now: Date,
) {
  if (client.clientSecretHash === null) throw invalidClient(credentials);
  if (!client.grantTypes.includes(WEB_GRANT_TYPE)) {
    throw new OAuthError(
      'unauthorized_client',
      "The app is not allowed the web grant; the server's operator allows it for an app.",
    );
  }
  if (!body.session_token) throw invalidRequest('session_token is required.');
  const subType = body.sub_type ?? 'user';
  if (!(SUB_TYPES as readonly string[]).includes(subType)) {
    throw invalidRequest('sub_type must be user or organization.');
  }
  if (subType === 'user' && body.sub !== undefined) {
    throw invalidRequest("sub is not taken for sub_type=user: the token acts as the session's user.");
  }
  if (subType === 'organization' && !z.uuid().safeParse(body.sub).success) {
    throw invalidRequest("sub must be the organization's id (a UUID) for sub_type=organization.");
  }
  const scopes = requestedScopes(body.scope, client.scopes);
  const session = await findUserSessionByToken(db, body.session_token);
  if (!session || !isUsableSession(session, now)) {
    throw invalidGrant('The session token is invalid, expired or signed out.');
  }
  let organizationId: string | null = null;
  if (subType === 'organization') {
    const managed = await grantableOrganizations(db, session.userId, 'organization');
    if (!managed.some((organization) => organization.id === body.sub)) {
      throw invalidGrant("The session's user does not own or administer this organization.");
    }
    organizationId = body.sub!;
  }
  return issueTokens(
    db,
    client,
    {
      familyId: randomUUID(),
      authorizationCodeId: null,
      subType: subType as SubType,
      userId: session.userId,
      organizationId,
      scopes,
    },
    now,
    { withRefreshToken: false },
  );
}

/** RFC 6749 §3.2: the token endpoint. */
export async function requestToken(
  db: Db,
  credentials: ClientCredentials,
  body: TokenRequest,
  now = new Date(),
) {
  if (!body.grant_type) throw invalidRequest('grant_type is required.');
  const client = await authenticateClient(db, credentials);
  if (body.grant_type === 'authorization_code') return exchangeAuthorizationCode(db, client, body, now);
  if (body.grant_type === 'refresh_token') return exchangeRefreshToken(db, client, body, now);
  if (body.grant_type === WEB_GRANT_TYPE) return exchangeWebSession(db, client, credentials, body, now);
  throw new OAuthError('unsupported_grant_type', `grant_type ${body.grant_type} is not supported.`);
}

async function findTokenOfClient(db: Db, client: ClientRow, body: TokenActionRequest) {
  if (!body.token) throw invalidRequest('token is required.');
  const hash = hashSecret(body.token);
  const byAccess = async () => {
    const row = await findTokenByAccessHash(db, hash);
    return row ? { row, type: 'access_token' as const } : null;
  };
  const byRefresh = async () => {
    const row = await findTokenByRefreshHash(db, hash);
    return row ? { row, type: 'refresh_token' as const } : null;
  };
  // The hint only orders the lookups (RFC 7009 §2.1).
  const found =
    body.token_type_hint === 'refresh_token'
      ? ((await byRefresh()) ?? (await byAccess()))
      : ((await byAccess()) ?? (await byRefresh()));
  return found && found.row.clientId === client.id ? found : null;
}

/**
 * RFC 7009: revoking a refresh token ends its whole authorization; an access token only itself.
 * An unknown token, or another client's, answers the same 200 and changes nothing (§2.2).
 */
export async function revokeToken(
  db: Db,
  credentials: ClientCredentials,
  body: TokenActionRequest,
  now = new Date(),
) {
  const client = await authenticateClient(db, credentials);
  const found = await findTokenOfClient(db, client, body);
  if (found?.type === 'refresh_token') await revokeFamily(db, found.row.familyId, now);
  else if (found) await revokeAccessToken(db, found.row.id, now);
  return {};
}

function isActive(found: { row: TokenRow; type: 'access_token' | 'refresh_token' }, now: Date) {
  if (found.type === 'access_token') return !found.row.accessRevokedAt && found.row.accessExpiresAt > now;
  return (
    !found.row.refreshRevokedAt && (found.row.refreshExpiresAt === null || found.row.refreshExpiresAt > now)
  );
}

/** RFC 7662: what a token of the asking client is; anything else is only `active: false`. */
export async function introspectToken(
  db: Db,
  server: OAuthServer,
  credentials: ClientCredentials,
  body: TokenActionRequest,
  now = new Date(),
) {
  const client = await authenticateClient(db, credentials);
  const found = await findTokenOfClient(db, client, body);
  if (!found || !isActive(found, now)) return { active: false as const };
  const expiresAt = found.type === 'access_token' ? found.row.accessExpiresAt : found.row.refreshExpiresAt;
  return {
    active: true as const,
    client_id: client.clientId,
    token_type: found.type,
    scope: found.row.scopes.join(' '),
    sub_type: found.row.subType as SubType,
    sub: found.row.subType === 'organization' ? found.row.organizationId! : found.row.userId,
    aud: client.clientId,
    iss: server.baseUrl,
    exp: Math.floor((expiresAt ?? found.row.accessExpiresAt).getTime() / 1000),
    iat: Math.floor(found.row.createdAt.getTime() / 1000),
  };
}
