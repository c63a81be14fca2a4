import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../infra/db.js';
import type { Caller } from '../access/rules.js';
import { assertCanManage } from '../access/service.js';
import { ORGANIZATION_MANAGERS } from '../access/rules.js';
import { findPaidCheckoutBySessionTokenHash } from '../checkouts/repository.js';
import type { CustomerSession, CustomerSessionCreate } from '../customer-portal/schemas.js';
import { findCustomerFor } from '../customers/service.js';
import { customerView } from '../customers/views.js';
import { findOrganizationById } from '../organizations/repository.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import { findLiveCustomerSession, insertCustomerSession } from './repository.js';
import {
  CUSTOMER_SESSION_PREFIX,
  CUSTOMER_SESSION_TTL_MS,
  customerPortalUrl,
  looksLikeCustomerSessionToken,
  type CustomerCaller,
} from './rules.js';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A portal sign-in for one customer; the token is in the answer and nowhere else. */
export async function createCustomerSession(
  db: Db,
  caller: Caller,
  input: CustomerSessionCreate,
  publicUrl: string,
): Promise<CustomerSession> {
  const customer = await findCustomerFor(
    db,
    caller,
    'customer_id' in input ? { id: input.customer_id } : { externalId: input.customer_external_id },
  ).catch((error: unknown) => {
    if (error instanceof AppError && error.errorName === 'ResourceNotFound') {
      const field = 'customer_id' in input ? 'customer_id' : 'customer_external_id';
      throw new InvalidFieldError(['body', field], 'Customer does not exist.');
    }
    throw error;
  });
  await assertCanManage(db, caller, customer.organizationId, ORGANIZATION_MANAGERS);
  const organization = (await findOrganizationById(db, customer.organizationId))!;
  const token = `${CUSTOMER_SESSION_PREFIX}${randomBytes(24).toString('base64url')}`;
  const row = await insertCustomerSession(db, {
    organizationId: customer.organizationId,
    customerId: customer.id,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + CUSTOMER_SESSION_TTL_MS),
  });
  return {
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    id: row.id,
    token,
    expires_at: row.expiresAt.toISOString(),
    customer_portal_url: customerPortalUrl(publicUrl, organization.slug, token),
    customer_id: customer.id,
    customer: customerView(row.customer),
  };
}

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
  if (session) return { kind: 'customer_session', ...session };
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
  };
}
