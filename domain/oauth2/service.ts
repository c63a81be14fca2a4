import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../../infra/db.js';
import { ORGANIZATION_MANAGERS, hasAnyRole, type Caller } from '../access/rules.js';
import {
  claimAuthorizationCode,
  claimRefreshToken,
  deleteClient,
  findAuthorizationCodeByHash,
  findClientByClientId,
  findOrganizationIdentity,
  findTokenByAccessHash,
  findTokenByRefreshHash,
  findUsableAccessToken,
  findUserIdentity,
  insertAuthorizationCode,
  insertClient,
  insertToken,
  listUserOrganizations,
  revokeAccessToken,
  revokeFamily,
  revokeTokensOfAuthorizationCode,
  updateClient,
  type ClientData,
  type ClientRow,
  type TokenRow,
} from './repository.js';
import {
  ACCESS_TOKEN_LIFETIME_SECONDS,
  ACCESS_TOKEN_PREFIXES,
  AUTHORIZATION_CODE_LIFETIME_SECONDS,
  AUTHORIZATION_CODE_PREFIX,
  CLIENT_ID_PREFIX,
  CLIENT_SECRET_PREFIX,
  CODE_CHALLENGE_METHODS,
  OAuthError,
  REFRESH_TOKEN_LIFETIME_SECONDS,
  REFRESH_TOKEN_PREFIXES,
  REGISTRATION_TOKEN_PREFIX,
  hashSecret,
  isKnownScope,
  isRegisteredRedirectUri,
  isValidCodeChallenge,
  looksLikeOAuthAccessToken,
  redirectUriProblem,
  redirectWith,
  requestedScopes,
  sameHash,
  splitScopes,
  verifiesCodeChallenge,
} from './rules.js';
import {
  SCOPE_DISPLAY_NAMES,
  SUB_TYPES,
  type AuthorizeQuery,
  type AuthorizeResponse,
  type ClientConfiguration,
  type ConsentBody,
  type SubType,
  type TokenActionRequest,
  type TokenRequest,
} from './schemas.js';
import { clientPublicView, clientView } from './views.js';

const newSecret = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;

/** Where the server's endpoints are, for the answers that name them. */
export type OAuthServer = { baseUrl: string };

const registrationUri = (server: OAuthServer, clientId: string) =>
  `${server.baseUrl}/v1/oauth2/register/${encodeURIComponent(clientId)}`;

/** RFC 7591 §3.2.2: metadata the server refuses is a 400 naming what is wrong. */
function clientData(input: ClientConfiguration): ClientData {
  for (const uri of input.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthError('invalid_redirect_uri', `${uri}: ${problem}`);
  }
  const scopes = splitScopes(input.scope);
  const unknown = scopes.filter((scope) => !isKnownScope(scope));
  if (unknown.length > 0) {
    throw new OAuthError('invalid_client_metadata', `Unknown scope: ${unknown.join(' ')}.`);
  }
  if (!input.grant_types.includes('authorization_code')) {
    throw new OAuthError('invalid_client_metadata', 'grant_types must include authorization_code.');
  }
  return {
    clientName: input.client_name,
    redirectUris: [...new Set(input.redirect_uris)],
    tokenEndpointAuthMethod: input.token_endpoint_auth_method,
    grantTypes: [...new Set(input.grant_types)],
    responseTypes: [...new Set(input.response_types)],
    scopes,
    clientUri: input.client_uri ?? null,
    logoUri: input.logo_uri ?? null,
    tosUri: input.tos_uri ?? null,
    policyUri: input.policy_uri ?? null,
    defaultSubType: input.default_sub_type,
  };
}

/** RFC 7591 §3: registers an app for the signed-in user; its secrets are shown this once. */
export async function registerClient(
  db: Db,
  server: OAuthServer,
  userId: string,
  input: ClientConfiguration,
) {
  const data = clientData(input);
  const isPublic = data.tokenEndpointAuthMethod === 'none';
  const clientSecret = isPublic ? null : newSecret(CLIENT_SECRET_PREFIX);
  const registrationToken = newSecret(REGISTRATION_TOKEN_PREFIX);
  const row = await insertClient(db, {
    ...data,
    clientId: newSecret(CLIENT_ID_PREFIX),
    clientSecretHash: clientSecret ? hashSecret(clientSecret) : null,
    registrationTokenHash: hashSecret(registrationToken),
    userId,
  });
  return {
    ...clientView(row, registrationUri(server, row.clientId)),
    // A public client has no secret, and Polar leaves the field out for it.
    ...(clientSecret ? { client_secret: clientSecret } : {}),
    registration_access_token: registrationToken,
  };
}

/** Who manages a registration: the user who made it (signed in), or the holder of its token (RFC 7592). */
export type RegistrationCredential = { userId: string } | { registrationToken: string } | null;

/**
 * RFC 7592 §2: a client that does not exist, and one the credential does not manage, answer the
 * same 401, so that nobody learns which client ids exist.
 */
async function managedClient(db: Db, clientId: string, credential: RegistrationCredential) {
  const refuse = () =>
    new OAuthError(
      'invalid_token',
      'The registration access token or session does not manage this client.',
      401,
      {
        'WWW-Authenticate': 'Bearer error="invalid_token"',
      },
    );
  if (!credential) throw refuse();
  const row = await findClientByClientId(db, clientId);
  if (!row) throw refuse();
  const allowed =
    'userId' in credential
      ? row.userId === credential.userId
      : sameHash(row.registrationTokenHash, hashSecret(credential.registrationToken));
  if (!allowed) throw refuse();
  return row;
}

export async function readClient(
  db: Db,
  server: OAuthServer,
  clientId: string,
  credential: RegistrationCredential,
) {
  const row = await managedClient(db, clientId, credential);
  return clientView(row, registrationUri(server, row.clientId));
}

/** RFC 7592 §2.2: the new configuration replaces the old one whole; the secrets stay. */
export async function updateRegisteredClient(
  db: Db,
  server: OAuthServer,
  clientId: string,
  credential: RegistrationCredential,
  input: ClientConfiguration & { client_id: string },
) {
  const row = await managedClient(db, clientId, credential);
  if (input.client_id !== row.clientId) {
    throw new OAuthError('invalid_client_metadata', 'client_id must be the id of the client being updated.');
  }
  const data = clientData(input);
  if ((data.tokenEndpointAuthMethod === 'none') !== (row.clientSecretHash === null)) {
    throw new OAuthError(
      'invalid_client_metadata',
      'A client cannot switch between public (token_endpoint_auth_method none) and confidential.',
    );
  }
  const updated = await updateClient(db, row.id, data);
  return clientView(updated, registrationUri(server, updated.clientId));
}

export async function deleteRegisteredClient(db: Db, clientId: string, credential: RegistrationCredential) {
  const row = await managedClient(db, clientId, credential);
  await deleteClient(db, row.id);
}

type ValidatedRequest = {
  client: ClientRow;
  redirectUri: string;
  scopes: string[];
  subType: SubType;
  state: string | undefined;
  codeChallenge: { value: string; method: string } | null;
  nonce: string | undefined;
};

/**
 * RFC 6749 §4.1.2.1: while the client or its redirect URI is in doubt the error is shown to the
 * user and never sent anywhere (no open redirect); after that it goes to the client's redirect URI.
 */
async function validateAuthorizationRequest(db: Db, query: AuthorizeQuery): Promise<ValidatedRequest> {
  if (!query.client_id) throw new OAuthError('invalid_request', 'client_id is required.');
  const client = await findClientByClientId(db, query.client_id);
  if (!client) throw new OAuthError('invalid_client', 'No app is registered with this client_id.');
  let redirectUri = query.redirect_uri;
  if (redirectUri === undefined) {
    // §3.1.2.3: only a client with a single registered URI may leave it out.
    if (client.redirectUris.length !== 1) {
      throw new OAuthError('invalid_request', 'redirect_uri is required: the app registered several.');
    }
    redirectUri = client.redirectUris[0]!;
  } else if (!isRegisteredRedirectUri(client.redirectUris, redirectUri)) {
    throw new OAuthError('invalid_request', 'redirect_uri is not one the app registered.');
  }
  const toClient = (error: string, description: string) =>
    new OAuthError(
      error,
      description,
      400,
      {},
      redirectWith(redirectUri, { error, error_description: description, state: query.state }),
    );
  if (query.response_type !== 'code') {
    throw toClient('unsupported_response_type', 'Only response_type=code is supported.');
  }
  let scopes: string[];
  try {
    scopes = requestedScopes(query.scope, client.scopes);
  } catch (error) {
    if (error instanceof OAuthError) throw toClient(error.error, error.message);
    throw error;
  }
  const subType = query.sub_type ?? client.defaultSubType;
  if (!(SUB_TYPES as readonly string[]).includes(subType)) {
    throw toClient('invalid_request', 'sub_type must be user or organization.');
  }
  let codeChallenge: ValidatedRequest['codeChallenge'] = null;
  if (query.code_challenge !== undefined) {
    // RFC 7636 §4.3: plain unless said.
    const method = query.code_challenge_method ?? 'plain';
    if (!(CODE_CHALLENGE_METHODS as readonly string[]).includes(method)) {
      throw toClient('invalid_request', 'code_challenge_method must be S256 or plain.');
    }
    if (!isValidCodeChallenge(query.code_challenge)) {
      throw toClient('invalid_request', 'code_challenge must be 43 to 128 characters of [A-Za-z0-9-._~].');
    }
    codeChallenge = { value: query.code_challenge, method };
  } else if (query.code_challenge_method !== undefined) {
    throw toClient('invalid_request', 'code_challenge_method was sent without code_challenge.');
  } else if (client.tokenEndpointAuthMethod === 'none') {
    // A public client cannot prove who it is at the token endpoint: PKCE is what binds the code to it.
    throw toClient('invalid_request', 'A public client must send a PKCE code_challenge.');
  }
  if (query.prompt === 'none') {
    // Consent is asked every time, so it can never be skipped silently.
    throw toClient('consent_required', 'The user must allow the app on the consent page.');
  }
  return {
    client,
    redirectUri,
    scopes,
    subType: subType as SubType,
    state: query.state,
    codeChallenge,
    nonce: query.nonce,
  };
}

/**
 * The organizations the consent page offers. An organization-subject token acts for the whole
 * organization as its access tokens do, so only its owners and admins may grant one; a user-subject
 * token acts with the user's own role in each of their organizations.
 */
async function grantableOrganizations(db: Db, userId: string, subType: SubType) {
  const memberships = await listUserOrganizations(db, userId);
  return memberships
    .filter((membership) => subType === 'user' || hasAnyRole(membership.role, ORGANIZATION_MANAGERS))
    .map(({ organization }) => ({
      id: organization.id,
      slug: organization.slug,
      name: organization.name,
      avatar_url: organization.logo,
    }));
}

/** What the consent page shows: Polar's AuthorizeResponse. Without a signed-in user `sub` is null. */
export async function getAuthorization(
  db: Db,
  userId: string | null,
  query: AuthorizeQuery,
): Promise<AuthorizeResponse> {
  const request = await validateAuthorizationRequest(db, query);
  const organizations = userId ? await grantableOrganizations(db, userId, request.subType) : [];
  const base = {
    client: clientPublicView(request.client),
    scopes: request.scopes,
    scope_display_names: Object.fromEntries(
      request.scopes.map((scope) => [scope, SCOPE_DISPLAY_NAMES[scope]!]),
    ),
    organizations,
  };
  if (request.subType === 'organization') return { ...base, sub_type: 'organization', sub: null };
  const user = userId ? await findUserIdentity(db, userId) : null;
  return {
    ...base,
    sub_type: 'user',
    sub: user ? { id: user.id, email: user.email, avatar_url: user.image } : null,
  };
}

/** The user's answer on the consent page: where the browser goes next, with a code or `access_denied`. */
export async function answerConsent(db: Db, userId: string, body: ConsentBody, now = new Date()) {
  const request = await validateAuthorizationRequest(db, body);
  if (body.action === 'deny') {
    return {
      redirect_to: redirectWith(request.redirectUri, {
        error: 'access_denied',
        error_description: 'The user did not allow the app.',
        state: request.state,
      }),
    };
  }
  let organizationId: string | null = null;
  if (request.subType === 'organization') {
    const offered = await grantableOrganizations(db, userId, 'organization');
    const chosen = offered.find((organization) => organization.id === body.organization_id);
    if (!chosen) {
      throw new OAuthError(
        'invalid_request',
        'Choose one of the organizations you own or administer for this app.',
      );
    }
    organizationId = chosen.id;
  }
  const code = newSecret(AUTHORIZATION_CODE_PREFIX);
  await insertAuthorizationCode(db, {
    codeHash: hashSecret(code),
    clientId: request.client.id,
    userId,
    subType: request.subType,
    organizationId,
    scopes: request.scopes,
    redirectUri: request.redirectUri,
    codeChallenge: request.codeChallenge?.value ?? null,
    codeChallengeMethod: request.codeChallenge?.method ?? null,
    nonce: request.nonce ?? null,
    expiresAt: new Date(now.getTime() + AUTHORIZATION_CODE_LIFETIME_SECONDS * 1000),
  });
  return { redirect_to: redirectWith(request.redirectUri, { code, state: request.state }) };
}

/** How the client authenticated at the token, revocation or introspection endpoint. */
export type ClientCredentials = { clientId?: string; clientSecret?: string; usedBasic: boolean };

/** Reads `Authorization: Basic` (RFC 6749 §2.3.1: each half form-encoded) beside the body's fields. */
export function clientCredentialsOf(
  authorization: string | undefined,
  body: { client_id?: string; client_secret?: string },
): ClientCredentials {
  const basic = authorization ? /^Basic\s+(\S+)$/i.exec(authorization) : null;
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const separator = decoded.indexOf(':');
    const decode = (value: string) => {
      try {
        return decodeURIComponent(value.replaceAll('+', ' '));
      } catch {
        return value;
      }
    };
    if (separator > 0) {
      return {
        clientId: decode(decoded.slice(0, separator)),
        clientSecret: decode(decoded.slice(separator + 1)),
        usedBasic: true,
      };
    }
  }
  return { clientId: body.client_id, clientSecret: body.client_secret, usedBasic: false };
}

/** RFC 6749 §2.3, §5.2: an unknown client or a wrong secret is `invalid_client`, 401. */
async function authenticateClient(db: Db, credentials: ClientCredentials): Promise<ClientRow> {
  const refuse = () =>
    new OAuthError(
      'invalid_client',
      'Client authentication failed.',
      401,
      credentials.usedBasic ? { 'WWW-Authenticate': 'Basic realm="oauth2"' } : {},
    );
  if (!credentials.clientId) throw refuse();
  const client = await findClientByClientId(db, credentials.clientId);
  if (!client) throw refuse();
  if (client.clientSecretHash === null) return client;
  if (!credentials.clientSecret || !sameHash(client.clientSecretHash, hashSecret(credentials.clientSecret))) {
    throw refuse();
  }
  return client;
}

const invalidGrant = (description: string) => new OAuthError('invalid_grant', description);

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
) {
  const accessToken = newSecret(ACCESS_TOKEN_PREFIXES[grant.subType]);
  const refreshToken = client.grantTypes.includes('refresh_token')
    ? newSecret(REFRESH_TOKEN_PREFIXES[grant.subType])
    : null;
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
  if (!body.code) throw new OAuthError('invalid_request', 'code is required.');
  if (!body.redirect_uri) throw new OAuthError('invalid_request', 'redirect_uri is required.');
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
    throw new OAuthError('invalid_request', 'code_verifier was sent for a code requested without PKCE.');
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
  if (!body.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is required.');
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

/** RFC 6749 §3.2: the token endpoint. */
export async function requestToken(
  db: Db,
  credentials: ClientCredentials,
  body: TokenRequest,
  now = new Date(),
) {
  if (!body.grant_type) throw new OAuthError('invalid_request', 'grant_type is required.');
  const client = await authenticateClient(db, credentials);
  if (body.grant_type === 'authorization_code') return exchangeAuthorizationCode(db, client, body, now);
  if (body.grant_type === 'refresh_token') return exchangeRefreshToken(db, client, body, now);
  if (body.grant_type === 'web') {
    throw new OAuthError(
      'unsupported_grant_type',
      "The web grant exchanges Polar's own dashboard session for its first-party apps; Tollgate has none.",
    );
  }
  throw new OAuthError('unsupported_grant_type', `grant_type ${body.grant_type} is not supported.`);
}

async function findTokenOfClient(db: Db, client: ClientRow, body: TokenActionRequest) {
  if (!body.token) throw new OAuthError('invalid_request', 'token is required.');
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
