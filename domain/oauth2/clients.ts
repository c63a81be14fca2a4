// The registration of OAuth apps (RFC 7591, RFC 7592), and the operator's grant of the web grant.
import type { Db } from '../../infra/db.js';
import {
  addClientGrantType,
  deleteClient,
  findClientByClientId,
  insertClient,
  updateClient,
  type ClientData,
} from './repository.js';
import {
  CLIENT_ID_PREFIX,
  CLIENT_SECRET_PREFIX,
  OAuthError,
  REGISTRATION_TOKEN_PREFIX,
  WEB_GRANT_TYPE,
  hashSecret,
  isKnownScope,
  redirectUriProblem,
  sameHash,
  splitScopes,
} from './rules.js';
import type { ClientConfiguration } from './schemas.js';
import { newSecret, type OAuthServer } from './credentials.js';
import { clientView } from './views.js';

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
  // The web grant is the operator's to give (allowWebGrant), not part of the owner's metadata.
  const grantTypes = row.grantTypes.includes(WEB_GRANT_TYPE)
    ? [...data.grantTypes, WEB_GRANT_TYPE]
    : data.grantTypes;
  const updated = await updateClient(db, row.id, { ...data, grantTypes });
  return clientView(updated, registrationUri(server, updated.clientId));
}

export async function deleteRegisteredClient(db: Db, clientId: string, credential: RegistrationCredential) {
  const row = await managedClient(db, clientId, credential);
  await deleteClient(db, row.id);
}

/** Why a client may not be given the web grant; thrown by `allowWebGrant`. */
export class WebGrantRefused extends Error {}

/**
 * Lets a client use `grant_type=web` (docs/oauth2.md): it then exchanges a user's web session for a
 * token, which no app the user has not chosen should do, so only the server's operator grants it
 * (`npm run oauth2:allow-web-grant`), as Polar configures its own apps. Polar's grant takes only
 * confidential clients (`client_secret_basic`, `client_secret_post`), so a public one is refused.
 */
export async function allowWebGrant(db: Db, clientId: string): Promise<{ changed: boolean }> {
  const client = await findClientByClientId(db, clientId);
  if (!client) throw new WebGrantRefused(`No app is registered with client_id ${clientId}.`);
  if (client.clientSecretHash === null) {
    throw new WebGrantRefused('A public client (no secret) cannot use the web grant.');
  }
  if (client.grantTypes.includes(WEB_GRANT_TYPE)) return { changed: false };
  await addClientGrantType(db, client.id, WEB_GRANT_TYPE);
  return { changed: true };
}
