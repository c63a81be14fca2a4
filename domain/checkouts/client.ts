// The buyer's side of a checkout, by its client secret (the hosted page, an embedding site): read
// it, change it, and confirm it, which hands the charge to the checkout's workflow.
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../infra/db.js';
import { redeemDiscount } from '../discounts/repository.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import { assertMayStartSubscription } from './subscription-limit.js';
import { assertTrialNotRedeemed } from './trial-abuse.js';
import { checkoutTrial } from './trials.js';
import { applyChanges, assertChangeable } from './changes.js';
import {
  findCheckout,
  findCheckoutBySecret,
  findEmbedOrigin,
  lockCheckout,
  updateCheckoutRow,
  type CheckoutRow,
} from './repository.js';
import { savesCardWithoutCharge } from './rules.js';
import {
  checkoutPublicConfirmedSchema,
  type CheckoutClientUpdate,
  type CheckoutConfirm,
  type CheckoutPublic,
  type CheckoutPublicConfirmed,
} from './schemas.js';
import {
  LOCKING_TRANSACTION,
  nowOf,
  recordCheckoutUpdated,
  renderPublicCheckout,
  type CheckoutsContext,
} from './service.js';

async function findBySecret(db: Db, clientSecret: string): Promise<CheckoutRow> {
  const row = await findCheckoutBySecret(db, clientSecret);
  if (!row) throw new AppError('ResourceNotFound', 'Checkout not found');
  return row;
}

export async function getClientCheckout(
  ctx: CheckoutsContext,
  clientSecret: string,
): Promise<CheckoutPublic> {
  const row = await findBySecret(ctx.db, clientSecret);
  if (row.status === 'expired' || (row.status === 'open' && row.expiresAt <= nowOf(ctx))) {
    throw new AppError('ExpiredCheckoutError', 'This checkout session has expired.');
  }
  return renderPublicCheckout(ctx, row);
}

/** The checkout behind a client secret, for CORS decisions (its embed origin). */
export async function embedOriginOf(db: Db, clientSecret: string): Promise<string | null> {
  return findEmbedOrigin(db, clientSecret);
}

export async function updateClientCheckout(
  ctx: CheckoutsContext,
  clientSecret: string,
  input: CheckoutClientUpdate,
): Promise<CheckoutPublic> {
  const { id } = await findBySecret(ctx.db, clientSecret);
  const row = await ctx.db.$transaction(async (tx) => {
    await lockCheckout(tx, id);
    const locked = (await findCheckout(tx, id))!;
    assertChangeable(locked, nowOf(ctx));
    const updated = await applyChanges(ctx, tx, locked, input, { confirming: false });
    await recordCheckoutUpdated(ctx, tx, updated);
    return updated;
  }, LOCKING_TRANSACTION);
  return renderPublicCheckout(ctx, row);
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * The buyer commits: the last changes are applied and checked strictly, the discount redemption is
 * taken (atomically, see `redeemDiscount`), the checkout becomes `confirmed` and its workflow is
 * told to charge. Nothing is charged here; the workflow does it, so a crash cannot double it.
 */
export async function confirmClientCheckout(
  ctx: CheckoutsContext,
  clientSecret: string,
  input: CheckoutConfirm,
): Promise<CheckoutPublicConfirmed> {
  const { id } = await findBySecret(ctx.db, clientSecret);
  const sessionToken = `tollgate_cst_${randomBytes(24).toString('base64url')}`;
  const { confirmation_token_id: confirmationTokenId, ...changes } = input;
  const row = await ctx.db.$transaction(async (tx) => {
    await lockCheckout(tx, id);
    const locked = (await findCheckout(tx, id))!;
    assertChangeable(locked, nowOf(ctx));
    let updated = await applyChanges(ctx, tx, locked, changes, { confirming: true });
    const email = updated.customerEmail;
    if (!email) throw new InvalidFieldError(['body', 'customer_email'], 'An email address is required.');
    if (updated.product.recurringInterval) {
      await assertMayStartSubscription(tx, {
        organizationId: updated.organizationId,
        allowMultipleSubscriptions: updated.organization.allowMultipleSubscriptions,
        checkoutId: updated.id,
        customerId: updated.customerId,
        externalId: updated.customerExternalId,
        email,
      });
    }
    if (checkoutTrial(updated) && savesCardWithoutCharge(updated)) {
      await assertTrialNotRedeemed(tx, {
        organizationId: updated.organizationId,
        preventTrialAbuse: updated.organization.preventTrialAbuse,
        email,
        customerId: updated.customerId,
      });
    }
    const paymentRequired = updated.totalAmount > 0 || savesCardWithoutCharge(updated);
    if (paymentRequired && !confirmationTokenId) {
      throw new InvalidFieldError(['body', 'confirmation_token_id'], 'A payment method is required.');
    }
    const redeem = updated.discountId !== null && updated.discountAmount > 0 && !updated.discountRedeemed;
    const discountId = updated.discountId;
    updated = await updateCheckoutRow(tx, id, {
      status: 'confirmed',
      discountRedeemed: redeem || updated.discountRedeemed,
      confirmationTokenId: paymentRequired ? confirmationTokenId : null,
      paymentAttempt: { increment: 1 },
      // A new attempt: a late event about the previous payment must not be taken for this one.
      paymentId: null,
      paymentClientSecret: null,
      failureReason: null,
      isPaymentRefused: false,
      customerSessionTokenHash: sha256(sessionToken),
    });
    await recordCheckoutUpdated(ctx, tx, updated);
    // Last, so the discount row is locked only for the commit that follows.
    if (redeem && !(await redeemDiscount(tx, discountId!))) {
      throw new InvalidFieldError(
        [
          'body',
          locked.discountId === discountId && !changes.discount_code ? 'discount_id' : 'discount_code',
        ],
        'This discount has been fully redeemed.',
      );
    }
    return updated;
  }, LOCKING_TRANSACTION);
  await ctx.workflows.signalConfirmed(row.id, row.paymentAttempt);
  return checkoutPublicConfirmedSchema.parse({
    ...(await renderPublicCheckout(ctx, row)),
    customer_session_token: sessionToken,
  });
}
