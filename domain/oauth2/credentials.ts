import { randomBytes } from 'node:crypto';
import type { Db } from '../../infra/db.js';
import { findClientByClientId, type ClientRow } from './repository.js';
import { OAuthError, hashSecret, sameHash } from './rules.js';

/** A new secret of the given kind (client id, code, token…): 32 random bytes after its prefix. */
export const newSecret = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;

/** Where the server's endpoints are, for the answers that name them. */
export type OAuthServer = { baseUrl: string };

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
export const invalidClient = (credentials: ClientCredentials) =>
  new OAuthError(
    'invalid_client',
    'Client authentication failed.',
    401,
    credentials.usedBasic ? { 'WWW-Authenticate': 'Basic realm="oauth2"' } : {},
  );

/** The client the credentials prove; a public client (no secret) is named by its id alone. */
export async function authenticateClient(db: Db, credentials: ClientCredentials): Promise<ClientRow> {
  if (!credentials.clientId) throw invalidClient(credentials);
  const client = await findClientByClientId(db, credentials.clientId);
  if (!client) throw invalidClient(credentials);
  if (client.clientSecretHash === null) return client;
  if (!credentials.clientSecret || !sameHash(client.clientSecretHash, hashSecret(credentials.clientSecret))) {
    throw invalidClient(credentials);
  }
  return client;
}
