import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AccountPlatform } from './schemas.js';

/** How the customer reads a platform's name. */
export const PLATFORM_NAMES: Record<AccountPlatform, string> = { github: 'GitHub', discord: 'Discord' };

/** The benefit types granted through a linked account, and the platform of each. */
export const PLATFORM_OF_BENEFIT_TYPE: Readonly<Record<string, AccountPlatform>> = {
  github_repository: 'github',
  discord: 'discord',
};

/** A link started in the portal has this long to come back from the platform (OAuth's usual 10 minutes). */
export const LINK_STATE_TTL_MS = 10 * 60 * 1000;

/** Discord's access tokens last a week: one this close to expiring is renewed before use. */
export const TOKEN_RENEWAL_MARGIN_MS = 60_000;

export const needsRenewal = (expiresAt: Date | null, nowMs: number) =>
  expiresAt !== null && expiresAt.getTime() - TOKEN_RENEWAL_MARGIN_MS <= nowMs;

/** The one callback address a deployment registers with GitHub's and Discord's OAuth apps. */
export const linkCallbackUrl = (publicUrl: string) =>
  `${publicUrl}/v1/customer-portal/oauth-accounts/callback`;

export type LinkState = { customerId: string; platform: AccountPlatform; returnTo: string };

const keyOf = (secret: string) => createHmac('sha256', secret).update('tollgate account links').digest();
const signatureOf = (secret: string, payload: string) =>
  createHmac('sha256', keyOf(secret)).update(payload).digest('base64url');

/**
 * OAuth's `state`: `<payload>.<signature>`, the payload naming the customer, the platform and where
 * to send the browser back. It is the callback's only credential (the platform's redirect carries
 * no session), so it is signed with the deployment's secret and lives 10 minutes.
 */
export function signLinkState(secret: string, state: LinkState, expiresAtMs: number): string {
  const payload = Buffer.from(
    JSON.stringify({ c: state.customerId, p: state.platform, r: state.returnTo, e: expiresAtMs }),
  ).toString('base64url');
  return `${payload}.${signatureOf(secret, payload)}`;
}

export type LinkStateCheck =
  ({ outcome: 'valid' } & LinkState) | { outcome: 'malformed' | 'forged' | 'expired' };

const STATE = /^([A-Za-z0-9_-]{1,4000})\.([A-Za-z0-9_-]{43})$/;

export function verifyLinkState(secret: string, state: string, nowMs: number): LinkStateCheck {
  const match = STATE.exec(state);
  if (!match) return { outcome: 'malformed' };
  const [, payload, signature] = match as unknown as [string, string, string];
  const expected = Buffer.from(signatureOf(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { outcome: 'forged' };
  const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
    c: string;
    p: AccountPlatform;
    r: string;
    e: number;
  };
  if (decoded.e <= nowMs) return { outcome: 'expired' };
  return { outcome: 'valid', customerId: decoded.c, platform: decoded.p, returnTo: decoded.r };
}

/**
 * The browser goes back only to this deployment's pages (the portal lives under PUBLIC_URL), never
 * to an address a link's author chose: an open redirect would lend our name to phishing.
 */
export function isOwnPage(url: string, publicUrl: string): boolean {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  const base = new URL(publicUrl);
  if (target.origin !== base.origin || target.username || target.password) return false;
  const basePath = base.pathname.replace(/\/$/, '');
  return target.pathname === basePath || target.pathname.startsWith(`${basePath}/`);
}

/** The page the link started from, told that it failed (`oauth_error`), so it can say so. */
export function withLinkError(returnTo: string, error: string): string {
  const url = new URL(returnTo);
  url.searchParams.set('oauth_error', error);
  return url.toString();
}
