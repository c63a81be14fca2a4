// The steps of a checkout after confirmation, each one idempotent, run by the `checkout:<id>`
// workflow's activities: charge, then fulfil (customer + order) or record the failure; expire.

import { checkoutsSucceeded } from '../../infra/metrics.js';
import { keepPaymentMethod } from '../payment-methods/service.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { customerForPurchase, recordCustomerStateChanged } from '../customer-state/service.js';
import { findOrderOfCheckout } from '../orders/repository.js';
import { seatsLabel, storedUsagePricesOf } from '../prices/registry.js';
import { createPaidOrder } from '../orders/service.js';
import type {
  PaymentMethodSummary,
  PaymentProcessor,
  PaymentResult,
  RefundResult,
} from '../payments/processor.js';
import { releaseDiscount } from '../discounts/repository.js';
import { startSubscription } from '../subscriptions/service.js';
import type { RecurringInterval } from '../subscriptions/rules.js';
import {
  findCheckout,
  lockCheckout,
  recordCheckoutPayment,
  updateCheckoutRow,
  type CheckoutRow,
} from './repository.js';
import { savesCardWithoutCharge } from './rules.js';
import { checkoutTrial, trialOrderLabel } from './trials.js';
import { CARD_HAD_TRIAL_MESSAGE, cardHadTrial, recordTrialRedemption } from './trial-abuse.js';
import { trialEndOf } from '../subscriptions/trials.js';
import { answerOrRefusal, PaymentProcessorError, refusalReason } from '../payments/errors.js';
import { assignCheckoutPayments, recordPayment, settlePendingPayment } from '../payments/repository.js';
import { recordCheckoutUpdated, type CheckoutViewContext } from './service.js';
import {
  markBenefitGrantsStale,
  markCustomerMetersStale,
  clockTimeOfCustomer,
} from '../customers/repository.js';

export type ChargeOutcome =
  /** The checkout moved on (another attempt, already paid, expired): nothing to do for this one. */
  | { outcome: 'stale' }
  /** Nothing to charge (free, or fully discounted). */
  | { outcome: 'free' }
  | { outcome: 'succeeded'; paymentId: string; paymentMethod: PaymentMethodSummary | null }
  | { outcome: 'processing'; paymentId: string }
  /** The buyer has to authenticate (3-D Secure) on the hosted page; the outcome comes as an event. */
  | { outcome: 'requires_action'; paymentId: string }
  /**
   * A decline, whose message is the processor's words for the buyer, or (`refused`) a request the
   * processor refused, which charged nothing and whose message is the refusal for the seller.
   */
  | { outcome: 'failed'; paymentId: string | null; declineCode: string; message: string; refused: boolean };

/** The steps lock the checkout row; a burst of them (many expiries at once) waits its turn. */
const STEP_TRANSACTION = { maxWait: 60_000, timeout: 60_000 } as const;

/**
 * Charges confirmation `attempt` of a checkout. The processor's idempotency keys are derived from
 * the checkout and the attempt, so a retried or replayed activity returns the first answer instead
 * of charging again; a new confirmation after a decline is a new attempt and a new key.
 */
export async function chargeCheckout(
  ctx: CheckoutViewContext,
  processor: PaymentProcessor,
  input: { checkoutId: string; attempt: number },
): Promise<ChargeOutcome> {
  const row = await findCheckout(ctx.db, input.checkoutId);
  if (!row || row.status !== 'confirmed' || row.paymentAttempt !== input.attempt) return { outcome: 'stale' };
  const setupOnly = savesCardWithoutCharge(row);
  if (row.totalAmount === 0 && !setupOnly) return { outcome: 'free' };
  const result = await answerOrRefusal(requestCharge(processor, row, input.attempt, setupOnly));
  if (result instanceof PaymentProcessorError) {
    // Asked again it would be refused again: the attempt fails with the reason, and the buyer may
    // confirm again (a new attempt, a new key).
    const refused = {
      outcome: 'failed',
      paymentId: null,
      declineCode: result.code,
      message: refusalReason(result),
      refused: true,
    } as const;
    if (!setupOnly) await recordCheckoutTry(ctx, processor, row, input.attempt, refused, null);
    return refused;
  }
  if (setupOnly && result.status === 'succeeded' && (await refusedTrialOfCard(ctx, processor, row, result))) {
    return {
      outcome: 'failed',
      paymentId: null,
      declineCode: 'trial_already_redeemed',
      message: CARD_HAD_TRIAL_MESSAGE,
      refused: false,
    };
  }
  // A card setup charges nothing: it is no payment.
  if (!setupOnly) {
    const card = result.status === 'succeeded' || result.status === 'failed' ? result.paymentMethod : null;
    await recordCheckoutTry(ctx, processor, row, input.attempt, chargeOutcome(result), card ?? null);
  }
  if (result.paymentId) {
    await recordCheckoutPayment(ctx.db, {
      checkoutId: row.id,
      attempt: input.attempt,
      paymentId: result.paymentId,
      clientSecret: result.status === 'requires_action' ? result.clientSecret : null,
    });
  }
  return chargeOutcome(result);
}

/**
 * Trial abuse prevention by card: the card is known only once the processor saved it, so a trial
 * already given to it is refused here, after the setup and before the subscription starts. The
 * saved card is taken off again, and in one transaction the checkout fails this attempt with the
 * reason and drops its trial (`allow_trial: false`), so the buyer sees the full price and confirms
 * again to pay it. The checkout is no longer `confirmed` after that commit, so a retried activity is
 * stale and never charges on its own.
 */
async function refusedTrialOfCard(
  ctx: CheckoutViewContext,
  processor: PaymentProcessor,
  row: CheckoutRow,
  setup: { paymentId: string },
): Promise<boolean> {
  if (!row.organization.preventTrialAbuse || !checkoutTrial(row)) return false;
  const saved = await processor.savedPaymentMethod({ paymentId: setup.paymentId });
  const fingerprint = saved?.fingerprint ?? null;
  if (!fingerprint || !(await cardHadTrial(ctx.db, row.organizationId, fingerprint))) return false;
  await processor.detachPaymentMethod({ paymentMethodId: saved!.paymentMethodId });
  return ctx.db.$transaction(async (tx) => {
    await lockCheckout(tx, row.id);
    const current = await findCheckout(tx, row.id);
    if (!current || current.status !== 'confirmed' || current.paymentAttempt !== row.paymentAttempt)
      return false;
    if (current.discountRedeemed && current.discountId) await releaseDiscount(tx, current.discountId);
    const updated = await updateCheckoutRow(tx, row.id, {
      status: 'failed',
      allowTrial: false,
      failureReason: CARD_HAD_TRIAL_MESSAGE,
      isPaymentRefused: false,
      paymentClientSecret: null,
      discountRedeemed: false,
    });
    await recordCheckoutUpdated(ctx, tx, updated);
    return true;
  }, STEP_TRANSACTION);
}

/** The request key of a checkout's try: one per confirmation. */
const checkoutTryKey = (checkoutId: string, attempt: number) => `checkout:${checkoutId}:attempt:${attempt}`;

/** Attempt `attempt` as a payment (docs/payments.md, "Payments"), or its answer once it has one. */
async function recordCheckoutTry(
  ctx: CheckoutViewContext,
  processor: PaymentProcessor,
  row: CheckoutRow,
  attempt: number,
  outcome: Charged,
  card: PaymentMethodSummary | null,
): Promise<void> {
  const failed = outcome.outcome === 'failed' ? outcome : null;
  await recordPayment(ctx.db.sql, {
    organizationId: row.organizationId,
    requestKey: checkoutTryKey(row.id, attempt),
    processor: processor.name,
    processorPaymentId: outcome.paymentId,
    status: outcome.outcome === 'succeeded' ? 'succeeded' : failed ? 'failed' : 'pending',
    amount: row.totalAmount,
    currency: row.currency,
    card,
    declineReason: failed?.declineCode ?? null,
    declineMessage: failed?.message ?? null,
    checkoutId: row.id,
    customerId: row.customerId,
    at: new Date(),
  });
}

/** The processor's customer, then the payment (or the card setup) of `attempt`. */
async function requestCharge(
  processor: PaymentProcessor,
  row: CheckoutRow,
  attempt: number,
  setupOnly: boolean,
): Promise<PaymentResult> {
  const { processorCustomerId } = await processor.ensureCustomer({
    idempotencyKey: `checkout:${row.id}:customer`,
    email: row.customerEmail!,
    name: row.customerName,
    customerId: row.customerId ?? row.id,
  });
  const metadata = {
    checkout_id: row.id,
    organization_id: row.organizationId,
    attempt: String(attempt),
  };
  return setupOnly
    ? await processor.setUpOffSession({
        idempotencyKey: `checkout:${row.id}:setup:${attempt}`,
        confirmationTokenId: row.confirmationTokenId!,
        processorCustomerId,
        currency: row.currency,
        metadata,
        description: row.product.name,
      })
    : await processor.pay({
        idempotencyKey: `checkout:${row.id}:payment:${attempt}`,
        amount: row.totalAmount,
        currency: row.currency,
        confirmationTokenId: row.confirmationTokenId!,
        processorCustomerId,
        metadata,
        description: row.product.name,
        // A plan's renewals are charged later to the card the buyer pays with now.
        saveForOffSession: row.product.recurringInterval !== null,
      });
}

type Charged = Exclude<ChargeOutcome, { outcome: 'stale' | 'free' }>;

function chargeOutcome(result: PaymentResult): Charged {
  switch (result.status) {
    case 'succeeded':
      return { outcome: 'succeeded', paymentId: result.paymentId, paymentMethod: result.paymentMethod };
    case 'processing':
      return { outcome: 'processing', paymentId: result.paymentId };
    case 'requires_action':
      return { outcome: 'requires_action', paymentId: result.paymentId };
    case 'failed':
      return {
        outcome: 'failed',
        paymentId: result.paymentId,
        declineCode: result.declineCode,
        message: result.message,
        refused: false,
      };
  }
}

/**
 * The buyer never finished authenticating attempt `attempt`: the processor's payment is canceled so
 * a late authentication cannot charge a checkout that has moved on. Answers where the payment
 * ended, which is `succeeded` when the buyer authenticated just before the cancel.
 */
export async function cancelCheckoutPayment(
  ctx: CheckoutViewContext,
  processor: PaymentProcessor,
  input: { checkoutId: string; attempt: number },
): Promise<ChargeOutcome> {
  const row = await findCheckout(ctx.db, input.checkoutId);
  if (!row || row.status !== 'confirmed' || row.paymentAttempt !== input.attempt || !row.paymentId) {
    return { outcome: 'stale' };
  }
  const result = await processor.cancelPayment({
    paymentId: row.paymentId,
    idempotencyKey: `checkout:${row.id}:payment:${input.attempt}:cancel`,
  });
  if (result.status === 'requires_action') {
    throw new Error(`payment ${row.paymentId} still requires action after it was canceled`);
  }
  const outcome = chargeOutcome(result);
  const card = result.status === 'succeeded' || result.status === 'failed' ? result.paymentMethod : null;
  await recordCheckoutTry(ctx, processor, row, input.attempt, outcome, card ?? null);
  return outcome;
}

/**
 * The buyer paid (or had nothing to pay): the customer is found or created, the order is created
 * and the checkout succeeds, with their events, in one transaction. The order's unique
 * `checkout_id` and the status check make a second call a no-op that returns the same order.
 *
 * Only a confirmed checkout takes a payment, and only its current attempt's. Any other success is
 * an `orphan` the caller refunds: an earlier attempt's, or one that settles after the checkout
 * failed or expired (a bank that settled after days, or a payment the buyer completed with an old
 * client secret after editing the checkout). The buyer was told they were not charged, the order
 * would be priced from the checkout as it is now, and its discount redemption was given back.
 */
export async function fulfilCheckout(
  ctx: CheckoutViewContext,
  processor: PaymentProcessor,
  input: { checkoutId: string; paymentId: string | null },
): Promise<{
  orderId: string | null;
  orphan: boolean;
  subscriptionId: string | null;
  /** Other plans of the buyer moved onto the card just saved (it became their default card). */
  movedSubscriptionIds?: string[];
}> {
  // A plan's renewals are charged to the card its first payment saved. Asked before the
  // transaction: the processor is never waited for while rows are locked.
  const sold = input.paymentId ? await findCheckout(ctx.db, input.checkoutId) : null;
  const savedPaymentMethod =
    sold?.product.recurringInterval && input.paymentId
      ? await processor.savedPaymentMethod({ paymentId: input.paymentId })
      : null;
  // Set only by the call that made the order, so a retried step does not count a conversion twice.
  let converted: 'plan' | 'one_time' | null = null;
  const fulfilled = await ctx.db.$transaction(async (tx) => {
    await lockCheckout(tx, input.checkoutId);
    const existing = await findOrderOfCheckout(tx, input.checkoutId);
    if (existing) {
      return {
        orderId: existing.id,
        orphan: input.paymentId !== null && existing.paymentId !== input.paymentId,
        subscriptionId: existing.subscriptionId,
      };
    }
    const checkout = await findCheckout(tx, input.checkoutId);
    if (!checkout) return { orderId: null, orphan: false, subscriptionId: null };
    const isCurrent = checkout.status === 'confirmed' && checkout.paymentId === input.paymentId;
    if (!isCurrent) return { orderId: null, orphan: input.paymentId !== null, subscriptionId: null };
    const at = new Date();
    const { row: customer } = await customerForPurchase(tx, {
      organizationId: checkout.organizationId,
      customerId: checkout.customerId,
      externalId: checkout.customerExternalId,
      email: checkout.customerEmail!,
      name: checkout.customerName,
      billingAddress: (checkout.customerBillingAddress as Prisma.InputJsonValue | null) ?? null,
      taxId: checkout.customerTaxId,
    });
    // A customer on a test clock (sandbox) buys in the clock's time: the plan starts, and its
    // first order is dated, at the clock's frozen time, which later renewals follow.
    const clockTime = await clockTimeOfCustomer(tx, customer);
    const soldAt = clockTime ?? at;
    // A trial starts now (not when the checkout was opened) and only on a plan that saves a card.
    const trial = savesCardWithoutCharge(checkout) ? checkoutTrial(checkout) : null;
    const trialEnd = trial ? trialEndOf(trial, soldAt) : null;
    const subscription = checkout.product.recurringInterval
      ? await startSubscription(
          tx,
          {
            organizationId: checkout.organizationId,
            customerId: customer.id,
            productId: checkout.productId,
            checkoutId: checkout.id,
            recurringInterval: checkout.product.recurringInterval as RecurringInterval,
            recurringIntervalCount: checkout.product.recurringIntervalCount ?? 1,
            currency: checkout.currency,
            seats: checkout.seats,
            prices: subscriptionPricesOf(checkout),
            amount: checkout.netAmount,
            discountId: checkout.discountAmount > 0 ? checkout.discountId : null,
            metadata: checkout.metadata as Prisma.InputJsonValue,
            customFieldData: checkout.customFieldData as Prisma.InputJsonValue,
            // The processor that saved the card charges the renewals (the checkout's field is
            // Polar's wire value, always `stripe`).
            paymentProcessor: processor.name,
            savedPaymentMethod,
            at: soldAt,
            onTestClock: clockTime !== null,
            trialEnd,
          },
          ctx.publicUrl,
        )
      : null;
    // Recorded whether or not the organization prevents trial abuse now, so turning it on later
    // counts the trials already given.
    if (trialEnd) {
      await recordTrialRedemption(tx, {
        organizationId: checkout.organizationId,
        customerId: customer.id,
        email: checkout.customerEmail!,
        checkoutId: checkout.id,
        fingerprint: savedPaymentMethod?.fingerprint ?? null,
      });
    }
    // The card is the buyer's to see and manage in the portal from now on.
    const kept =
      subscription && savedPaymentMethod
        ? await keepPaymentMethod(tx, {
            organizationId: checkout.organizationId,
            customerId: customer.id,
            processor: processor.name,
            saved: savedPaymentMethod,
            makeDefault: false,
            at: soldAt,
          })
        : null;
    const order = await createPaidOrder(tx, {
      organizationId: checkout.organizationId,
      checkoutId: checkout.id,
      customerId: customer.id,
      productId: checkout.productId,
      productPriceId: checkout.productPriceId,
      productName: checkout.product.name,
      discountId: checkout.discountAmount > 0 ? checkout.discountId : null,
      currency: checkout.currency,
      seats: checkout.seats,
      // A trial's order is a $0 one for the trial period (Polar's): the first charge is at its end.
      ...(trialEnd
        ? {
            amount: 0,
            discountAmount: 0,
            netAmount: 0,
            taxAmount: 0,
            totalAmount: 0,
            itemLabel: trialOrderLabel(checkout.product.name, soldAt, trialEnd),
          }
        : {
            amount: checkout.amount,
            discountAmount: checkout.discountAmount,
            netAmount: checkout.netAmount,
            taxAmount: checkout.taxAmount ?? 0,
            totalAmount: checkout.totalAmount,
            ...(checkout.seats !== null
              ? { itemLabel: seatsLabel(checkout.product.name, checkout.seats) }
              : {}),
          }),
      billingName: checkout.customerBillingName ?? checkout.customerName,
      billingAddress: (checkout.customerBillingAddress as Prisma.InputJsonValue | null) ?? null,
      metadata: checkout.metadata as Prisma.InputJsonValue,
      customFieldData: checkout.customFieldData as Prisma.InputJsonValue,
      // For a plan that charged nothing today, the card setup that saved its card.
      paymentId: input.paymentId,
      ...(subscription ? { subscriptionId: subscription.id } : {}),
      at: soldAt,
    });
    if (input.paymentId) {
      // A payment that waited for the buyer (3-D Secure) settles here, through its event.
      await settlePendingPayment(
        tx,
        { processorPaymentId: input.paymentId },
        {
          status: 'succeeded',
          card: savedPaymentMethod?.summary ?? null,
          declineReason: null,
          declineMessage: null,
          at,
        },
      );
    }
    await assignCheckoutPayments(tx, {
      checkoutId: checkout.id,
      orderId: order.id,
      customerId: customer.id,
      processorPaymentId: input.paymentId,
    });
    const updated = await updateCheckoutRow(tx, checkout.id, {
      status: 'succeeded',
      customerId: customer.id,
      paymentId: input.paymentId,
      paymentClientSecret: null,
      failureReason: null,
      isPaymentRefused: false,
    });
    await recordCheckoutUpdated(ctx, tx, updated);
    await recordCustomerStateChanged(tx, customer);
    // What was bought is granted by the benefit-grant workflows (docs/benefits.md).
    await markBenefitGrantsStale(tx, [customer.id]);
    // A plan with metered prices shows their usage from now on (subscription.meters).
    if (subscription && storedUsagePricesOf(checkout.product.prices).length > 0) {
      await markCustomerMetersStale(tx, [customer.id]);
    }
    converted = subscription ? 'plan' : 'one_time';
    return {
      orderId: order.id,
      orphan: false,
      subscriptionId: subscription?.id ?? null,
      movedSubscriptionIds: kept?.movedSubscriptionIds ?? [],
    };
  }, STEP_TRANSACTION);
  // Counted once committed: a transaction rolled back made no order.
  if (converted) checkoutsSucceeded.inc({ kind: converted });
  return fulfilled;
}

/**
 * What a plan bought through this checkout bills each period: the chosen price at the amount the
 * buyer pays for it, and the product's metered prices, whose usage is billed at each period's end.
 */
function subscriptionPricesOf(checkout: CheckoutRow): { productPriceId: string; amount: number }[] {
  const metered = storedUsagePricesOf(checkout.product.prices).filter(
    (price) => price.id !== checkout.productPriceId,
  );
  return [
    { productPriceId: checkout.productPriceId, amount: checkout.amount },
    ...metered.map((price) => ({ productPriceId: price.id, amount: 0 })),
  ];
}

/**
 * Gives back a payment the checkout could not take (see `fulfilCheckout`): all of it, once, under
 * a key of its own. The refund carries no `refund_id`, so its processor events route nowhere.
 */
export async function refundOrphanPayment(
  ctx: CheckoutViewContext,
  processor: PaymentProcessor,
  input: { checkoutId: string; paymentId: string },
): Promise<RefundResult> {
  const checkout = await findCheckout(ctx.db, input.checkoutId);
  if (!checkout) throw new Error(`checkout ${input.checkoutId} vanished with an orphan payment`);
  const result = await answerOrRefusal(
    processor.refund({
      idempotencyKey: `checkout:${checkout.id}:orphan:${input.paymentId}`,
      paymentId: input.paymentId,
      amount: null,
      currency: checkout.currency,
      metadata: {
        checkout_id: checkout.id,
        organization_id: checkout.organizationId,
        reason: 'payment_not_taken_by_checkout',
      },
    }),
  );
  return result instanceof PaymentProcessorError
    ? { status: 'failed', processorRefundId: null, reason: refusalReason(result) }
    : result;
}

/**
 * The processor declined attempt `attempt` (or payment `paymentId`), or refused its request
 * (`refused`): the checkout is `failed` with the reason, its discount redemption is given back,
 * and the buyer may confirm again.
 */
export async function failCheckoutPayment(
  ctx: CheckoutViewContext,
  input: {
    checkoutId: string;
    attempt?: number;
    paymentId?: string | null;
    message: string;
    refused?: boolean;
  },
): Promise<boolean> {
  return ctx.db.$transaction(async (tx) => {
    await lockCheckout(tx, input.checkoutId);
    const checkout = await findCheckout(tx, input.checkoutId);
    if (!checkout || checkout.status !== 'confirmed') return false;
    if (input.attempt !== undefined && checkout.paymentAttempt !== input.attempt) return false;
    // An event names its payment: it only fails the attempt that made that payment.
    if (input.attempt === undefined && (!input.paymentId || checkout.paymentId !== input.paymentId))
      return false;
    if (checkout.discountRedeemed && checkout.discountId) await releaseDiscount(tx, checkout.discountId);
    // A try the processor answered keeps its answer; one it never settled (an event, a timeout)
    // fails here.
    await settlePendingPayment(
      tx,
      { requestKey: checkoutTryKey(checkout.id, checkout.paymentAttempt) },
      {
        status: 'failed',
        card: null,
        declineReason: 'timeout',
        declineMessage: input.message,
        at: new Date(),
      },
    );
    const updated = await updateCheckoutRow(tx, checkout.id, {
      status: 'failed',
      failureReason: input.message,
      isPaymentRefused: input.refused ?? false,
      paymentClientSecret: null,
      discountRedeemed: false,
    });
    await recordCheckoutUpdated(ctx, tx, updated);
    return true;
  }, STEP_TRANSACTION);
}

/**
 * Ends an open or failed checkout whose time is up at `nowMs` (the workflow's clock, so a
 * time-skipping test and production agree). A confirmed or paid checkout is never expired: the
 * status condition is checked under the row lock.
 */
export async function expireCheckout(
  ctx: CheckoutViewContext,
  input: { checkoutId: string; nowMs: number },
): Promise<'expired' | 'not_due'> {
  const { checkoutId } = input;
  return ctx.db.$transaction(async (tx) => {
    await lockCheckout(tx, checkoutId);
    const checkout = await findCheckout(tx, checkoutId);
    if (!checkout) return 'expired';
    if (checkout.status === 'expired') return 'expired';
    if (
      (checkout.status !== 'open' && checkout.status !== 'failed') ||
      checkout.expiresAt.getTime() > input.nowMs
    ) {
      return 'not_due';
    }
    if (checkout.discountRedeemed && checkout.discountId) await releaseDiscount(tx, checkout.discountId);
    const updated = await updateCheckoutRow(tx, checkout.id, { status: 'expired', discountRedeemed: false });
    await recordCheckoutUpdated(ctx, tx, updated);
    return 'expired';
  }, STEP_TRANSACTION);
}
