// Organization access tokens: shown once, stored as SHA-256 only. The prefix makes a leaked token
// recognizable to secret scanners and to people.
export const ACCESS_TOKEN_PREFIX = 'tollgate_oat_';
const TOKEN_BODY = /^[A-Za-z0-9_-]{43}$/;

export function looksLikeAccessToken(value: string): boolean {
  return value.startsWith(ACCESS_TOKEN_PREFIX) && TOKEN_BODY.test(value.slice(ACCESS_TOKEN_PREFIX.length));
}

export function isTokenUsable(token: { expiresAt: Date | null }, now: Date): boolean {
  return token.expiresAt === null || token.expiresAt > now;
}

/** Recording every use would turn each read into a write; once a minute is enough to audit. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export function shouldRecordUse(lastUsedAt: Date | null, now: Date): boolean {
  return lastUsedAt === null || now.getTime() - lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS;
}
