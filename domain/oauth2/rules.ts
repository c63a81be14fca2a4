import { createHash, timingSafeEqual } from 'node:crypto';
import { OAUTH2_SCOPES, type OAuth2Scope, type SubType } from './schemas.js';

// Every secret carries a prefix, so that a leaked one is recognizable to secret scanners and to
// people, as Polar's `polar_at_u_…` are.
export const CLIENT_ID_PREFIX = 'tollgate_ci_';
export const CLIENT_SECRET_PREFIX = 'tollgate_cs_';
export const REGISTRATION_TOKEN_PREFIX = 'tollgate_crt_';
export const AUTHORIZATION_CODE_PREFIX = 'tollgate_ac_';
export const ACCESS_TOKEN_PREFIXES: Record<SubType, string> = {
  user: 'tollgate_at_u_',
  organization: 'tollgate_at_o_',
};
export const REFRESH_TOKEN_PREFIXES: Record<SubType, string> = {
  user: 'tollgate_rt_u_',
  organization: 'tollgate_rt_o_',
};

/** Polar's extension grant: a user's web session exchanged for a token (docs/oauth2.md). */
export const WEB_GRANT_TYPE = 'web';

/** RFC 6749 §4.1.2 asks for at most 10 minutes. */
export const AUTHORIZATION_CODE_LIFETIME_SECONDS = 10 * 60;
export const ACCESS_TOKEN_LIFETIME_SECONDS = 60 * 60;
export const REFRESH_TOKEN_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

const TOKEN_BODY = /^[A-Za-z0-9_-]{43}$/;

export function looksLikeOAuthAccessToken(value: string): boolean {
  return Object.values(ACCESS_TOKEN_PREFIXES).some(
    (prefix) => value.startsWith(prefix) && TOKEN_BODY.test(value.slice(prefix.length)),
  );
}

export const hashSecret = (value: string) => createHash('sha256').update(value).digest('hex');

/** Compares two hex digests in constant time. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * An RFC 6749 error (§4.1.2.1, §5.2), RFC 7009's and RFC 7591's: `{ error, error_description }` with
 * the status the RFC gives. Rendered by the API's error handler.
 */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
    /** Once the client's redirect URI is known good, the error goes there (§4.1.2.1). */
    readonly redirectTo?: string,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}

const KNOWN_SCOPES = new Set<string>(OAUTH2_SCOPES);

export function isKnownScope(scope: string): scope is OAuth2Scope {
  return KNOWN_SCOPES.has(scope);
}

/** RFC 6749 §3.3: space-delimited, each once; order kept. */
export function splitScopes(value: string): string[] {
  return [...new Set(value.split(' ').filter(Boolean))];
}

/** The scopes of a request, which must all be known and all registered for the client. */
export function requestedScopes(requested: string | undefined, registered: readonly string[]): string[] {
  const scopes = requested === undefined ? [...registered] : splitScopes(requested);
  const unknown = scopes.filter((scope) => !isKnownScope(scope));
  if (unknown.length > 0) {
    throw new OAuthError('invalid_scope', `Unknown scope: ${unknown.join(' ')}.`);
  }
  const unregistered = scopes.filter((scope) => !registered.includes(scope));
  if (unregistered.length > 0) {
    throw new OAuthError('invalid_scope', `The client is not registered for: ${unregistered.join(' ')}.`);
  }
  if (scopes.length === 0) throw new OAuthError('invalid_scope', 'No scope was requested.');
  return scopes;
}

const isLoopbackOrPrivate = (host: string) =>
  host === 'localhost' ||
  host.endsWith('.localhost') ||
  host === '[::1]' ||
  /^(127|10)\.\d+\.\d+\.\d+$/.test(host) ||
  /^192\.168\.\d+\.\d+$/.test(host) ||
  /^172\.(1[6-9]|2\d|3[01])\.\d+\.\d+$/.test(host);

/**
 * Why a redirect URI cannot be registered, or null: HTTPS, or plain HTTP to this machine or a
 * private address as Polar allows (RFC 8252 §7.3), or an app's own scheme (§7.1); never a fragment
 * (RFC 6749 §3.1.2).
 */
export function redirectUriProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Not a URL.';
  }
  if (url.hash || value.includes('#')) return 'A redirect URI must not have a fragment.';
  if (url.protocol === 'http:' && !isLoopbackOrPrivate(url.hostname)) return 'An HTTPS URL is required.';
  if (url.protocol === 'javascript:' || url.protocol === 'data:' || url.protocol === 'file:') {
    return 'Not a redirect URI.';
  }
  return null;
}

/** RFC 6749 §3.1.2.3 with OAuth 2.1's exact comparison: a registered URI, character for character. */
export function isRegisteredRedirectUri(registered: readonly string[], candidate: string): boolean {
  return registered.includes(candidate);
}

/** The client's redirect URI with the answer's parameters added to its query (§4.1.2, §4.1.2.1). */
export function redirectWith(redirectUri: string, parameters: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== undefined) url.searchParams.set(name, value);
  }
  return url.toString();
}

export const CODE_CHALLENGE_METHODS = ['S256', 'plain'] as const;

const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** RFC 7636 §4.6: whether the verifier sent to the token endpoint matches the challenge. */
export function verifiesCodeChallenge(
  challenge: { value: string; method: string },
  verifier: string | undefined,
): boolean {
  if (verifier === undefined || !CODE_VERIFIER.test(verifier)) return false;
  const computed =
    challenge.method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
  const a = Buffer.from(computed);
  const b = Buffer.from(challenge.value);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** RFC 7636 §4.2's challenge: 43 to 128 characters of the unreserved set (S256 gives 43). */
export function isValidCodeChallenge(value: string): boolean {
  return CODE_VERIFIER.test(value);
}

/**
 * Which `/v1` scope a scope check asks for, among those an OAuth app may hold: a resource Polar has
 * no scope for (our extensions) is refused to every OAuth token rather than allowed by default.
 */
export function isOAuthScopeResource(resource: string): boolean {
  return KNOWN_SCOPES.has(`${resource}:read`) || KNOWN_SCOPES.has(`${resource}:write`);
}

/**
 * Whether a web session may still be exchanged (the web grant): not expired, and its user not
 * banned (Better Auth's admin ban, which may end at `banExpires`).
 */
export function isUsableSession(
  session: { expiresAt: Date; user: { banned: boolean | null; banExpires: Date | null } },
  now: Date,
): boolean {
  if (session.expiresAt <= now) return false;
  const { banned, banExpires } = session.user;
  return !banned || (banExpires !== null && banExpires <= now);
}
