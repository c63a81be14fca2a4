// Collecting an unpaid order of a subscription, one try at a time: the saved card is charged
// off-session, and the answer settles the subscription (paid, or dunning until it ends unpaid).
import type { Prisma } from '../../generated/prisma/client.js';
import { transaction, type Db } from '../../infra/db.js';
import {
  findOrderStatusByRequestKey,
  findOrderWithItems,
  lastPaymentAttemptOf,
  recordPaymentAttempt,
  type OrderWithItems,
} from '../orders/repository.js';
import { stopCustomerPayments } from '../orders/customer-payments.js';
import { markSubscriptionOrderPaid } from '../orders/service.js';
import { answerOrRefusal, PaymentProcessorError, refusalReason } from '../payments/errors.js';
import type {
  OffSessionPaymentResult,
  PaymentMethodSummary,
  PaymentProcessor,
  ProcessorName,
} from '../payments/processor.js';
import { recordOrderChargeTry } from '../payments/repository.js';
import {
  lockStepRow,
  orderRelationsOf,
  STEP_TRANSACTION,
  type SubscriptionBillingContext,
} from './billing-step.js';
import { recordSubscriptionChange } from './change-events.js';
import { answerOfSettledTry } from './settled-tries.js';
import { cycleKey } from './renewal-pricing.js';
import { findSubscriptionForStep, updateSubscriptionRecord, type SubscriptionStepRow } from './repository.js';
import {
  AWAITING_CUSTOMER_MESSAGE,
  AUTHENTICATION_REQUIRED,
  awaitsCustomer,
  nextAttemptAfter,
} from './rules.js';
import { collectsFinalOrder, isEnded, type LifeFields } from './workflow-state.js';

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
      description: `${row.product.name} (${order.billingReason === 'subscription_update' ? 'plan change' : order.billingReason === 'subscription_meter_cycle' ? 'usage' : 'renewal'})`,
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
        await recordOrderChargeTry(tx.sql, {
          organizationId: row.organizationId,
          customerId: row.customerId,
          order,
          attempt: input.attempt,
          processor: row.paymentProcessor as ProcessorName,
          answer: input.result,
          savedCard: row.paymentMethod as Partial<PaymentMethodSummary> | null,
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
        if (row.status !== 'active' || row.failedAttempts > 0 || row.pastDueAt !== null) {
          await change({ status: 'active', failedAttempts: 0, nextAttemptAt: null, pastDueAt: null });
        }
        return { outcome: 'paid' };
      }
      const failedAttempts = row.failedAttempts + 1;
      const next = nextAttemptAfter(ctx.retryDays, failedAttempts, at);
      if (!next) {
        await change({ status: 'unpaid', failedAttempts, nextAttemptAt: null, endedAt: at, endsAt: at });
        return { outcome: 'unpaid', notify: true };
      }
      // Dunning starts at the first failed try: `past_due_at` keeps that instant through the later ones.
      await change({
        status: 'past_due',
        failedAttempts,
        nextAttemptAt: next,
        pastDueAt: row.pastDueAt ?? at,
      });
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
  if ('outcome' in charged) {
    return (await answerOfSettledTry(ctx.db, row, order, input.attempt)) ?? charged;
  }
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
