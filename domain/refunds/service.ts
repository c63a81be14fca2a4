import { answerOrRefusal, PaymentProcessorError, refusalReason } from '../payments/errors.js';
import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import { assertCanManage, organizationsToList } from '../access/service.js';
import { recordEvent } from '../webhook-outbox/repository.js';
import { findOrder, lockOrder } from '../orders/repository.js';
import { applySucceededRefund, findOrderFor } from '../orders/service.js';
import type { PaymentProcessor } from '../payments/processor.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import { pageToSkipTake, paginated, parseSorting } from '../platform/rules.js';
import {
  findPendingRefunds,
  findRefund,
  findRefundWithPayment,
  insertRefund,
  findRefundByRequestKey,
  listRefundRows,
  settlePendingRefund,
  sumPendingRefunds,
} from './repository.js';
import {
  refundTaxFor,
  type RefundExecution,
  type RefundOutcomeSignal,
  type RefundSettlement,
} from './rules.js';
import type { Refund, RefundCreate, RefundListQuery } from './schemas.js';
import { refundView } from './views.js';
import { markBenefitGrantsStale } from '../customers/repository.js';

/** What refunds ask of their `refund:<id>` workflows; temporal/refunds.ts implements it. */
export type RefundWorkflows = {
  /** Starts the refund's workflow unless it runs. */
  start(refundId: string): Promise<void>;
  /** The processor's later word on the refund: wakes the workflow, starting it if it ended. */
  signalOutcome(refundId: string, outcome: RefundOutcomeSignal): Promise<void>;
  /** Starts the workflow of each of these refunds that has none running; answers their workflow ids. */
  startMissing(refundIds: string[]): Promise<string[]>;
};

/**
 * Records a pending refund and starts its workflow, which asks the processor. The order row is
 * locked while the refundable amount is computed, so concurrent refunds can never exceed it.
 */
export async function createRefund(
  ctx: { db: Db; workflows: RefundWorkflows },
  caller: Caller,
  input: RefundCreate,
  requestKey?: string,
): Promise<Refund> {
  const { db } = ctx;
  const found = await findOrderFor(db, caller, input.order_id).catch((error: unknown) => {
    // Only a missing order is the body's fault: a database outage must stay a 503 to retry.
    if (!(error instanceof AppError) || error.errorName !== 'ResourceNotFound') throw error;
    throw new InvalidFieldError(['body', 'order_id'], 'Order not found.');
  });
  await assertCanManage(db, caller, found.organizationId, ORGANIZATION_MANAGERS);
  const row = await db.$transaction(async (tx) => {
    await lockOrder(tx, found.id);
    if (requestKey) {
      const made = await findRefundByRequestKey(tx, found.organizationId, requestKey);
      if (made) return made;
    }
    const order = (await findOrder(tx, found.id))!;
    if (order.status === 'refunded')
      throw new AppError('RefundedAlready', 'The order is already fully refunded.');
    if (order.status === 'pending')
      throw new InvalidFieldError(['body', 'order_id'], 'The order is not paid.');
    const pending = await sumPendingRefunds(tx, order.id);
    const left = {
      net: order.netAmount - order.refundedAmount - pending.amount,
      tax: order.taxAmount - order.refundedTaxAmount - pending.taxAmount,
    };
    if (left.net <= 0) {
      throw new AppError('RefundedAlready', 'The rest of the order is already being refunded.');
    }
    if (input.revoke_benefits && order.subscriptionId) {
      throw new InvalidFieldError(
        ['body', 'revoke_benefits'],
        "A subscription's benefits end with the subscription: revoke or cancel the subscription instead.",
        'revoke_subscription_benefits_prohibited',
      );
    }
    if (input.amount > left.net) {
      throw new AppError('RefundAmountTooHigh', `At most ${left.net} can still be refunded on this order.`);
    }
    const created = await insertRefund(tx, {
      organizationId: order.organizationId,
      orderId: order.id,
      customerId: order.customerId,
      status: 'pending',
      reason: input.reason,
      amount: input.amount,
      taxAmount: refundTaxFor(order, input.amount, left),
      currency: order.currency,
      comment: input.comment ?? null,
      revokeBenefits: input.revoke_benefits,
      metadata: input.metadata ?? {},
      requestKey: requestKey ?? null,
    });
    await recordEvent(tx, {
      organizationId: created.organizationId,
      type: 'refund.created',
      data: refundView(created),
      at: created.createdAt,
    });
    return created;
  });
  await ctx.workflows.start(row.id);
  return refundView(row);
}

const SORT_COLUMNS = { created_at: 'createdAt', amount: 'amount' } as const;

export async function listRefunds(db: Db, caller: Caller, query: RefundListQuery) {
  const organizationIds = await organizationsToList(db, caller, query.organization_id);
  const where: Prisma.RefundWhereInput = { organizationId: { in: organizationIds } };
  if (query.id) where.id = { in: query.id };
  if (query.order_id) where.orderId = { in: query.order_id };
  if (query.customer_id) where.customerId = { in: query.customer_id };
  // No refund belongs to a subscription yet.
  if (query.subscription_id) where.id = { in: [] };
  if (query.succeeded !== undefined) where.status = query.succeeded ? 'succeeded' : { not: 'succeeded' };
  const orderBy = parseSorting<keyof typeof SORT_COLUMNS>(query.sorting ?? ['-created_at']).map(
    ({ field, direction }) => ({ [SORT_COLUMNS[field]]: direction }),
  );
  const [rows, total] = await listRefundRows(db, where, orderBy, pageToSkipTake(query));
  return paginated(rows.map(refundView), total, query);
}

/**
 * Asks the processor for the money back. The idempotency key is the refund's id, so a retried
 * activity (or a crash after the call) never refunds twice.
 */
export async function executeRefund(
  db: Db,
  processor: PaymentProcessor,
  refundId: string,
): Promise<RefundExecution> {
  const refund = await findRefundWithPayment(db, refundId);
  if (!refund) return { outcome: 'settled', status: 'missing' };
  if (refund.status !== 'pending') return { outcome: 'settled', status: refund.status };
  const total = refund.amount + refund.taxAmount;
  if (!refund.order.paymentId) {
    // Nothing was charged (a fully discounted order): there is no money to move.
    return { outcome: 'succeeded', processorRefundId: `none:${refund.id}` };
  }
  const result = await answerOrRefusal(
    processor.refund({
      idempotencyKey: `refund:${refund.id}`,
      paymentId: refund.order.paymentId,
      amount: total,
      currency: refund.currency,
      metadata: { refund_id: refund.id, order_id: refund.orderId, organization_id: refund.organizationId },
    }),
  );
  // Asked again it would be refused again: the refund fails with the processor's reason.
  if (result instanceof PaymentProcessorError) {
    return { outcome: 'failed', processorRefundId: null, reason: refusalReason(result) };
  }
  if (result.status === 'failed') {
    return { outcome: 'failed', processorRefundId: result.processorRefundId, reason: result.reason };
  }
  return result.status === 'succeeded'
    ? { outcome: 'succeeded', processorRefundId: result.processorRefundId }
    : { outcome: 'pending', processorRefundId: result.processorRefundId };
}

/**
 * Ends a pending refund. Success raises the order's refunded amounts and status in the same
 * transaction; only a pending refund moves, so a replayed outcome changes nothing.
 */
export async function settleRefund(db: Db, refundId: string, outcome: RefundSettlement): Promise<void> {
  await db.$transaction(async (tx) => {
    const refund = await findRefund(tx, refundId);
    if (!refund) return;
    await lockOrder(tx, refund.orderId);
    const moved = await settlePendingRefund(tx, refundId, {
      status: outcome.status,
      processorRefundId: outcome.processorRefundId,
      failureReason: outcome.status === 'failed' ? outcome.reason : null,
    });
    if (moved === 0) return;
    const settled = (await findRefund(tx, refundId))!;
    await recordEvent(tx, {
      organizationId: settled.organizationId,
      type: 'refund.updated',
      data: refundView(settled),
    });
    if (outcome.status === 'succeeded') {
      await applySucceededRefund(tx, refund);
      if (refund.revokeBenefits) await markBenefitGrantsStale(tx, [refund.customerId]);
    }
  });
}

/** Grace for a just-created refund whose workflow start is still on its way. */
const RECONCILE_MIN_AGE_MS = 60_000;

/**
 * Starts the workflow of every pending refund that has none: the healing path for a crash or a
 * Temporal outage between the commit and the start.
 */
export async function reconcileRefundWorkflows(
  db: Db,
  workflows: RefundWorkflows,
  now = new Date(),
): Promise<{ started: string[] }> {
  const pending = await findPendingRefunds(db, new Date(now.getTime() - RECONCILE_MIN_AGE_MS), 500);
  return { started: await workflows.startMissing(pending.map(({ id }) => id)) };
}
