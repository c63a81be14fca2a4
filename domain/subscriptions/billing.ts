// The steps of a subscription's life after it started, each one idempotent, run by the
// `subscription:<id>` workflow's activities: renew (or end) at the end of a period, charge an
// unpaid order, settle the charge (paid, or dunning), and tell the customer a charge failed.
import type { Prisma } from '../../generated/prisma/client.js';
import { transaction, type Db, type Tx } from '../../infra/db.js';
import { requestGrantCycles } from '../benefit-grants/repository.js';
import { recordCustomerStateChanged } from '../customer-state/service.js';
import {
  findLiveCustomer,
  markBenefitGrantsStaleSql,
  markCustomerMetersStale,
} from '../customers/repository.js';
import { recordEvents } from '../webhook-outbox/repository.js';
import type { WebhookEventType } from '../webhook-outbox/schemas.js';
import type { Mailer } from '../emails/mailer.js';
import {
  findOrderStatusByRequestKey,
  findOrderWithItems,
  lastPaymentAttemptOf,
  recordPaymentAttempt,
  type OrderRow,
  type OrderWithItems,
} from '../orders/repository.js';
import {
  createSubscriptionOrder,
  markSubscriptionOrderPaid,
  type SubscriptionOrderRelations,
} from '../orders/service.js';
import { answerOrRefusal, PaymentProcessorError, refusalReason } from '../payments/errors.js';
import type {
  OffSessionPaymentResult,
  PaymentMethodSummary,
  PaymentProcessor,
  ProcessorName,
} from '../payments/processor.js';
import { recordPayment } from '../payments/repository.js';
import type { TaxCalculator } from '../tax/calculator.js';
import {
  findSubscriptionForStep,
  findSubscriptionWorkflowRow,
  insertPendingItem,
  lockSubscriptionForStep,
  markCaughtUpWithClock,
  markPendingItemsBilled,
  updateSubscriptionRecord,
  type SubscriptionRow,
  type SubscriptionStepRow,
  type SubscriptionWorkflowRow,
} from './repository.js';
import { billedCustomerOf, cycleKey, openedPeriod, planRenewal, priceRenewal } from './renewal-pricing.js';
import {
  AWAITING_CUSTOMER_MESSAGE,
  AUTHENTICATION_REQUIRED,
  awaitsCustomer,
  nextAttemptAfter,
  renewalMakesOrder,
  type SubscriptionWorkflowState,
} from './rules.js';
import { ACTIVE_STATUSES, BILLABLE_STATUSES, type SubscriptionStatus } from './schemas.js';
import { subscriptionView } from './views.js';
import { notifySubscription } from './notices.js';
import { stopCustomerPayments } from '../orders/customer-payments.js';

export type SubscriptionBillingContext = {
  db: Db;
  publicUrl: string;
  tax: TaxCalculator;
  /** Days between the tries of a failed renewal (domain/subscriptions/rules.ts). */
  retryDays: readonly number[];
};

/** Each step locks the subscription row; a burst of renewals at one instant waits its turn. */
const STEP_TRANSACTION = { maxWait: 60_000, timeout: 60_000 } as const;

/** Ended (canceled at the period's end, revoked, unpaid): it renews no more. */
export const isEnded = (row: { endedAt: Date | null; status: string }) =>
  row.endedAt !== null || !BILLABLE_STATUSES.includes(row.status as SubscriptionStatus);

export async function subscriptionWorkflowState(
  db: Db,
  subscriptionId: string,
): Promise<SubscriptionWorkflowState | null> {
  const row = await findSubscriptionWorkflowRow(db.sql, subscriptionId);
  if (!row) return null;
  // A subscription set to cancel is not charged again: cancelling stops the retries of dunning
  // (Polar kept charging, #13077); it ends at the end of its period. The one order an ended plan
  // still collects is its final one (debits of plan changes not billed yet).
  const final =
    collectsFinalOrder(row) && row.nextPeriodOrderId
      ? { id: row.nextPeriodOrderId, createdAt: row.nextPeriodOrderCreatedAt! }
      : null;
  const unpaid =
    final ??
    (isEnded(row) || row.cancelAtPeriodEnd || !row.unpaidOrderId
      ? null
      : { id: row.unpaidOrderId, createdAt: row.unpaidOrderCreatedAt! });
  return {
    ended: isEnded(row) && !final,
    currentPeriodIndex: row.currentPeriodIndex,
    currentPeriodEndMs: row.currentPeriodEnd.getTime(),
    canceledAtMs: !isEnded(row) && row.cancelAtPeriodEnd && row.canceledAt ? row.canceledAt.getTime() : null,
    unpaidOrder: unpaid
      ? {
          id: unpaid.id,
          attempt: row.failedAttempts + 1,
          // A plan change billed now is due when it was made, not at the start of its period.
          dueAtMs:
            row.nextAttemptAt?.getTime() ??
            row.endedAt?.getTime() ??
            Math.max(row.currentPeriodStart.getTime(), unpaid.createdAt.getTime()),
          awaitsCustomer: !final && awaitsCustomer(row.unpaidLastTry, row.paymentMethodId),
        }
      : null,
    testClock: row.clockFrozenTime
      ? {
          frozenTimeMs: row.clockFrozenTime.getTime(),
          caughtUpToMs: row.clockCaughtUpTo?.getTime() ?? null,
        }
      : null,
  };
}

/** The workflow has lived through its test clock's time up to `frozenTimeMs`. */
export async function reportCaughtUpWithClock(
  db: Db,
  input: { subscriptionId: string; frozenTimeMs: number },
): Promise<void> {
  await markCaughtUpWithClock(db, [input.subscriptionId], new Date(input.frozenTimeMs));
}

type LifeFields = Pick<
  SubscriptionWorkflowRow,
  'status' | 'endedAt' | 'cancelAtPeriodEnd' | 'failedAttempts' | 'nextAttemptAt'
>;

/**
 * A plan that ended at its period's end (not revoked, not unpaid) still collects its final order
 * (debits not billed yet) until its tries are given up (a last failed try leaves no next one).
 */
const collectsFinalOrder = (row: LifeFields) =>
  row.status === 'canceled' &&
  row.endedAt !== null &&
  row.cancelAtPeriodEnd &&
  !(row.failedAttempts > 0 && row.nextAttemptAt === null);

/** The final order of a plan that ended at its period's end, while it is still to be collected. */
async function finalOrderOf(
  db: Db | Prisma.TransactionClient,
  row: LifeFields & { id: string; currentPeriodIndex: number },
) {
  if (!collectsFinalOrder(row)) return null;
  const order = await findOrderStatusByRequestKey(db, cycleKey(row.id, row.currentPeriodIndex + 1));
  return order?.status === 'pending' ? order : null;
}

/**
 * The subscription under its lock, for a step prepared from `before` (read without the lock): its
 * own fields and unbilled proration lines as they are now, its relations as read before. A plan,
 * price or discount change that landed in between fails the step; its retry reads again.
 */
async function lockStepRow(tx: Tx, before: SubscriptionStepRow): Promise<SubscriptionStepRow | null> {
  const locked = await lockSubscriptionForStep(tx.sql, before.id);
  if (!locked) return null;
  const { record, prices, pendingItems } = locked;
  const samePrices =
    prices.length === before.prices.length &&
    prices.every(
      (price, index) =>
        price.productPriceId === before.prices[index]!.productPriceId &&
        price.amount === before.prices[index]!.amount,
    );
  if (
    !samePrices ||
    record.productId !== before.productId ||
    record.discountId !== before.discountId ||
    record.customerId !== before.customerId
  ) {
    throw new Error(`subscription ${before.id} changed while its step was being prepared`);
  }
  return { ...before, ...record, pendingItems };
}

/** What an order of this subscription refers to, for its events. */
export const orderRelationsOf = (row: SubscriptionStepRow): SubscriptionOrderRelations => ({
  customer: row.customer,
  product: row.product,
  discount: row.discount,
  subscription: row,
});

export type CycleOutcome =
  /** The period is not over yet at `nowMs`, or the workflow is behind the row: nothing done. */
  | { outcome: 'not_due' | 'stale' }
  | { outcome: 'renewed'; orderId: string | null }
  | { outcome: 'ended'; orderId: string | null };

/**
 * A cycle as the renewal goes on with it: the subscription after it and the order it made, when
 * this call made them (a retry that finds the work done has neither, and reads again).
 */
type CycleResult = {
  cycled: CycleOutcome;
  made: { row: SubscriptionStepRow; order: OrderRow | null } | null;
};

/**
 * Period `index` begins (the current one ended at or before `nowMs`): the subscription moves into
 * it, its discount is dropped once its duration is over, and the renewal order bills the new
 * period's fees with the proration lines waiting for it. A subscription set to cancel ends
 * instead, its final order billing what is pending (credit left is owed, not carried: `cycleBill`).
 * One transaction; the order's request key makes a retry return the same order.
 */
async function cycleSubscription(
  ctx: SubscriptionBillingContext,
  input: { subscriptionId: string; index: number; nowMs: number },
): Promise<CycleResult> {
  const key = cycleKey(input.subscriptionId, input.index);
  const before = await findSubscriptionForStep(ctx.db, input.subscriptionId);
  if (!before) return { cycled: { outcome: 'stale' }, made: null };
  if (isEnded(before) || before.currentPeriodIndex !== input.index - 1) {
    // Done already (a retry after the commit): the same order again.
    const done = await findOrderStatusByRequestKey(ctx.db, key);
    if (!done) return { cycled: { outcome: 'stale' }, made: null };
    const outcome = done.billingReason === 'subscription_cycle' ? 'renewed' : 'ended';
    return { cycled: { outcome, orderId: done.id }, made: null };
  }
  if (before.currentPeriodEnd.getTime() > input.nowMs) return { cycled: { outcome: 'not_due' }, made: null };
  // Tax is quoted before the transaction: Stripe Tax is never waited for while the row is locked.
  const quoted = await priceRenewal(ctx, before, input.index);
  const customer = billedCustomerOf(before);

  return transaction(
    ctx.db,
    async (tx): Promise<CycleResult> => {
      const row = await lockStepRow(tx, before);
      if (!row || isEnded(row) || row.currentPeriodIndex !== input.index - 1)
        return { cycled: { outcome: 'stale' }, made: null };
      const usage = quoted.usage.map((each) => each.line);
      const plan = planRenewal(row, input.index, usage);
      if (plan.bill.net !== quoted.plan.bill.net) {
        // Changed between the quote and the lock (a plan change): the activity's retry quotes again.
        throw new Error(`subscription ${row.id} changed while its renewal was being priced`);
      }
      const at = new Date(input.nowMs);
      const ending = row.cancelAtPeriodEnd;
      const order = renewalMakesOrder(plan.bill)
        ? await createSubscriptionOrder(
            tx,
            {
              organizationId: row.organizationId,
              subscriptionId: row.id,
              customerId: row.customerId,
              productId: row.productId,
              discountId: plan.bill.discount > 0 ? row.discountId : null,
              billingReason: 'subscription_cycle',
              currency: row.currency,
              items: plan.bill.items,
              subtotalAmount: plan.bill.subtotal,
              discountAmount: plan.bill.discount,
              netAmount: plan.bill.net,
              taxAmount: quoted.taxAmount,
              billingName: customer?.name ?? null,
              billingAddress: customer?.billingAddress ?? null,
              metadata: row.metadata,
              requestKey: key,
              at,
            },
            orderRelationsOf(row),
          )
        : null;
      if (order) await markPendingItemsBilled(tx.sql, plan.pendingIds, order.id);
      if (plan.bill.carriedCredit > 0) {
        await insertPendingItem(tx.sql, {
          subscriptionId: row.id,
          label: 'Credit carried over',
          amount: -plan.bill.carriedCredit,
          createdAt: at,
        });
      }
      if (ending) {
        const ended = await updateSubscriptionRecord(tx.sql, row.id, {
          status: 'canceled',
          endedAt: row.endsAt ?? row.currentPeriodEnd,
          // The final order (if any) is collected from its first try.
          failedAttempts: 0,
          nextAttemptAt: null,
        });
        const after = { ...row, ...ended };
        await recordSubscriptionChange(ctx, tx, row, after, at);
        return { cycled: { outcome: 'ended', orderId: order?.id ?? null }, made: { row: after, order } };
      }
      // The new period cycles the plan's benefits (a meter credit resets and credits again).
      await requestGrantCycles(tx.sql, row.id, plan.start);
      // The metered prices' usage starts again with the new period (subscription.meters).
      if (usage.length > 0) await markCustomerMetersStale(tx.prisma, [row.customerId]);
      const renewed = await updateSubscriptionRecord(tx.sql, row.id, {
        ...openedPeriod(row, plan),
        failedAttempts: 0,
        nextAttemptAt: null,
      });
      const after = { ...row, ...renewed, ...(plan.keepsDiscount ? {} : { discount: null }) };
      await recordSubscriptionChange(ctx, tx, row, after, at, { cycled: true });
      return { cycled: { outcome: 'renewed', orderId: order?.id ?? null }, made: { row: after, order } };
    },
    STEP_TRANSACTION,
  );
}

/**
 * `subscription.updated`, then as the change calls for `.cycled` (a new period), `.active` (back in the active group),
 * `.canceled` (newly set to cancel), `.uncanceled`, `.revoked` (left the billable group), and
 * `customer.state_changed` when what the customer holds changed (Polar's order of events).
 */
export async function recordSubscriptionChange(
  ctx: { publicUrl: string },
  tx: Tx,
  before: Pick<
    SubscriptionRow,
    'status' | 'canceledAt' | 'cancelAtPeriodEnd' | 'endedAt' | 'amount' | 'productId'
  >,
  after: SubscriptionRow,
  at: Date,
  /** A new period began (a renewal): `subscription.cycled` follows `.updated`. */
  change: { cycled?: boolean } = {},
): Promise<void> {
  const data = subscriptionView(after, ctx.publicUrl);
  const types: WebhookEventType[] = ['subscription.updated'];
  if (change.cycled) types.push('subscription.cycled');
  const wasActive = ACTIVE_STATUSES.includes(before.status as SubscriptionStatus);
  const isActive = ACTIVE_STATUSES.includes(after.status as SubscriptionStatus);
  if (isActive && !wasActive) types.push('subscription.active');
  if (after.canceledAt && !before.canceledAt) types.push('subscription.canceled');
  if (!after.cancelAtPeriodEnd && before.cancelAtPeriodEnd && !after.endedAt)
    types.push('subscription.uncanceled');
  if (isEnded(after) && !isEnded(before)) types.push('subscription.revoked');
  await recordEvents(
    tx.sql,
    types.map((type) => ({ organizationId: after.organizationId, type, data, at })),
  );
  // A plan holds its product's benefits until it ends (past_due keeps them through dunning).
  if (isEnded(before) !== isEnded(after) || before.productId !== after.productId) {
    await markBenefitGrantsStaleSql(tx.sql, [after.customerId]);
  }
  if (wasActive !== isActive || isEnded(after) !== isEnded(before) || after.amount !== before.amount) {
    const customer = await findLiveCustomer(tx.prisma, after.customerId);
    if (customer) await recordCustomerStateChanged(tx.prisma, customer);
  }
}

/**
 * The processor refused the try's request itself (docs/payments.md, "Retry contract"): a failed
 * try that charged nothing, whose message is the refusal for the seller, not words for the buyer.
 */
type RefusedCharge = Extract<OffSessionPaymentResult, { status: 'failed' }> & { refused: true };

/** A try's answer: the processor's, or its refusal of the request. */
type TryResult = OffSessionPaymentResult | RefusedCharge;

export type ChargeAttemptOutcome = { outcome: 'stale' } | TryResult;

/**
 * Try `attempt` of an unpaid order: the saved card is charged off-session under a key of the
 * order and the attempt, so a retried activity returns the first answer instead of charging again.
 */
async function chargeSubscriptionOrder(
  ctx: SubscriptionBillingContext,
  processor: PaymentProcessor,
  input: { attempt: number; nowMs: number },
  row: SubscriptionStepRow,
  order: OrderWithItems,
): Promise<ChargeAttemptOutcome> {
  if (order.subscriptionId !== row.id || order.status !== 'pending') return { outcome: 'stale' };
  if (isEnded(row) && (await finalOrderOf(ctx.db, row))?.id !== order.id) return { outcome: 'stale' };
  if (row.failedAttempts + 1 !== input.attempt) return { outcome: 'stale' };
  if (!row.paymentMethodId || !row.processorCustomerId) {
    return {
      status: 'failed',
      paymentId: null,
      declineCode: 'no_payment_method',
      message: 'No card is saved for this subscription.',
    };
  }
  // A first try has nothing before it; a later one may find the customer paying it themselves.
  if (input.attempt > 1) {
    if (awaitsCustomer(await lastPaymentAttemptOf(ctx.db.sql, order.id), row.paymentMethodId)) {
      // The bank would ask again: the try is counted (the schedule still ends the plan) and the
      // buyer reminded, but the card is not charged.
      return {
        status: 'failed',
        paymentId: null,
        declineCode: AUTHENTICATION_REQUIRED,
        message: AWAITING_CUSTOMER_MESSAGE,
      };
    }
    const paidByCustomer = await stopCustomerPayments(ctx.db, processor, order.id, input.nowMs);
    if (paidByCustomer) return paidByCustomer;
  }
  const charged = await answerOrRefusal(
    processor.chargeOffSession({
      idempotencyKey: `${order.requestKey ?? `subscription:${row.id}:order:${order.id}`}:attempt:${input.attempt}`,
      amount: order.totalAmount,
      currency: order.currency,
      processorCustomerId: row.processorCustomerId,
      paymentMethodId: row.paymentMethodId,
      metadata: { subscription_id: row.id, order_id: order.id, organization_id: row.organizationId },
      description: `${row.product.name} (${order.billingReason === 'subscription_update' ? 'plan change' : 'renewal'})`,
    }),
  );
  // Asked again it would be refused again: the try fails with the reason and dunning goes on (the
  // next try has a key of its own).
  return charged instanceof PaymentProcessorError
    ? {
        status: 'failed',
        paymentId: null,
        declineCode: charged.code,
        message: refusalReason(charged),
        refused: true,
      }
    : charged;
}

export type SettleOutcome =
  | { outcome: 'stale' | 'paid' }
  /** The charge failed; the customer is told, and the next try is due at `nextAttemptAt`. */
  | { outcome: 'past_due'; nextAttemptAt: string; notify: boolean }
  /** The last try failed: the subscription ended unpaid. */
  | { outcome: 'unpaid'; notify: boolean };

/**
 * The answer to try `attempt`: a success pays the order and brings a past-due subscription back to
 * `active`; a failure makes it `past_due` with the next try on the retry schedule (benefits are
 * kept meanwhile), or, after the last try, ends it `unpaid`.
 */
export async function settleSubscriptionCharge(
  ctx: SubscriptionBillingContext,
  input: {
    attempt: number;
    result: TryResult;
    nowMs: number;
    /** Paid by the customer in the portal, on this card (null: a new card), not by the try. */
    byCustomer?: { paymentMethodId: string | null };
  },
  before: SubscriptionStepRow,
  order: OrderWithItems,
): Promise<SettleOutcome> {
  return transaction(
    ctx.db,
    async (tx): Promise<SettleOutcome> => {
      const row = await lockStepRow(tx, before);
      if (!row || row.failedAttempts + 1 !== input.attempt) return { outcome: 'stale' };
      const isFinal = isEnded(row) && (await finalOrderOf(tx.prisma, row))?.id === order.id;
      if (isEnded(row) && !isFinal) return { outcome: 'stale' };
      const at = new Date(input.nowMs);
      if (input.result.status === 'processing') {
        // Renewals are charged to cards, which Stripe settles at once; a payment that waits (a bank
        // debit) has no event path to this workflow yet, so the step fails loudly and is retried.
        throw new Error(`off-session payment ${input.result.paymentId} is still processing`);
      }
      await recordPaymentAttempt(tx.sql, {
        orderId: order.id,
        attempt: input.attempt,
        status: input.result.status,
        paymentId: input.result.paymentId,
        declineCode: input.result.status === 'failed' ? input.result.declineCode : null,
        message:
          input.result.status === 'failed'
            ? input.result.message
            : input.byCustomer
              ? 'Paid by the customer, who confirmed it with their bank.'
              : null,
        isRefused: 'refused' in input.result,
        paymentMethodId: input.byCustomer ? input.byCustomer.paymentMethodId : row.paymentMethodId,
        createdAt: at,
      });
      // A try the processor was asked about is a payment; one that charged nothing without asking
      // (no card, a card waiting for its customer) is not. The customer's own payment in the
      // portal is a try of its own (domain/orders/customer-payments.ts).
      const asked = input.result.paymentId !== null || 'refused' in input.result;
      if (asked && !input.byCustomer) {
        const saved = row.paymentMethod as Partial<PaymentMethodSummary> | null;
        const described = input.result.paymentMethod ?? null;
        await recordPayment(tx.sql, {
          organizationId: row.organizationId,
          requestKey: `order:${order.id}:attempt:${input.attempt}`,
          processor: row.paymentProcessor as ProcessorName,
          processorPaymentId: input.result.paymentId,
          status: input.result.status,
          amount: order.totalAmount,
          currency: order.currency,
          card:
            described ?? (saved?.brand && saved.last4 ? { brand: saved.brand, last4: saved.last4 } : null),
          declineReason: input.result.status === 'failed' ? input.result.declineCode : null,
          declineMessage: input.result.status === 'failed' ? input.result.message : null,
          orderId: order.id,
          customerId: row.customerId,
          at,
        });
      }
      const paid = input.result.status === 'succeeded';
      if (isFinal) {
        // The plan has ended: its final order is collected on the same schedule, its status stays.
        if (paid) {
          await markSubscriptionOrderPaid(tx, order, orderRelationsOf(row), input.result.paymentId, at);
          return { outcome: 'paid' };
        }
        const next = nextAttemptAfter(ctx.retryDays, row.failedAttempts + 1, at);
        await updateSubscriptionRecord(tx.sql, row.id, {
          failedAttempts: row.failedAttempts + 1,
          nextAttemptAt: next,
        });
        // Not the dunning emails: they speak of a plan that goes on. The seller sees the unpaid order.
        return next
          ? { outcome: 'past_due', nextAttemptAt: next.toISOString(), notify: false }
          : { outcome: 'unpaid', notify: false };
      }
      const change = async (data: Parameters<typeof updateSubscriptionRecord>[2]) => {
        const after = { ...row, ...(await updateSubscriptionRecord(tx.sql, row.id, data)) };
        await recordSubscriptionChange(ctx, tx, row, after, at);
      };
      if (paid) {
        const paidOrder = await markSubscriptionOrderPaid(
          tx,
          order,
          orderRelationsOf(row),
          input.result.paymentId,
          at,
        );
        if (!paidOrder) return { outcome: 'stale' };
        if (row.status !== 'active' || row.failedAttempts > 0) {
          await change({ status: 'active', failedAttempts: 0, nextAttemptAt: null });
        }
        return { outcome: 'paid' };
      }
      const failedAttempts = row.failedAttempts + 1;
      const next = nextAttemptAfter(ctx.retryDays, failedAttempts, at);
      if (!next) {
        await change({ status: 'unpaid', failedAttempts, nextAttemptAt: null, endedAt: at, endsAt: at });
        return { outcome: 'unpaid', notify: true };
      }
      await change({ status: 'past_due', failedAttempts, nextAttemptAt: next });
      return { outcome: 'past_due', nextAttemptAt: next.toISOString(), notify: true };
    },
    STEP_TRANSACTION,
  );
}

export type CollectOutcome =
  | { outcome: 'stale' }
  | (SettleOutcome & {
      charge: {
        status: OffSessionPaymentResult['status'];
        message: string | null;
        /** Absent in outcomes recorded before it was reported. */
        declineCode?: string | null;
        /** The processor refused the request: `message` is the seller's. Absent in older outcomes. */
        refused?: boolean;
      };
    });

/**
 * Try `attempt` of an unpaid order, charged and settled in one step: the charge's key returns the
 * first answer to a retry, and the settlement only applies to the try it belongs to, so a retry
 * after either half does nothing twice. `inHand`: the subscription and order as the renewal that
 * made the order left them, instead of reading them again.
 */
export async function collectSubscriptionOrder(
  ctx: SubscriptionBillingContext,
  processor: PaymentProcessor,
  input: { subscriptionId: string; orderId: string; attempt: number; nowMs: number },
  inHand?: { row: SubscriptionStepRow; order: OrderWithItems },
): Promise<CollectOutcome> {
  const row = inHand?.row ?? (await findSubscriptionForStep(ctx.db, input.subscriptionId));
  const order = inHand?.order ?? (await findOrderWithItems(ctx.db.sql, input.orderId));
  if (!row || !order) return { outcome: 'stale' };
  const charged = await chargeSubscriptionOrder(ctx, processor, input, row, order);
  if ('outcome' in charged) return charged;
  const settled = await settleSubscriptionCharge(ctx, { ...input, result: charged }, row, order);
  return {
    ...settled,
    charge: {
      status: charged.status,
      message: charged.status === 'failed' ? charged.message : null,
      declineCode: charged.status === 'failed' ? charged.declineCode : null,
      refused: 'refused' in charged,
    },
  };
}

export type RenewOutcome = {
  cycled: CycleOutcome;
  collected: CollectOutcome | null;
  /** The workflow's state read after a renewal that was paid, for the run that continues. */
  after: SubscriptionWorkflowState | null;
};

/**
 * The end of a period in one step: open the next period with its renewal order, charge it at once
 * (try 1) and send its receipt once paid. Each part is idempotent on its own (the order's request
 * key, the charge's key, the conditional settlement, the receipt's key), so a retry after any of
 * them redoes nothing; the rows each part made are handed to the next instead of read again, as
 * this runs for every subscription every period.
 */
export async function renewSubscription(
  ctx: SubscriptionBillingContext,
  processor: PaymentProcessor,
  mailer: Mailer,
  input: { subscriptionId: string; index: number; nowMs: number },
): Promise<RenewOutcome> {
  const { cycled, made } = await cycleSubscription(ctx, input);
  if (cycled.outcome !== 'renewed' || !cycled.orderId) return { cycled, collected: null, after: null };
  const inHand = made?.order ? { row: made.row, order: made.order } : undefined;
  const collected = await collectSubscriptionOrder(
    ctx,
    processor,
    { subscriptionId: input.subscriptionId, orderId: cycled.orderId, attempt: 1, nowMs: input.nowMs },
    inHand,
  );
  // Also after a retry that finds the order paid already: the receipt's key sends it once.
  await notifySubscription(
    ctx,
    mailer,
    { kind: 'receipt', subscriptionId: input.subscriptionId, orderId: cycled.orderId },
    inHand && collected.outcome === 'paid'
      ? { row: inHand.row, order: { ...inHand.order, status: 'paid' } }
      : undefined,
  );
  const after =
    collected.outcome === 'paid' ? await subscriptionWorkflowState(ctx.db, input.subscriptionId) : null;
  return { cycled, collected, after };
}
