// The signed-in customer changes their email address (Polar's `customers/me/email-update`): they
// name the new address, a link goes to it, and opening the link makes it theirs. Until then the
// old address stays, so a typo never locks a buyer out of their receipts and sign-in codes.
import { randomBytes } from 'node:crypto';
import type { Db } from '../../infra/db.js';
import { findLiveCustomer, findLiveCustomerOfOrganization } from '../customers/repository.js';
import { applyVerifiedEmail } from '../customer-state/service.js';
import type { Mailer } from '../emails/mailer.js';
import { customerEmailChangedEmail, customerEmailUpdateEmail } from '../emails/rules.js';
import { findOrganizationById } from '../organizations/repository.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import { deleteEmailUpdate, findUsableEmailUpdate, replaceEmailUpdate } from './repository-email-updates.js';
import {
  EMAIL_UPDATE_PREFIX,
  EMAIL_UPDATE_TTL_MS,
  emailUpdateUrl,
  looksLikeEmailUpdateToken,
  type CustomerCaller,
} from './rules.js';
import type { CustomerEmailUpdateRequest } from './schemas.js';
import { hashToken, openCustomerSession } from './service.js';

type EmailUpdateContext = { db: Db; mailer: Mailer; publicUrl: string };

const invalidLink = () =>
  new AppError(
    'InvalidCustomerEmailUpdate',
    'This link to confirm an email address is invalid, used or expired: ask for a new one on your account page.',
  );

const takenBy = (sellerName: string) =>
  `Another customer of ${sellerName} already uses this email address. Use a different one.`;

/** Emails a link to the new address; the customer's address stays as it is until it is opened. */
export async function requestEmailUpdate(
  ctx: EmailUpdateContext,
  customer: CustomerCaller,
  input: CustomerEmailUpdateRequest,
): Promise<void> {
  const current = await findLiveCustomer(ctx.db, customer.customerId);
  if (!current) throw new AppError('Unauthorized', 'This customer no longer exists: sign in again.');
  if (current.email === input.email) {
    throw new InvalidFieldError(['body', 'email'], 'This is already your email address.');
  }
  const seller = (await findOrganizationById(ctx.db.sql, current.organizationId))!;
  // Asked here, not only when the link is opened: the buyer learns at once, beside the field.
  const other = await findLiveCustomerOfOrganization(ctx.db, current.organizationId, { email: input.email });
  if (other) throw new InvalidFieldError(['body', 'email'], takenBy(seller.name));
  const token = `${EMAIL_UPDATE_PREFIX}${randomBytes(24).toString('base64url')}`;
  const tokenHash = hashToken(token);
  const row = await replaceEmailUpdate(ctx.db, {
    organizationId: current.organizationId,
    customerId: current.id,
    email: input.email,
    tokenHash,
    expiresAt: new Date(Date.now() + EMAIL_UPDATE_TTL_MS),
  });
  await ctx.mailer.send({
    to: input.email,
    ...customerEmailUpdateEmail({
      sellerName: seller.name,
      email: input.email,
      minutes: EMAIL_UPDATE_TTL_MS / 60_000,
      url: emailUpdateUrl(ctx.publicUrl, seller.slug, token),
    }),
    idempotencyKey: `customer-email-update:${row.id}:${tokenHash}`,
  });
}

async function usableEmailUpdate(db: Db, token: string, now: Date) {
  if (!looksLikeEmailUpdateToken(token)) throw invalidLink();
  const pending = await findUsableEmailUpdate(db, hashToken(token), now);
  if (!pending) throw invalidLink();
  return pending;
}

/** Whether the emailed link still works (the portal asks before it offers to confirm). */
export async function checkEmailUpdate(db: Db, token: string, now = new Date()): Promise<void> {
  await usableEmailUpdate(db, token, now);
}

/**
 * Opening the link: the new address becomes the customer's, verified (the seller hears
 * `customer.updated`), the old one is told, and the answer is a new session of the customer.
 */
export async function verifyEmailUpdate(
  ctx: EmailUpdateContext,
  token: string,
  now = new Date(),
): Promise<{ token: string }> {
  const pending = await usableEmailUpdate(ctx.db, token, now);
  const seller = (await findOrganizationById(ctx.db.sql, pending.organizationId))!;
  const other = await findLiveCustomerOfOrganization(ctx.db, pending.organizationId, {
    email: pending.email,
  });
  if (other && other.id !== pending.customerId) {
    // Someone took the address since the request: this link can never work.
    await deleteEmailUpdate(ctx.db, pending.id, pending.tokenHash);
    throw new InvalidFieldError(['body', 'token'], takenBy(seller.name));
  }
  const oldEmail = pending.customer.email;
  const updated = await applyVerifiedEmail(ctx.db, pending.customer, pending.email, async (tx) => {
    // Conditional: the same link opened twice at once changes the address once.
    if (!(await deleteEmailUpdate(tx, pending.id, pending.tokenHash))) throw invalidLink();
  }).catch((error: unknown) => {
    // The unique address taken between the check above and the change.
    if (error instanceof InvalidFieldError)
      throw new InvalidFieldError(['body', 'token'], takenBy(seller.name));
    throw error;
  });
  await ctx.mailer.send({
    to: oldEmail,
    ...customerEmailChangedEmail({
      sellerName: seller.name,
      newEmail: updated.email,
      url: `${ctx.publicUrl}/portal/${encodeURIComponent(seller.slug)}`,
    }),
    idempotencyKey: `customer-email-changed:${pending.id}:${pending.tokenHash}`,
  });
  const session = await openCustomerSession(ctx.db, updated);
  return { token: session.token };
}
