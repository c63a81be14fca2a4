// The steps of a subscription's life after it started, each one idempotent, run by the
// `subscription:<id>` workflow's activities: renew (or end) at the end of a period, charge an
// unpaid order, settle the charge (paid, or dunning), and tell the customer a charge failed.
import type { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../infra/db.js';
import { discountAmountFor } from '../checkouts/rules.js';
import { recordCustomerStateChanged } from '../customers/service.js';
import { findLiveCustomer } from '../customers/repository.js';
import type { DiscountDuration, DiscountType } from '../discounts/schemas.js';
import { recordEvent } from '../events/repository.js';
import type { Mailer } from '../emails/mailer.js';
import {
  subscriptionCanceledEmail,
  subscriptionPaymentFailedEmail,
  subscriptionReceiptEmail,
  subscriptionStartedEmail,
} from '../emails/rules.js';
import { formatMoney } from '../invoices/rules.js';
import {
  findOrderStatusByRequestKey,
  findOrderToCollect,
  recordPaymentAttempt,
} from '../orders/repository.js';
import { findOrganizationById } from '../organizations/repository.js';
import { createSubscriptionOrder, markSubscriptionOrderPaid } from '../orders/service.js';
import type { OffSessionPaymentResult, PaymentProcessor } from '../payments/processor.js';
import type { TaxCalculator } from '../tax/calculator.js';
import type { addressSchema } from '../addresses/schemas.js';
import type { z } from 'zod';
import {
  findPendingItems,
  findSubscriptionForBilling,
  findSubscriptionWorkflowRow,
  insertPendingItem,
  lockSubscription,
  markCaughtUpWithClock,
  markPendingItemsBilled,
  updateSubscriptionRow,
  type SubscriptionBillingRow,
  type SubscriptionRow,
  type SubscriptionWorkflowRow,
} from './repository.js';
import {
  cycleBill,
  discountApplies,
  nextAttemptAfter,
  periodStart,
  type BillingLine,
  type CycleBill,
  type RecurringInterval,
  type SubscriptionWorkflowState,
} from './rules.js';
import { ACTIVE_STATUSES, BILLABLE_STATUSES, type SubscriptionStatus } from './schemas.js';
import { subscriptionView } from './views.js';

export type SubscriptionBillingContext = {
  db: Db;
  publicUrl: string;
  tax: TaxCalculator;
  /** Days between the tries of a failed renewal (domain/subscriptions/rules.ts). */
  retryDays: readonly number[];
};

/** Each step locks the subscription row; a burst of renewals at one instant waits its turn. */
const STEP_TRANSACTION = { maxWait: 60_000, timeout: 60_000 } as const;

const isEnded = (row: { endedAt: Date | null; status: string }) =>
  row.endedAt !== null || !BILLABLE_STATUSES.includes(row.status as SubscriptionStatus);

export async function subscriptionWorkflowState(
  db: Db,
  subscriptionId: string,
): Promise<SubscriptionWorkflowState | null> {
  const row = await findSubscriptionWorkflowRow(db, subscriptionId);
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

/** The request key of the order that opens period `index` (its renewal). */
const cycleKey = (subscriptionId: string, index: number) => `subscription:${subscriptionId}:cycle:${index}`;

type Address = z.infer<typeof addressSchema>;

/** The fees of one period and their discount, for the discount as it applies to that period. */
function periodFees(
  row: SubscriptionBillingRow,
  periodStartAt: Date,
): { fees: BillingLine[]; discount: number; keepsDiscount: boolean } {
  const fees = row.prices.map((price) => ({
    label: row.product.name,
    amount: price.amount,
    proration: false,
    productPriceId: price.productPriceId,
  }));
  const feeTotal = fees.reduce((sum, line) => sum + line.amount, 0);
  const discount = row.discount && !row.discount.deletedAt ? row.discount : null;
  const keepsDiscount =
    discount !== null &&
    row.discountFirstPeriodStart !== null &&
    discountApplies(
      { duration: discount.duration as DiscountDuration, durationInMonths: discount.durationInMonths },
      row.discountFirstPeriodStart,
      periodStartAt,
    );
  const amount =
    keepsDiscount && discount
      ? discountAmountFor(
          {
            type: discount.type as DiscountType,
            amount: discount.amount,
            currency: discount.currency,
            basisPoints: discount.basisPoints,
          },
          feeTotal,
          row.currency,
        )
      : 0;
  return { fees, discount: amount, keepsDiscount };
}

type RenewalPlan = {
  index: number;
  start: Date;
  end: Date;
  bill: CycleBill;
  keepsDiscount: boolean;
  pendingIds: string[];
};

async function planRenewal(
  db: Db | Prisma.TransactionClient,
  row: SubscriptionBillingRow,
  index: number,
): Promise<RenewalPlan> {
  const interval = row.recurringInterval as RecurringInterval;
  const start = periodStart(row.billingAnchor, interval, index - row.periodIndexBase);
  const end = periodStart(row.billingAnchor, interval, index + 1 - row.periodIndexBase);
  const pending = await findPendingItems(db, row.id);
  const { fees, discount, keepsDiscount } = periodFees(row, start);
  const bill = cycleBill({
    fees: row.cancelAtPeriodEnd ? [] : fees,
    feeDiscount: row.cancelAtPeriodEnd ? 0 : discount,
    pending: pending.map((item) => ({
      label: item.label,
      amount: item.amount,
      proration: true,
      productPriceId: item.productPriceId,
    })),
  });
  return { index, start, end, bill, keepsDiscount, pendingIds: pending.map((item) => item.id) };
}

export type CycleOutcome =
  /** The period is not over yet at `nowMs`, or the workflow is behind the row: nothing done. */
  | { outcome: 'not_due' | 'stale' }
  | { outcome: 'renewed'; orderId: string | null }
  | { outcome: 'ended'; orderId: string | null };

/**
 * Period `index` begins (the current one ended at or before `nowMs`): the subscription moves into
 * it, its discount is dropped once its duration is over, and the renewal order bills the new
 * period's fees with the proration lines waiting for it. A subscription set to cancel ends
 * instead, billing only the debits still pending. One transaction; the order's request key makes
 * a retry return the same order.
 */
export async function cycleSubscription(
  ctx: SubscriptionBillingContext,
  input: { subscriptionId: string; index: number; nowMs: number },
): Promise<CycleOutcome> {
  const key = cycleKey(input.subscriptionId, input.index);
  const done = await findOrderStatusByRequestKey(ctx.db, key);
  if (done)
    return { outcome: done.billingReason === 'subscription_cycle' ? 'renewed' : 'ended', orderId: done.id };
  const before = await findSubscriptionForBilling(ctx.db, input.subscriptionId);
  if (!before || isEnded(before) || before.currentPeriodIndex !== input.index - 1)
    return { outcome: 'stale' };
  if (before.currentPeriodEnd.getTime() > input.nowMs) return { outcome: 'not_due' };
  // Tax is quoted before the transaction: Stripe Tax is never waited for while the row is locked.
  const quoted = await planRenewal(ctx.db, before, input.index);
  const customer = await findLiveCustomer(ctx.db, before.customerId);
  const billingAddress = (customer?.billingAddress as Address | null) ?? null;
  const taxQuote =
    quoted.bill.net > 0
      ? await ctx.tax.quote({
          amount: quoted.bill.net,
          currency: before.currency,
          billingAddress,
          taxId: null,
          productId: before.productId,
          idempotencyKey: `${key}:tax:${quoted.bill.net}`,
        })
      : null;

  return ctx.db.$transaction(async (tx) => {
    await lockSubscription(tx, input.subscriptionId);
    const row = await findSubscriptionForBilling(tx, input.subscriptionId);
    if (!row || isEnded(row) || row.currentPeriodIndex !== input.index - 1)
      return { outcome: 'stale' as const };
    const plan = await planRenewal(tx, row, input.index);
    if (plan.bill.net !== quoted.bill.net) {
      // Changed between the quote and the lock (a plan change): the activity's retry quotes again.
      throw new Error(`subscription ${row.id} changed while its renewal was being priced`);
    }
    const at = new Date(input.nowMs);
    const ending = row.cancelAtPeriodEnd;
    const order =
      plan.bill.items.length > 0 && (!ending || plan.bill.net > 0)
        ? await createSubscriptionOrder(tx, {
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
            taxAmount: taxQuote?.amount ?? 0,
            billingName: customer?.name ?? null,
            billingAddress: (customer?.billingAddress as Prisma.InputJsonValue | null) ?? null,
            metadata: row.metadata as Prisma.InputJsonValue,
            requestKey: key,
            at,
          })
        : null;
    if (order) await markPendingItemsBilled(tx, plan.pendingIds, order.id);
    if (plan.bill.carriedCredit > 0) {
      await insertPendingItem(tx, {
        subscriptionId: row.id,
        label: 'Credit carried over',
        amount: -plan.bill.carriedCredit,
        createdAt: at,
      });
    }
    if (ending) {
      const ended = await updateSubscriptionRow(tx, row.id, {
        status: 'canceled',
        endedAt: row.endsAt ?? row.currentPeriodEnd,
        // The final order (if any) is collected from its first try.
        failedAttempts: 0,
        nextAttemptAt: null,
      });
      await recordSubscriptionChange(ctx, tx, row, ended, at);
      return { outcome: 'ended' as const, orderId: order?.id ?? null };
    }
    const fees = periodFees(row, plan.start);
    const amount = fees.fees.reduce((sum, line) => sum + line.amount, 0) - fees.discount;
    const renewed = await updateSubscriptionRow(tx, row.id, {
      currentPeriodIndex: plan.index,
      currentPeriodStart: plan.start,
      currentPeriodEnd: plan.end,
      amount,
      ...(plan.keepsDiscount ? {} : { discountId: null, discountFirstPeriodStart: null }),
      periodBilled: amount,
      periodUsed: 0,
      periodLedgerSince: plan.start,
      failedAttempts: 0,
      nextAttemptAt: null,
    });
    await recordSubscriptionChange(ctx, tx, row, renewed, at);
    return { outcome: 'renewed' as const, orderId: order?.id ?? null };
  }, STEP_TRANSACTION);
}

/**
 * `subscription.updated`, then as the change calls for `.active` (back in the active group),
 * `.canceled` (newly set to cancel), `.uncanceled`, `.revoked` (left the billable group), and
 * `customer.state_changed` when what the customer holds changed (Polar's order of events).
 */
export async function recordSubscriptionChange(
  ctx: { publicUrl: string },
  tx: Prisma.TransactionClient,
  before: Pick<SubscriptionRow, 'status' | 'canceledAt' | 'cancelAtPeriodEnd' | 'endedAt' | 'amount'>,
  after: SubscriptionRow,
  at: Date,
): Promise<void> {
  const data = subscriptionView(after, ctx.publicUrl);
  const record = (type: Parameters<typeof recordEvent>[1]['type']) =>
    recordEvent(tx, { organizationId: after.organizationId, type, data, at });
  await record('subscription.updated');
  const wasActive = ACTIVE_STATUSES.includes(before.status as SubscriptionStatus);
  const isActive = ACTIVE_STATUSES.includes(after.status as SubscriptionStatus);
  if (isActive && !wasActive) await record('subscription.active');
  if (after.canceledAt && !before.canceledAt) await record('subscription.canceled');
  if (!after.cancelAtPeriodEnd && before.cancelAtPeriodEnd && !after.endedAt)
    await record('subscription.uncanceled');
  if (isEnded(after) && !isEnded(before)) await record('subscription.revoked');
  if (wasActive !== isActive || isEnded(after) !== isEnded(before) || after.amount !== before.amount) {
    const customer = await findLiveCustomer(tx, after.customerId);
    if (customer) await recordCustomerStateChanged(tx, customer);
  }
}

export type ChargeAttemptOutcome = { outcome: 'stale' } | OffSessionPaymentResult;

/**
 * Try `attempt` of an unpaid order: the saved card is charged off-session under a key of the
 * order and the attempt, so a retried activity returns the first answer instead of charging again.
 */
export async function chargeSubscriptionOrder(
  ctx: SubscriptionBillingContext,
  processor: PaymentProcessor,
  input: { subscriptionId: string; orderId: string; attempt: number },
): Promise<ChargeAttemptOutcome> {
  const row = await findSubscriptionForBilling(ctx.db, input.subscriptionId);
  const order = await findOrderToCollect(ctx.db, input.orderId);
  if (!row || !order || order.subscriptionId !== row.id || order.status !== 'pending')
    return { outcome: 'stale' };
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
  return processor.chargeOffSession({
    idempotencyKey: `${order.requestKey ?? `subscription:${row.id}:order:${order.id}`}:attempt:${input.attempt}`,
    amount: order.totalAmount,
    currency: order.currency,
    processorCustomerId: row.processorCustomerId,
    paymentMethodId: row.paymentMethodId,
    metadata: { subscription_id: row.id, order_id: order.id, organization_id: row.organizationId },
    description: `${row.product.name} (${order.billingReason === 'subscription_update' ? 'plan change' : 'renewal'})`,
  });
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
    subscriptionId: string;
    orderId: string;
    attempt: number;
    result: OffSessionPaymentResult;
    nowMs: number;
  },
): Promise<SettleOutcome> {
  return ctx.db.$transaction(async (tx) => {
    await lockSubscription(tx, input.subscriptionId);
    const row = await findSubscriptionForBilling(tx, input.subscriptionId);
    if (!row || row.failedAttempts + 1 !== input.attempt) return { outcome: 'stale' as const };
    const isFinal = isEnded(row) && (await finalOrderOf(tx, row))?.id === input.orderId;
    if (isEnded(row) && !isFinal) return { outcome: 'stale' as const };
    const at = new Date(input.nowMs);
    if (input.result.status !== 'processing') {
      await recordPaymentAttempt(tx, {
        orderId: input.orderId,
        attempt: input.attempt,
        status: input.result.status,
        paymentId: input.result.paymentId,
        declineCode: input.result.status === 'failed' ? input.result.declineCode : null,
        message: input.result.status === 'failed' ? input.result.message : null,
        createdAt: at,
      });
    }
    if (input.result.status === 'processing') {
      // Renewals are charged to cards, which Stripe settles at once; a payment that waits (a bank
      // debit) has no event path to this workflow yet, so the step fails loudly and is retried.
      throw new Error(`off-session payment ${input.result.paymentId} is still processing`);
    }
    if (isFinal) {
      // The plan has ended: its final order is collected on the same schedule, its status stays.
      if (input.result.status === 'succeeded') {
        await markSubscriptionOrderPaid(tx, input.orderId, input.result.paymentId, at);
        return { outcome: 'paid' as const };
      }
      const next = nextAttemptAfter(ctx.retryDays, row.failedAttempts + 1, at);
      await updateSubscriptionRow(tx, row.id, {
        failedAttempts: row.failedAttempts + 1,
        nextAttemptAt: next,
      });
      // Not the dunning emails: they speak of a plan that goes on. The seller sees the unpaid order.
      return next
        ? { outcome: 'past_due' as const, nextAttemptAt: next.toISOString(), notify: false }
        : { outcome: 'unpaid' as const, notify: false };
    }
    if (input.result.status === 'succeeded') {
      const paid = await markSubscriptionOrderPaid(tx, input.orderId, input.result.paymentId, at);
      if (!paid) return { outcome: 'stale' as const };
      if (row.status !== 'active' || row.failedAttempts > 0) {
        const after = await updateSubscriptionRow(tx, row.id, {
          status: 'active',
          failedAttempts: 0,
          nextAttemptAt: null,
        });
        await recordSubscriptionChange(ctx, tx, row, after, at);
      }
      return { outcome: 'paid' as const };
    }
    const failedAttempts = row.failedAttempts + 1;
    const next = nextAttemptAfter(ctx.retryDays, failedAttempts, at);
    if (!next) {
      const after = await updateSubscriptionRow(tx, row.id, {
        status: 'unpaid',
        failedAttempts,
        nextAttemptAt: null,
        endedAt: at,
        endsAt: at,
      });
      await recordSubscriptionChange(ctx, tx, row, after, at);
      return { outcome: 'unpaid' as const, notify: true };
    }
    const after = await updateSubscriptionRow(tx, row.id, {
      status: 'past_due',
      failedAttempts,
      nextAttemptAt: next,
    });
    await recordSubscriptionChange(ctx, tx, row, after, at);
    return { outcome: 'past_due' as const, nextAttemptAt: next.toISOString(), notify: true };
  }, STEP_TRANSACTION);
}

export type CollectOutcome =
  | { outcome: 'stale' }
  | (SettleOutcome & { charge: { status: OffSessionPaymentResult['status']; message: string | null } });

/**
 * Try `attempt` of an unpaid order, charged and settled in one step: the charge's key returns the
 * first answer to a retry, and the settlement only applies to the try it belongs to, so a retry
 * after either half does nothing twice.
 */
export async function collectSubscriptionOrder(
  ctx: SubscriptionBillingContext,
  processor: PaymentProcessor,
  input: { subscriptionId: string; orderId: string; attempt: number; nowMs: number },
): Promise<CollectOutcome> {
  const charged = await chargeSubscriptionOrder(ctx, processor, input);
  if ('outcome' in charged) return charged;
  const settled = await settleSubscriptionCharge(ctx, { ...input, result: charged });
  return {
    ...settled,
    charge: { status: charged.status, message: charged.status === 'failed' ? charged.message : null },
  };
}

export type RenewOutcome = { cycled: CycleOutcome; collected: CollectOutcome | null };

/**
 * The end of a period in one step: open the next period with its renewal order, charge it at once
 * (try 1) and send its receipt once paid. Each part is idempotent on its own (the order's request
 * key, the charge's key, the conditional settlement, the receipt's key), so a retry after any of
 * them redoes nothing; fewer round trips through Temporal for the step every subscription takes
 * every period.
 */
export async function renewSubscription(
  ctx: SubscriptionBillingContext,
  processor: PaymentProcessor,
  mailer: Mailer,
  input: { subscriptionId: string; index: number; nowMs: number },
): Promise<RenewOutcome> {
  const cycled = await cycleSubscription(ctx, input);
  if (cycled.outcome !== 'renewed' || !cycled.orderId) return { cycled, collected: null };
  const collected = await collectSubscriptionOrder(ctx, processor, {
    subscriptionId: input.subscriptionId,
    orderId: cycled.orderId,
    attempt: 1,
    nowMs: input.nowMs,
  });
  // Also after a retry that finds the order paid already: the receipt's key sends it once.
  await notifySubscription(ctx, mailer, {
    kind: 'receipt',
    subscriptionId: input.subscriptionId,
    orderId: cycled.orderId,
  });
  return { cycled, collected };
}

/** One email per failed try (its key names the order and the try), so a retried step never sends twice. */
export async function notifySubscriptionPaymentFailed(
  ctx: SubscriptionBillingContext,
  mailer: Mailer,
  input: {
    subscriptionId: string;
    orderId: string;
    attempt: number;
    reason: string;
    nextAttemptAt: string | null;
  },
): Promise<'sent' | 'duplicate' | 'gone'> {
  const row = await findSubscriptionForBilling(ctx.db, input.subscriptionId);
  const order = await findOrderToCollect(ctx.db, input.orderId);
  const organization = row ? await findOrganizationById(ctx.db, row.organizationId) : null;
  if (!row || !order || !organization) return 'gone';
  return mailer.send({
    to: row.customer.email,
    idempotencyKey: `subscription:${row.id}:order:${order.id}:failed:${input.attempt}`,
    ...subscriptionPaymentFailedEmail({
      customerName: row.customer.name,
      organizationName: organization.name,
      organizationEmail: organization.email,
      organizationWebsite: organization.website,
      productName: row.product.name,
      amount: formatMoney(order.totalAmount, order.currency),
      reason: input.reason,
      nextAttemptOn: input.nextAttemptAt ? emailDate(new Date(input.nextAttemptAt)) : null,
    }),
  });
}

const emailDate = (date: Date) =>
  date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

export type SubscriptionNotice =
  | { kind: 'started'; subscriptionId: string }
  | { kind: 'canceled'; subscriptionId: string }
  | { kind: 'receipt'; subscriptionId: string; orderId: string };

/**
 * The buyer's emails about their plan: it started, a renewal or change was paid (a receipt), it
 * was set to cancel. Each is keyed by what it is about, so a retried step never sends it twice.
 */
export async function notifySubscription(
  ctx: SubscriptionBillingContext,
  mailer: Mailer,
  notice: SubscriptionNotice,
): Promise<'sent' | 'duplicate' | 'gone'> {
  const row = await findSubscriptionForBilling(ctx.db, notice.subscriptionId);
  const organization = row ? await findOrganizationById(ctx.db, row.organizationId) : null;
  if (!row || !organization) return 'gone';
  const seller = {
    organizationName: organization.name,
    organizationEmail: organization.email,
    organizationWebsite: organization.website,
  };
  const base = { customerName: row.customer.name, productName: row.product.name, ...seller };
  switch (notice.kind) {
    case 'started':
      return mailer.send({
        to: row.customer.email,
        idempotencyKey: `subscription:${row.id}:started`,
        ...subscriptionStartedEmail({
          ...base,
          amount: formatMoney(row.amount, row.currency),
          interval: row.recurringInterval as RecurringInterval,
          nextPaymentOn: emailDate(row.currentPeriodEnd),
        }),
      });
    case 'canceled':
      if (!row.cancelAtPeriodEnd || !row.canceledAt || !row.endsAt) return 'gone';
      return mailer.send({
        to: row.customer.email,
        idempotencyKey: `subscription:${row.id}:canceled:${row.canceledAt.toISOString()}`,
        ...subscriptionCanceledEmail({ ...base, endsOn: emailDate(row.endsAt) }),
      });
    case 'receipt': {
      const order = await findOrderToCollect(ctx.db, notice.orderId);
      if (!order || order.status !== 'paid' || order.totalAmount === 0) return 'gone';
      const card = row.paymentMethod as { brand?: string; last4?: string } | null;
      return mailer.send({
        to: row.customer.email,
        idempotencyKey: `order:${order.id}:receipt`,
        ...subscriptionReceiptEmail({
          ...base,
          amount: formatMoney(order.totalAmount, order.currency),
          card: card?.brand && card.last4 ? `${card.brand} card ending ${card.last4}` : null,
          periodStart: emailDate(row.currentPeriodStart),
          periodEnd: emailDate(row.currentPeriodEnd),
          lines: order.items.map((item) => ({
            label: item.label,
            amount: formatMoney(item.amount, order.currency),
          })),
        }),
      });
    }
  }
}
