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

const ISO_DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;

/** Weeks, days, hours, minutes and seconds of an ISO-8601 duration; null when it is not one. */
export function parseDurationSeconds(value: string): number | null {
  const match = ISO_DURATION.exec(value);
  if (!match || value === 'P' || value.endsWith('T')) return null;
  const [weeks, days, hours, minutes, seconds] = match.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
  ];
  return (((weeks * 7 + days) * 24 + hours) * 60 + minutes) * 60 + seconds;
}
