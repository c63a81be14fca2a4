// Payments that need the buyer (docs/subscriptions.md): a charge made without them (a renewal, a
// plan change billed now, a dunning try) that their bank wants them to confirm waits for them.
// They are emailed a link into the portal, where confirm-payment charges the order with them
// present (`customer-payment:<id>`, in the worker, which holds the processor); the processor's
// event then reaches the subscription's workflow, which settles the order like any paid try.
import { transaction, type Db } from '../../infra/db.js';
import type { CustomerCaller } from '../customer-sessions/rules.js';
import { customerPortalUrl, RECEIPT_SIGN_IN_TTL_MS } from '../customer-sessions/rules.js';
import { openCustomerSession } from '../customer-sessions/service.js';
import type {
  CustomerOrderConfirmPayment,
  CustomerOrderPaymentConfirmation,
  CustomerOrderPaymentStatus,
} from '../customer-portal/schemas.js';
import type { Mailer } from '../emails/mailer.js';
import { subscriptionPaymentConfirmationEmail } from '../emails/rules.js';
import { formatMoney } from '../money/rules.js';
import { CUSTOMER_PAYMENT_CREATION_MS, recordCustomerPaymentResult } from '../orders/customer-payments.js';
import {
  findCustomerPayment,
  findCustomerPaymentByPaymentId,
  findOrderWithItems,
  insertCustomerPayment,
  lastPaymentAttemptOf,
  listCustomerPaymentsOfOrder,
  lockOrder,
  markCustomerPaymentRefunded,
  OPEN_CUSTOMER_PAYMENT_STATUSES,
  recordPaymentAttempt,
} from '../orders/repository.js';
import { findOrderOfCustomer, markSubscriptionOrderPaid } from '../orders/service.js';
import { findOrganizationById } from '../organizations/repository.js';
import { findLivePaymentMethod } from '../payment-methods/repository.js';
import { refusedPaymentNotice } from '../payments/errors.js';
import { CUSTOMER_CONFIRMATION_METADATA, type PaymentProcessor } from '../payments/processor.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import { orderRelationsOf, type SubscriptionBillingContext } from './billing-step.js';
import { settleSubscriptionCharge } from './collection.js';
import { emailDate, sellerOf } from './notices.js';
import {
  findSubscription,
  findSubscriptionForStep,
  findSubscriptionWorkflowRow,
  findTriedUnpaidOrders,
  subscriptionNow,
  type SubscriptionRow,
} from './repository.js';
import {
  awaitsCustomer,
  lastTryAt,
  type CustomerPaymentInput,
  type CustomerPaymentOutcome,
  type CustomerPaymentResult,
} from './rules.js';
import { BILLABLE_STATUSES } from './schemas.js';
import type { SubscriptionWorkflows } from './service.js';
import { isEnded } from './workflow-state.js';

/** As many payments of one order as Polar lets its customer make (its portal's retry limit). */
export const CUSTOMER_PAYMENTS_PER_ORDER = 5;

export type CustomerPaymentContext = {
  db: Db;
  workflows: Pick<SubscriptionWorkflows, 'payAsCustomer'>;
};

const notEligible = (detail: string) => new AppError('OrderNotEligibleForRetry', detail);

/** The card (or new card) the customer pays with, on the processor customer it belongs to. */
async function paymentSourceOf(
  db: Db,
  customer: CustomerCaller,
  subscription: SubscriptionRow,
  body: CustomerOrderConfirmPayment,
): Promise<Pick<CustomerPaymentInput, 'source' | 'processorCustomerId'> & { card: string | null }> {
  if (body.payment_method_id) {
    const card = await findLivePaymentMethod(db, customer.customerId, body.payment_method_id);
    if (!card || card.processor !== subscription.paymentProcessor) {
      throw new InvalidFieldError(
        ['body', 'payment_method_id'],
        'This is not one of your saved cards: choose one from your billing page.',
      );
    }
    return {
      source: { paymentMethodId: card.processorPaymentMethodId },
      processorCustomerId: card.processorCustomerId,
      card: card.processorPaymentMethodId,
    };
  }
  if (!subscription.processorCustomerId) {
    throw notEligible('This subscription has no card on file to pay with: add a card on your billing page.');
  }
  return {
    source: { confirmationTokenId: body.confirmation_token_id! },
    processorCustomerId: subscription.processorCustomerId,
    card: null,
  };
}

/**
 * Polar's confirm-payment: the customer pays their plan's unpaid order now, with a saved card or
 * a new one. Only the order the plan is collecting, once it was tried (before, the first try is
 * on its way); never twice at once (409) nor more than five times (429). The answer is the
 * processor's first: `requires_action` carries the client secret the bank's page needs.
 */
export async function confirmCustomerOrderPayment(
  ctx: CustomerPaymentContext,
  customer: CustomerCaller,
  orderId: string,
  body: CustomerOrderConfirmPayment,
): Promise<CustomerOrderPaymentConfirmation> {
  const order = await findOrderOfCustomer(ctx.db, customer, orderId);
  if (order.status !== 'pending') throw notEligible('This order is paid: there is nothing left to pay.');
  const subscription = order.subscriptionId ? await findSubscription(ctx.db, order.subscriptionId) : null;
  if (!subscription) throw notEligible('Only an unpaid order of a subscription can be paid here.');
  if (isEnded(subscription) || !BILLABLE_STATUSES.includes(subscription.status as never)) {
    throw notEligible('This subscription has ended: its orders can no longer be paid.');
  }
  const state = await findSubscriptionWorkflowRow(ctx.db.sql, subscription.id);
  if (state?.unpaidOrderId !== order.id || !state.unpaidLastTry) {
    throw notEligible('We have not charged this order yet: its payment is on its way.');
  }
  const { source, processorCustomerId, card } = await paymentSourceOf(ctx.db, customer, subscription, body);
  const at = subscriptionNow(subscription);
  const payment = await transaction(ctx.db, async (tx) => {
    await lockOrder(tx.prisma, order.id);
    const earlier = await listCustomerPaymentsOfOrder(tx.prisma, order.id);
    if (earlier.length >= CUSTOMER_PAYMENTS_PER_ORDER) {
      throw new AppError(
        'ManualRetryLimitExceeded',
        `This order has been tried ${earlier.length} times here. Add another card on your billing page, or contact the seller.`,
      );
    }
    const sending = earlier.some(
      (each) =>
        each.status === 'creating' && at.getTime() - each.createdAt.getTime() < CUSTOMER_PAYMENT_CREATION_MS,
    );
    if (sending) {
      throw new AppError(
        'PaymentAlreadyInProgress',
        'Your payment of this order is being sent: wait for its answer.',
      );
    }
    return insertCustomerPayment(tx.prisma, { orderId: order.id, paymentMethodId: card, createdAt: at });
  });
  try {
    const result = await ctx.workflows.payAsCustomer({
      customerPaymentId: payment.id,
      orderId: order.id,
      subscriptionId: subscription.id,
      processorCustomerId,
      source,
    });
    return { status: result.status, client_secret: result.clientSecret, error: result.error };
  } catch (error) {
    // Its workflow ended without an answer (no worker in time): the buyer may try again at once.
    // A payment it made all the same still settles the order by its event.
    await recordCustomerPaymentResult(
      ctx.db,
      payment.id,
      {
        status: 'failed',
        paymentId: null,
        declineCode: 'unavailable',
        message: 'The payment could not be sent.',
      },
      at,
    );
    throw error;
  }
}

/**
 * Polar's payment-status: how the order's latest payment stands, the customer's own or a try made
 * without them, whichever came last; `succeeded` once the order is paid.
 */
export async function customerOrderPaymentStatus(
  db: Db,
  customer: CustomerCaller,
  orderId: string,
): Promise<CustomerOrderPaymentStatus> {
  const order = await findOrderOfCustomer(db, customer, orderId);
  if (order.status !== 'pending') {
    return { status: order.paymentId ? 'succeeded' : 'no_payment', error: null };
  }
  const [lastTry, [ownPayment]] = await Promise.all([
    lastPaymentAttemptOf(db.sql, order.id),
    listCustomerPaymentsOfOrder(db, order.id),
  ]);
  if (ownPayment && (!lastTry || ownPayment.createdAt >= lastTry.createdAt)) {
    if ((OPEN_CUSTOMER_PAYMENT_STATUSES as readonly string[]).includes(ownPayment.status)) {
      return { status: 'pending', error: null };
    }
    if (ownPayment.status === 'succeeded') return { status: 'succeeded', error: null };
    return { status: 'failed', error: ownPayment.message ?? 'The payment did not go through.' };
  }
  if (!lastTry) return { status: 'no_payment', error: null };
  if (lastTry.status === 'succeeded') return { status: 'succeeded', error: null };
  // A refused try's message is the processor's, for the seller (docs/payments.md).
  if (lastTry.isRefused) {
    const seller = await findOrganizationById(db.sql, customer.organizationId);
    return { status: 'failed', error: refusedPaymentNotice(seller?.name ?? 'the seller') };
  }
  return { status: 'failed', error: lastTry.message ?? 'The payment did not go through.' };
}

/**
 * `customer-payment:<id>`'s step: asks the processor to charge the order with the customer
 * present (their bank may then ask them to authenticate), under a key of the payment, so a retry
 * gets the first answer. Payments of the same order they left unfinished are canceled first;
 * one that went through meanwhile answers instead.
 */
export async function payOrderAsCustomer(
  ctx: { db: Db; processor: PaymentProcessor },
  input: CustomerPaymentInput,
): Promise<CustomerPaymentResult> {
  const [payment, order, subscription] = await Promise.all([
    findCustomerPayment(ctx.db, input.customerPaymentId),
    findOrderWithItems(ctx.db.sql, input.orderId),
    findSubscription(ctx.db, input.subscriptionId),
  ]);
  if (!payment || !order || !subscription) {
    return { status: 'failed', clientSecret: null, error: 'This order can no longer be paid.' };
  }
  const at = subscriptionNow(subscription);
  if (order.status !== 'pending') {
    await recordCustomerPaymentResult(
      ctx.db,
      payment.id,
      { status: 'failed', paymentId: null, declineCode: 'canceled', message: 'The order was paid already.' },
      at,
    );
    return { status: 'succeeded', clientSecret: null, error: null };
  }
  const unfinished = (await listCustomerPaymentsOfOrder(ctx.db, order.id)).filter(
    (each) => each.id !== payment.id && each.paymentId && each.status === 'requires_action',
  );
  for (const earlier of unfinished) {
    const ended = await ctx.processor.cancelPayment({
      paymentId: earlier.paymentId!,
      idempotencyKey: `order-customer-payment:${earlier.id}:cancel`,
    });
    await recordCustomerPaymentResult(ctx.db, earlier.id, ended, at);
    if (ended.status === 'succeeded') {
      await recordCustomerPaymentResult(
        ctx.db,
        payment.id,
        {
          status: 'failed',
          paymentId: null,
          declineCode: 'canceled',
          message: 'An earlier payment went through.',
        },
        at,
      );
      return { status: 'succeeded', clientSecret: null, error: null };
    }
  }
  const result = await ctx.processor.pay({
    idempotencyKey: `order-customer-payment:${payment.id}`,
    amount: order.totalAmount,
    currency: order.currency,
    confirmationTokenId:
      'paymentMethodId' in input.source ? input.source.paymentMethodId : input.source.confirmationTokenId,
    processorCustomerId: input.processorCustomerId,
    metadata: {
      order_id: order.id,
      subscription_id: subscription.id,
      organization_id: subscription.organizationId,
      ...CUSTOMER_CONFIRMATION_METADATA,
    },
    description: `${subscription.product.name} (paid by the customer)`,
    // A new card pays this order only; the plan keeps renewing on its card until the customer
    // saves another as their default.
    saveForOffSession: false,
  });
  await recordCustomerPaymentResult(ctx.db, payment.id, result, at);
  return {
    status: result.status,
    clientSecret: result.status === 'requires_action' ? result.clientSecret : null,
    error: result.status === 'failed' ? result.message : null,
  };
}

export type CustomerPaymentSettlement = { outcome: 'paid' | 'failed' | 'refunded' | 'stale' };

/**
 * The subscription workflow's step for a processor event about a customer's payment: a failure is
 * recorded on it (the plan stays as it was: the dunning schedule goes on); a success pays the
 * order as a paid try does (`active` again, `order.paid`). A plan that ended meanwhile still has
 * its order marked paid, since the money was taken. An order paid already by something else gets
 * this payment back at once, so it is never paid twice.
 */
export async function settleCustomerPayment(
  ctx: SubscriptionBillingContext,
  processor: PaymentProcessor,
  input: { subscriptionId: string; outcome: CustomerPaymentOutcome; nowMs: number },
): Promise<CustomerPaymentSettlement> {
  const { outcome } = input;
  const at = new Date(input.nowMs);
  if (!outcome.paymentId) return { outcome: 'stale' };
  const paymentId = outcome.paymentId;
  // The sandbox reports a payment that ends at once before `payOrderAsCustomer` has recorded its
  // id: that step records how it ended, and the order is settled all the same.
  const payment = await findCustomerPaymentByPaymentId(ctx.db, paymentId);
  if (payment && payment.orderId !== outcome.orderId) return { outcome: 'stale' };
  if (outcome.status === 'failed') {
    if (payment) {
      await recordCustomerPaymentResult(
        ctx.db,
        payment.id,
        {
          status: 'failed',
          paymentId,
          declineCode: outcome.declineCode ?? 'payment_failed',
          message: outcome.message ?? 'The payment did not go through.',
        },
        at,
      );
    }
    return { outcome: 'failed' };
  }
  if (payment) {
    await recordCustomerPaymentResult(
      ctx.db,
      payment.id,
      { status: 'succeeded', paymentId, paymentMethod: null },
      at,
    );
  }
  const card = payment?.paymentMethodId ?? null;
  // The row may move between this read and the settlement's lock (a card change): read again.
  for (let read = 0; read < 3; read += 1) {
    const [row, order] = await Promise.all([
      findSubscriptionForStep(ctx.db, input.subscriptionId),
      findOrderWithItems(ctx.db.sql, outcome.orderId),
    ]);
    if (!row || !order || order.subscriptionId !== row.id) return { outcome: 'stale' };
    if (order.status !== 'pending') {
      if (order.paymentId === paymentId) return { outcome: 'paid' };
      await processor.refund({
        idempotencyKey: `order-customer-payment:${paymentId}:refund`,
        paymentId,
        amount: null,
        currency: order.currency,
        metadata: { order_id: order.id },
      });
      if (payment) {
        await markCustomerPaymentRefunded(ctx.db, payment.id, 'Given back: the order was paid already.', at);
      }
      return { outcome: 'refunded' };
    }
    if (isEnded(row)) {
      await transaction(ctx.db, async (tx) => {
        const paid = await markSubscriptionOrderPaid(tx, order, orderRelationsOf(row), paymentId, at);
        if (!paid) return;
        await recordPaymentAttempt(tx.sql, {
          orderId: order.id,
          attempt: row.failedAttempts + 1,
          status: 'succeeded',
          paymentId,
          message: 'Paid by the customer after the subscription ended.',
          paymentMethodId: card,
          createdAt: at,
        });
      });
      return { outcome: 'paid' };
    }
    const settled = await settleSubscriptionCharge(
      ctx,
      {
        attempt: row.failedAttempts + 1,
        result: { status: 'succeeded', paymentId, paymentMethod: null },
        nowMs: input.nowMs,
        byCustomer: { paymentMethodId: card },
      },
      row,
      order,
    );
    if (settled.outcome === 'paid') return { outcome: 'paid' };
  }
  throw new Error(
    `subscription ${input.subscriptionId} kept changing while its customer's payment was settled`,
  );
}

/**
 * The email of a try the bank wants the buyer to authenticate: a link that signs them in to
 * their orders, and the day the plan ends unless they confirm. Keyed as the failed try's email.
 */
export async function notifyPaymentConfirmationNeeded(
  ctx: SubscriptionBillingContext,
  mailer: Mailer,
  input: { subscriptionId: string; orderId: string; attempt: number; nextAttemptAt: string | null },
): Promise<'sent' | 'duplicate' | 'gone'> {
  const [row, order] = await Promise.all([
    findSubscriptionForStep(ctx.db, input.subscriptionId),
    findOrderWithItems(ctx.db.sql, input.orderId),
  ]);
  if (!row || !order) return 'gone';
  const { token } = await openCustomerSession(ctx.db, row.customer, RECEIPT_SIGN_IN_TTL_MS);
  return mailer.send({
    to: row.customer.email,
    idempotencyKey: `subscription:${row.id}:order:${order.id}:failed:${input.attempt}`,
    ...subscriptionPaymentConfirmationEmail({
      customerName: row.customer.name,
      ...sellerOf(ctx, row),
      portalUrl: customerPortalUrl(ctx.publicUrl, row.organization.slug, token, 'orders'),
      productName: row.product.name,
      amount: formatMoney(order.totalAmount, order.currency),
      firstTry: input.attempt === 1,
      endsOn: input.nextAttemptAt
        ? emailDate(lastTryAt(ctx.retryDays, input.attempt, new Date(input.nextAttemptAt)), row)
        : null,
    }),
  });
}

export type PaymentConfirmation = { orderId: string; savedCardId: string | null };

/**
 * For the portal: which of these plans has an unpaid order waiting for its customer, and the
 * saved card to confirm it with. One statement for a whole list.
 */
export async function paymentConfirmationsOf(
  db: Db,
  subscriptionIds: string[],
): Promise<Map<string, PaymentConfirmation>> {
  const unpaid = await findTriedUnpaidOrders(db.sql, [...new Set(subscriptionIds)], BILLABLE_STATUSES);
  return new Map(
    unpaid
      .filter((each) => awaitsCustomer(each.lastTry, each.paymentMethodId))
      .map((each) => [each.subscriptionId, { orderId: each.orderId, savedCardId: each.savedCardId }]),
  );
}
