import type { RequestHandler } from 'express';

/** Every answer: no content-type guessing, and no full URLs (with checkout secrets) in Referer. */
export const baseSecurityHeaders: RequestHandler = (_req, res, next) => {
  res.set({
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
  });
  next();
};

// Stripe.js must be loaded from Stripe and draws card fields and 3-D Secure in its own frames
// (stripe.com/docs/security/guide, "Content Security Policy").
const STRIPE_SCRIPTS = 'https://js.stripe.com https://*.js.stripe.com';
const STRIPE_FRAMES = 'https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com';
const STRIPE_API = 'https://api.stripe.com';

/**
 * The Content-Security-Policy of the web app's pages. `frameAncestors` says who may frame the page:
 * nobody for the dashboard and sign-in (clickjacking), exactly the checkout's embed origin for a
 * hosted checkout.
 */
export function pageContentSecurityPolicy(input: {
  mode: 'sandbox' | 'live';
  frameAncestors: string;
}): string {
  const live = input.mode === 'live';
  return [
    "default-src 'self'",
    `script-src 'self'${live ? ` ${STRIPE_SCRIPTS}` : ''}`,
    // Product images may live in a seller's bucket (S3 public URLs), so any https image is fine.
    "img-src 'self' data: blob: https:",
    "style-src 'self'",
    `connect-src 'self'${live ? ` ${STRIPE_API}` : ''}`,
    `frame-src ${live ? STRIPE_FRAMES : "'none'"}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${input.frameAncestors}`,
  ].join('; ');
}

const HOSTED_CHECKOUT = /^\/checkout\/([^/]+)(?:\/confirmation)?\/?$/;

/**
 * Who may frame the page at `pathname`: a hosted checkout's own embed origin (the seller's site
 * that embeds it), the harmless "link unavailable" page anyone, every other page nobody.
 */
export async function frameAncestorsFor(
  pathname: string,
  embedOriginOf: (clientSecret: string) => Promise<string | null>,
): Promise<string> {
  const secret = HOSTED_CHECKOUT.exec(pathname)?.[1];
  if (!secret) return "'none'";
  if (secret === 'unavailable') return '*';
  const origin = await embedOriginOf(decodeURIComponent(secret)).catch(() => null);
  // Stored as `URL.origin`; anything else must never reach the header.
  return origin && URL.canParse(origin) && new URL(origin).origin === origin ? origin : "'none'";
}
