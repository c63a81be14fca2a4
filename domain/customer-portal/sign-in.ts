// Who a portal token signs in: a customer session, or the token a paid checkout's confirmation
// handed its buyer. Above both: the sessions are below the orders and checkouts that open them.
import type { Db } from '../../infra/db.js';
import { findPaidCheckoutBySessionTokenHash, forgetCheckoutSessionToken } from '../checkouts/repository.js';
import {
  deleteCustomerSession,
  findCustomerSessionExpiry,
  findLiveCustomerSession,
} from '../customer-sessions/repository.js';
import {
  CUSTOMER_SESSION_TTL_MS,
  looksLikeCustomerSessionToken,
  type CustomerCaller,
} from '../customer-sessions/rules.js';
import type { CustomerSessionIntrospection, PortalAuthenticatedUser } from '../customer-sessions/schemas.js';
import { hashToken } from '../customer-sessions/service.js';
import { signedInCustomer } from './context.js';

/**
 * The customer a portal token signs in: a customer session, or the token a paid checkout's
 * confirmation handed its buyer (valid one session's length after the payment). Null otherwise.
 */
export async function authenticateCustomerSession(
  db: Db,
  token: string,
  now = new Date(),
): Promise<CustomerCaller | null> {
  if (!looksLikeCustomerSessionToken(token)) return null;
  const tokenHash = hashToken(token);
  const session = await findLiveCustomerSession(db, tokenHash, now);
  if (session) return { kind: 'customer_session', ...session, tokenHash };
  const checkout = await findPaidCheckoutBySessionTokenHash(
    db,
    tokenHash,
    new Date(now.getTime() - CUSTOMER_SESSION_TTL_MS),
  );
  if (!checkout?.customerId) return null;
  return {
    kind: 'customer_session',
    customerId: checkout.customerId,
    organizationId: checkout.organizationId,
    tokenHash,
    // The checkout succeeded at its last change, and nothing changes it after.
    expiresAt: new Date((checkout.modifiedAt ?? now).getTime() + CUSTOMER_SESSION_TTL_MS),
    returnUrl: null,
  };
}

/** Signing out: the token stops working at once, whether a session's or a checkout's. */
export async function endCustomerSession(db: Db, customer: CustomerCaller): Promise<void> {
  await deleteCustomerSession(db, customer.tokenHash);
  await forgetCheckoutSessionToken(db, customer.tokenHash);
}

/**
 * The calling token's own facts: when it stops working (a session's expiry, or a checkout
 * confirmation's payment plus one session's length) and the seller's page it returns to.
 */
export async function introspectCustomerSession(
  db: Db,
  customer: CustomerCaller,
  now = new Date(),
): Promise<CustomerSessionIntrospection> {
  const session = await findCustomerSessionExpiry(db, customer.tokenHash, now);
  let expiresAt = session?.expiresAt;
  if (!expiresAt) {
    const checkout = await findPaidCheckoutBySessionTokenHash(
      db,
      customer.tokenHash,
      new Date(now.getTime() - CUSTOMER_SESSION_TTL_MS),
    );
    // The token was checked a moment ago: gone since, it expires now.
    expiresAt = checkout?.modifiedAt
      ? new Date(checkout.modifiedAt.getTime() + CUSTOMER_SESSION_TTL_MS)
      : now;
  }
  return { expires_at: expiresAt.toISOString(), return_url: session?.returnUrl ?? null };
}

/** Who the token signs in: always the customer themself, as there are no members yet. */
export async function authenticatedPortalUser(
  db: Db,
  customer: CustomerCaller,
): Promise<PortalAuthenticatedUser> {
  const row = await signedInCustomer(db, customer);
  return {
    type: 'customer',
    name: row.name,
    email: row.email,
    customer_id: row.id,
    member_id: null,
    role: null,
  };
}
