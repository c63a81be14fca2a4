import { createHmac, timingSafeEqual } from 'node:crypto';

/** A download link works this long after the portal lists it (Polar's 10 minutes). */
export const DOWNLOAD_LINK_TTL_MS = 10 * 60 * 1000;

const keyOf = (secret: string) => createHmac('sha256', secret).update('tollgate downloadable links').digest();

/** `<downloadable id>.<expiry ms>.<signature>`: the link itself is the permission. */
export function signDownloadToken(secret: string, downloadableId: string, expiresAtMs: number): string {
  const payload = `${downloadableId}.${expiresAtMs}`;
  return `${payload}.${createHmac('sha256', keyOf(secret)).update(payload).digest('base64url')}`;
}

export type DownloadTokenCheck =
  { outcome: 'valid'; downloadableId: string } | { outcome: 'malformed' | 'forged' | 'expired' };

const TOKEN = /^([0-9a-f-]{36})\.(\d{13})\.([A-Za-z0-9_-]{43})$/;

export function verifyDownloadToken(secret: string, token: string, nowMs: number): DownloadTokenCheck {
  const match = TOKEN.exec(token);
  if (!match) return { outcome: 'malformed' };
  const [, downloadableId, expiresAtMs, signature] = match as unknown as [string, string, string, string];
  const expected = Buffer.from(
    createHmac('sha256', keyOf(secret)).update(`${downloadableId}.${expiresAtMs}`).digest('base64url'),
  );
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { outcome: 'forged' };
  if (Number(expiresAtMs) <= nowMs) return { outcome: 'expired' };
  return { outcome: 'valid', downloadableId };
}
