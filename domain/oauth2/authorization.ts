// The authorization endpoint (RFC 6749 §4.1.1): what the consent page shows, and the user's answer,
// which mints the authorization code.
import type { Db } from '../../infra/db.js';
import { ORGANIZATION_MANAGERS, hasAnyRole } from '../access/rules.js';
import {
  findClientByClientId,
  findUserIdentity,
  insertAuthorizationCode,
  listUserOrganizations,
  type ClientRow,
} from './repository.js';
import {
  AUTHORIZATION_CODE_LIFETIME_SECONDS,
  AUTHORIZATION_CODE_PREFIX,
  CODE_CHALLENGE_METHODS,
  OAuthError,
  hashSecret,
  isRegisteredRedirectUri,
  isValidCodeChallenge,
  redirectWith,
  requestedScopes,
} from './rules.js';
import {
  SCOPE_DISPLAY_NAMES,
  SUB_TYPES,
  type AuthorizeQuery,
  type AuthorizeResponse,
  type ConsentBody,
  type SubType,
} from './schemas.js';
import { newSecret } from './credentials.js';
import { clientPublicView } from './views.js';

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
export async function grantableOrganizations(db: Db, userId: string, subType: SubType) {
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
