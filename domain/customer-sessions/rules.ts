// Customer sessions: a buyer's sign-in to the customer portal, handed out by the seller's app
// (`customerSessions.create`), by a checkout's confirmation, or by an emailed code.

export const CUSTOMER_SESSION_PREFIX = 'tollgate_cst_';
const TOKEN_BODY = /^[A-Za-z0-9_-]{32}$/;

/** As long as Polar's: enough for a visit, short enough that a leaked link soon stops working. */
export const CUSTOMER_SESSION_TTL_MS = 60 * 60 * 1000;

/**
 * A receipt's link signs the buyer in this long: receipts are read hours after the purchase, and
 * the emailed code covers anyone who opens it later.
 */
export const RECEIPT_SIGN_IN_TTL_MS = 24 * 60 * 60 * 1000;

export const looksLikeCustomerSessionToken = (value: string) =>
  value.startsWith(CUSTOMER_SESSION_PREFIX) && TOKEN_BODY.test(value.slice(CUSTOMER_SESSION_PREFIX.length));

/**
 * The portal's address for a session, the token in the link so one click signs the buyer in;
 * `page` opens one of its pages (`orders`) instead of the overview.
 */
export const customerPortalUrl = (
  publicUrl: string,
  organizationSlug: string,
  token: string,
  page?: 'orders',
) =>
  `${publicUrl}/portal/${encodeURIComponent(organizationSlug)}${page ? `/${page}` : ''}?customer_session_token=${encodeURIComponent(token)}`;

/** Who calls the portal: a customer of one organization. */
export type CustomerCaller = {
  kind: 'customer_session';
  customerId: string;
  organizationId: string;
  /** The token's hash: signing out ends this session and no other. */
  tokenHash: string;
  /** When the token stops working. */
  expiresAt: Date;
  /** The seller's page the portal links back to (a session the seller's app opened may name one). */
  returnUrl: string | null;
};

/** An emailed sign-in code works this long, and for this many wrong tries. */
export const SIGN_IN_CODE_TTL_MS = 10 * 60 * 1000;
export const SIGN_IN_CODE_ATTEMPTS = 5;

// Changing the customer's email address: a link to the new address proves they read it.

export const EMAIL_UPDATE_PREFIX = 'tollgate_cev_';

/** Long enough to open the inbox on another device, short enough that an old email is useless. */
export const EMAIL_UPDATE_TTL_MS = 30 * 60 * 1000;

export const looksLikeEmailUpdateToken = (value: string) =>
  value.startsWith(EMAIL_UPDATE_PREFIX) && TOKEN_BODY.test(value.slice(EMAIL_UPDATE_PREFIX.length));

/** The portal's page that confirms the change, as the emailed link opens it. */
export const emailUpdateUrl = (publicUrl: string, organizationSlug: string, token: string) =>
  `${publicUrl}/portal/${encodeURIComponent(organizationSlug)}/verify-email?token=${encodeURIComponent(token)}`;
