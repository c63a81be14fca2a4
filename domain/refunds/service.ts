import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import { assertCanManage, organizationsToList } from '../access/service.js';
import { recordEvent } from '../events/repository.js';
import { readMetadata } from '../metadata/rules.js';
import { findOrder, lockOrder, updateOrderRow } from '../orders/repository.js';
import { findOrderFor, statusAfterRefund, toOrderResponse } from '../orders/service.js';
import type { PaymentProcessor } from '../payments/processor.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import { pageToSkipTake, paginated, parseSorting } from '../platform/rules.js';
import { refundSchema, type Refund, type RefundCreate, type RefundListQuery } from './schemas.js';

/** Starts `refund:<id>` workflows. */
export type RefundWorkflows = {
  started(refundId: string): Promise<void>;
};

type RefundRow = Prisma.RefundGetPayload<object>;

export function toRefundResponse(row: RefundRow): Refund {
  return refundSchema.parse({
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    id: row.id,
    metadata: readMetadata(row.metadata),
    status: row.status,
    reason: row.reason,
    amount: row.amount,
    tax_amount: row.taxAmount,
    currency: row.currency,
    organization_id: row.organizationId,
    order_id: row.orderId,
    subscription_id: null,
    customer_id: row.customerId,
    revoke_benefits: row.revokeBenefits,
  });
}

/**
 * The tax refunded with `amount`: the order's tax in the same proportion (rounded half up), and
 * exactly the tax left when the last of the net amount is refunded, so totals always reconcile.
 */
export function refundTaxFor(
  order: { netAmount: number; taxAmount: number },
  amount: number,
  left: { net: number; tax: number },
): number {
  if (amount >= left.net) return left.tax;
  if (order.netAmount === 0) return 0;
  const scaled =
    (BigInt(order.taxAmount) * BigInt(amount) * 2n + BigInt(order.netAmount)) /
    (2n * BigInt(order.netAmount));
  return Math.min(Number(scaled), left.tax);
}

/**
 * Records a pending refund and starts its workflow, which asks the processor. The order row is
 * locked while the refundable amount is computed, so concurrent refunds can never exceed it.
 */
export async function createRefund(
  ctx: { db: Db; workflows: RefundWorkflows },
  caller: Caller,
  input: RefundCreate,
): Promise<Refund> {
  const { db } = ctx;
  const found = await findOrderFor(db, caller, input.order_id).catch(() => {
    throw new InvalidFieldError(['body', 'order_id'], 'Order not found.');
  });
  await assertCanManage(db, caller, found.organizationId, ORGANIZATION_MANAGERS);
  const row = await db.$transaction(async (tx) => {
    await lockOrder(tx, found.id);
    const order = (await findOrder(tx, found.id))!;
    if (order.status === 'refunded')
      throw new AppError('RefundedAlready', 'The order is already fully refunded.');
    if (order.status === 'pending')
      throw new InvalidFieldError(['body', 'order_id'], 'The order is not paid.');
    const pending = await tx.refund.aggregate({
      where: { orderId: order.id, status: 'pending' },
      _sum: { amount: true, taxAmount: true },
    });
    const left = {
      net: order.netAmount - order.refundedAmount - (pending._sum.amount ?? 0),
      tax: order.taxAmount - order.refundedTaxAmount - (pending._sum.taxAmount ?? 0),
    };
    if (left.net <= 0) {
      throw new AppError('RefundedAlready', 'The rest of the order is already being refunded.');
    }
    if (input.amount > left.net) {
      throw new AppError('RefundAmountTooHigh', `At most ${left.net} can still be refunded on this order.`);
    }
    const created = await tx.refund.create({
      data: {
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
      },
    });
    await recordEvent(tx, {
      organizationId: created.organizationId,
      type: 'refund.created',
      data: toRefundResponse(created),
      at: created.createdAt,
    });
    return created;
  });
  await ctx.workflows.started(row.id);
  return toRefundResponse(row);
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
  const [rows, total] = await db.$transaction([
    db.refund.findMany({ where, orderBy, ...pageToSkipTake(query) }),
    db.refund.count({ where }),
  ]);
  return paginated(rows.map(toRefundResponse), total, query);
}

export type RefundExecution =
  | { outcome: 'settled'; status: string }
  | { outcome: 'succeeded'; processorRefundId: string }
  | { outcome: 'pending'; processorRefundId: string }
  | { outcome: 'failed'; processorRefundId: string | null; reason: string };

/**
 * Asks the processor for the money back. The idempotency key is the refund's id, so a retried
 * activity (or a crash after the call) never refunds twice.
 */
export async function executeRefund(
  db: Db,
  processor: PaymentProcessor,
  refundId: string,
): Promise<RefundExecution> {
  const refund = await db.refund.findUnique({ where: { id: refundId }, include: { order: true } });
  if (!refund) return { outcome: 'settled', status: 'missing' };
  if (refund.status !== 'pending') return { outcome: 'settled', status: refund.status };
  const total = refund.amount + refund.taxAmount;
  if (!refund.order.paymentId) {
    // Nothing was charged (a fully discounted order): there is no money to move.
    return { outcome: 'succeeded', processorRefundId: `none:${refund.id}` };
  }
  const result = await processor.refund({
    idempotencyKey: `refund:${refund.id}`,
    paymentId: refund.order.paymentId,
    amount: total,
    currency: refund.currency,
    metadata: { refund_id: refund.id, order_id: refund.orderId, organization_id: refund.organizationId },
  });
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
export async function settleRefund(
  db: Db,
  refundId: string,
  outcome:
    | { status: 'succeeded'; processorRefundId: string }
    | { status: 'failed'; processorRefundId: string | null; reason: string },
): Promise<void> {
  await db.$transaction(async (tx) => {
    const refund = await tx.refund.findUnique({ where: { id: refundId } });
    if (!refund) return;
    await lockOrder(tx, refund.orderId);
    const moved = await tx.refund.updateMany({
      where: { id: refundId, status: 'pending' },
      data: {
        status: outcome.status,
        processorRefundId: outcome.processorRefundId,
        failureReason: outcome.status === 'failed' ? outcome.reason : null,
        modifiedAt: new Date(),
      },
    });
    if (moved.count === 0) return;
    const settled = (await tx.refund.findUnique({ where: { id: refundId } }))!;
    await recordEvent(tx, {
      organizationId: settled.organizationId,
      type: 'refund.updated',
      data: toRefundResponse(settled),
    });
    if (outcome.status !== 'succeeded') return;
    const order = (await findOrder(tx, refund.orderId))!;
    const refundedAmount = order.refundedAmount + refund.amount;
    const updated = await updateOrderRow(tx, order.id, {
      refundedAmount,
      refundedTaxAmount: order.refundedTaxAmount + refund.taxAmount,
      status: statusAfterRefund(order.netAmount, refundedAmount),
    });
    const data = toOrderResponse(updated);
    await recordEvent(tx, { organizationId: updated.organizationId, type: 'order.refunded', data });
    await recordEvent(tx, { organizationId: updated.organizationId, type: 'order.updated', data });
  });
}

/** Pending refunds older than `before`, for the reconciler that restarts lost workflows. */
export function findPendingRefunds(db: Db, before: Date, limit: number) {
  return db.refund.findMany({
    where: { status: 'pending', createdAt: { lt: before } },
    select: { id: true },
    orderBy: { createdAt: 'asc' },
    take: limit,
  });
}
