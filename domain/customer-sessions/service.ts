import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../infra/db.js';
import type { Caller } from '../access/rules.js';
import { assertCanManage } from '../access/service.js';
import { ORGANIZATION_MANAGERS } from '../access/rules.js';
import type { CustomerSession, CustomerSessionCreate } from './schemas.js';
import { findCustomerFor } from '../customers/service.js';
import { customerView } from '../customers/views.js';
import { findOrganizationById, findOrganizationBySlug } from '../organizations/repository.js';
import { findLiveCustomerOfOrganization } from '../customers/repository.js';
import type { Mailer } from '../emails/mailer.js';
import { portalSignInCodeEmail } from '../emails/rules.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import {
  countWrongSignInCode,
  findUsableSignInCode,
  insertCustomerSession,
  insertSignInCode,
  useSignInCode,
} from './repository.js';
import type { PortalSignIn, PortalSignInRequest, PortalSignInVerify } from './schemas.js';
import {
  CUSTOMER_SESSION_PREFIX,
  CUSTOMER_SESSION_TTL_MS,
  SIGN_IN_CODE_ATTEMPTS,
  SIGN_IN_CODE_TTL_MS,
  customerPortalUrl,
} from './rules.js';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A portal sign-in for one customer; the token is in the answer and nowhere else. */
export async function createCustomerSession(
  db: Db,
  caller: Caller,
  input: CustomerSessionCreate,
  publicUrl: string,
): Promise<CustomerSession> {
  const [field, lookup] =
    'customer_id' in input
      ? (['customer_id', { id: input.customer_id }] as const)
      : 'external_customer_id' in input
        ? (['external_customer_id', { externalId: input.external_customer_id }] as const)
        : (['customer_external_id', { externalId: input.customer_external_id }] as const);
  const customer = await findCustomerFor(db, caller, lookup).catch((error: unknown) => {
    if (error instanceof AppError && error.errorName === 'ResourceNotFound') {
      throw new InvalidFieldError(['body', field], 'Customer does not exist.');
    }
    throw error;
  });
  await assertCanManage(db, caller, customer.organizationId, ORGANIZATION_MANAGERS);
  const organization = (await findOrganizationById(db.sql, customer.organizationId))!;
  const { token, row } = await openCustomerSession(
    db,
    customer,
    CUSTOMER_SESSION_TTL_MS,
    input.return_url ?? null,
  );
  return {
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    id: row.id,
    token,
    expires_at: row.expiresAt.toISOString(),
    return_url: row.returnUrl,
    customer_portal_url: customerPortalUrl(publicUrl, organization.slug, token),
    customer_id: customer.id,
    customer: customerView(row.customer),
  };
}

/** A new session of the customer: the token, shown once, and its row. */
export async function openCustomerSession(
  db: Db,
  customer: { id: string; organizationId: string },
  ttlMs = CUSTOMER_SESSION_TTL_MS,
  returnUrl: string | null = null,
) {
  const token = `${CUSTOMER_SESSION_PREFIX}${randomBytes(24).toString('base64url')}`;
  const row = await insertCustomerSession(db, {
    organizationId: customer.organizationId,
    customerId: customer.id,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + ttlMs),
    returnUrl,
  });
  return { token, row };
}

// Signing in by a code sent to the customer's email address: for a buyer who comes to the portal
// on their own, without a link from the seller's app.

const codeHash = (customerId: string, code: string) =>
  createHash('sha256').update(`${customerId}:${code}`).digest('hex');

/**
 * Emails a sign-in code to the organization's customer with this address. The answer is the same
 * whether or not there is one, so the form tells nobody who buys from whom.
 */
export async function requestPortalSignInCode(
  ctx: { db: Db; mailer: Mailer; publicUrl: string },
  input: PortalSignInRequest,
): Promise<void> {
  const organization = await findOrganizationBySlug(ctx.db, input.organization_slug);
  if (!organization) throw new AppError('ResourceNotFound', 'Organization not found');
  const customer = await findLiveCustomerOfOrganization(ctx.db, organization.id, { email: input.email });
  if (!customer) return;
  const code = randomInt(0, 1_000_000).toString().padStart(6, '0');
  const row = await insertSignInCode(ctx.db, {
    organizationId: organization.id,
    customerId: customer.id,
    codeHash: codeHash(customer.id, code),
    expiresAt: new Date(Date.now() + SIGN_IN_CODE_TTL_MS),
  });
  const seller = (await findOrganizationById(ctx.db.sql, organization.id))!;
  await ctx.mailer.send({
    to: customer.email,
    ...portalSignInCodeEmail({
      sellerName: seller.name,
      code,
      minutes: SIGN_IN_CODE_TTL_MS / 60_000,
      url: `${ctx.publicUrl}/portal/${encodeURIComponent(seller.slug)}`,
    }),
    idempotencyKey: `portal-sign-in-code:${row.id}`,
  });
}

/** The code from the email, for a customer session. A wrong code counts against the code. */
export async function verifyPortalSignInCode(
  db: Db,
  input: PortalSignInVerify,
  now = new Date(),
): Promise<PortalSignIn> {
  const wrong = () =>
    new InvalidFieldError(
      ['body', 'code'],
      'This code is wrong or has expired: check the email, or ask for a new code.',
    );
  const organization = await findOrganizationBySlug(db, input.organization_slug);
  if (!organization) throw new AppError('ResourceNotFound', 'Organization not found');
  const customer = await findLiveCustomerOfOrganization(db, organization.id, { email: input.email });
  if (!customer) throw wrong();
  const pending = await findUsableSignInCode(db, customer.id, now, SIGN_IN_CODE_ATTEMPTS);
  if (!pending) throw wrong();
  const given = Buffer.from(codeHash(customer.id, input.code));
  const expected = Buffer.from(pending.codeHash);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    await countWrongSignInCode(db, pending.id);
    throw wrong();
  }
  // Conditional: the same code used twice at once opens one session.
  if (!(await useSignInCode(db, pending.id, now))) throw wrong();
  const { token, row } = await openCustomerSession(db, customer);
  return { token, expires_at: row.expiresAt.toISOString() };
}
