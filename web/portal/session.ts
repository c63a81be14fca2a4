import { useSyncExternalStore } from 'react';

// The buyer's customer session token lives in this tab's sessionStorage, one per seller: it is a
// bearer credential for an hour, so it must not outlive the tab (localStorage) nor stay in the
// address bar, the history or a Referer (it is stripped from the URL as soon as it arrives).

const tokenKey = (slug: string) => `tollgate:portal-token:${slug}`;
const checkoutTokenKey = (clientSecret: string) => `tollgate:checkout-portal-token:${clientSecret}`;

/** Why the buyer is on the sign-in page: they signed out, or the API said the session is over. */
export type SessionEnd = 'signed-out' | 'expired';

const listeners = new Set<() => void>();
/** Per slug, kept in memory: the notice belongs to this page load, not to the next visit. */
const endings = new Map<string, SessionEnd>();

function notify() {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** sessionStorage throws in some privacy modes; the portal then signs in for this page only. */
const memoryFallback = new Map<string, string>();

function readStored(key: string): string | null {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return memoryFallback.get(key) ?? null;
  }
}

function writeStored(key: string, value: string | null) {
  try {
    if (value === null) window.sessionStorage.removeItem(key);
    else window.sessionStorage.setItem(key, value);
  } catch {
    if (value === null) memoryFallback.delete(key);
    else memoryFallback.set(key, value);
  }
}

export function readPortalToken(slug: string): string | null {
  return readStored(tokenKey(slug));
}

/** A new sign-in (a link's token, or an emailed code exchanged): the pages below show at once. */
export function savePortalToken(slug: string, token: string): void {
  writeStored(tokenKey(slug), token);
  endings.delete(slug);
  notify();
}

/** Forgets the token; `expired` makes the sign-in page say the session ended. */
export function endPortalSession(slug: string, reason: SessionEnd): void {
  writeStored(tokenKey(slug), null);
  endings.set(slug, reason);
  notify();
}

/** The signed-in buyer's token for this seller, or null; re-renders on sign-in and sign-out. */
export function usePortalToken(slug: string): string | null {
  return useSyncExternalStore(subscribe, () => readPortalToken(slug));
}

export function useSessionEnd(slug: string): SessionEnd | null {
  return useSyncExternalStore(subscribe, () => endings.get(slug) ?? null);
}

// The hosted checkout's confirmation answer carries a token that signs its buyer in to the portal.
// The confirmation page polls the checkout, whose later answers do not repeat it, so the form
// keeps it for the page that links to the portal.

export function rememberCheckoutPortalToken(clientSecret: string, token: string): void {
  writeStored(checkoutTokenKey(clientSecret), token);
}

/** `/portal/<slug>?customer_session_token=…` for the checkout's buyer, or null without a token. */
export function checkoutPortalUrl(clientSecret: string, organizationSlug: string): string | null {
  const token = readStored(checkoutTokenKey(clientSecret));
  if (!token) return null;
  const query = new URLSearchParams({ customer_session_token: token });
  return `/portal/${encodeURIComponent(organizationSlug)}?${query.toString()}`;
}
