// Disputes (chargebacks) of paid orders: the processor's events open and move them through the
// dispute's workflow (`dispute:<processor dispute id>`), which records each event here and, once the
// seller or their auto-accept setting conceded, closes the dispute with the processor.
import type { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../infra/db.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import { accessibleOrganizationIds, assertCanManage, organizationsToList } from '../access/service.js';
import { markBenefitGrantsStale } from '../customers/repository.js';
import { findOrder } from '../orders/repository.js';
import { findDisputeSettings } from '../organizations/repository.js';
import type { DisputeStatus, PaymentProcessor } from '../payments/processor.js';
import { findOrderPaymentByProcessorId } from '../payments/repository.js';
import { AppError } from '../platform/errors.js';
import { pageToSkipTake, paginated, parseSorting } from '../platform/rules.js';
import {
  findDispute,
  findDisputeByProcessorId,
  insertDispute,
  listDisputeRows,
  lockProcessorDispute,
  updateDispute,
  type DisputeRow,
} from './repository.js';
import {
  disputeHoldsBenefits,
  type DisputeEvent,
  isDisputeClosed,
  nextDisputeStatus,
  shouldAutoAccept,
  splitDisputedAmount,
} from './rules.js';
import type { Dispute, DisputeListQuery } from './schemas.js';
import { disputeView } from './views.js';

export type { DisputeEvent };

/** What disputes ask of their workflows; temporal/disputes.ts implements it. */
export type DisputeWorkflows = {
  /** The processor's word on a dispute: wakes its workflow, starting it if it ended. */
  signalEvent(event: DisputeEvent): Promise<void>;
  /** The seller conceded the dispute: its workflow closes it with the processor. */
  requestClose(processorDisputeId: string): Promise<void>;
};

const SORT_COLUMNS = { created_at: 'createdAt', amount: 'amount' } as const;

export async function listDisputes(db: Db, caller: Caller, query: DisputeListQuery) {
  const organizationIds = await organizationsToList(db, caller, query.organization_id);
  const where: Prisma.DisputeWhereInput = { organizationId: { in: organizationIds } };
  if (query.order_id) where.orderId = { in: query.order_id };
  if (query.status) where.status = { in: query.status };
  const orderBy = parseSorting<keyof typeof SORT_COLUMNS>(query.sorting ?? ['-created_at']).map(
    ({ field, direction }) => ({ [SORT_COLUMNS[field]]: direction }),
  );
  const [rows, total] = await listDisputeRows(db, where, orderBy, pageToSkipTake(query));
  return paginated(
    rows.map((row) => disputeView(row)),
    total,
    query,
  );
}

/** Another organization's dispute answers as a missing one. */
async function findDisputeFor(db: Db, caller: Caller, id: string): Promise<DisputeRow> {
  const [row, organizationIds] = await Promise.all([
    findDispute(db, id),
    accessibleOrganizationIds(db, caller),
  ]);
  if (!row || !organizationIds.includes(row.organizationId)) throw new AppError('ResourceNotFound');
  return row;
}

export async function getDispute(db: Db, caller: Caller, id: string): Promise<Dispute> {
  return disputeView(await findDisputeFor(db, caller, id));
}

/**
 * The seller concedes (Polar's `disputes.accept`): the dispute is lost from now on, its workflow
 * closes it with the processor. Accepting it again answers it unchanged; a dispute that closed
 * otherwise (won, prevented) is refused.
 */
export async function acceptDispute(
  ctx: { db: Db; workflows: { disputes: DisputeWorkflows } },
  caller: Caller,
  id: string,
): Promise<Dispute> {
  const found = await findDisputeFor(ctx.db, caller, id);
  await assertCanManage(ctx.db, caller, found.organizationId, ORGANIZATION_MANAGERS);
  const row = await ctx.db.$transaction(async (tx) => {
    await lockProcessorDispute(tx, found.processorDisputeId);
    const dispute = (await findDispute(tx, found.id))!;
    if (dispute.acceptedAt) return dispute;
    if (isDisputeClosed(dispute.status as DisputeStatus)) throw new AppError('DisputeNotOpenError');
    const now = new Date();
    return updateDispute(tx, dispute.id, { status: 'lost', acceptedAt: now, modifiedAt: now });
  });
  // After the commit, on every call: accepting again asks again when this one was lost.
  await ctx.workflows.disputes.requestClose(row.processorDisputeId);
  return disputeView(row);
}

/**
 * Records the processor's word on a dispute, opening it for the order whose payment it names; a
 * dispute of a payment that made no order of ours is ignored. Answers whether the workflow must now
 * close it with the processor (auto-accepted). Replaying an event changes nothing.
 */
export async function recordDisputeEvent(
  db: Db,
  processor: PaymentProcessor['name'],
  event: DisputeEvent,
): Promise<{ disputeId: string | null; close: boolean }> {
  const at = new Date(event.occurredAt);
  return db.$transaction(async (tx) => {
    await lockProcessorDispute(tx, event.processorDisputeId);
    const existing = await findDisputeByProcessorId(tx, processor, event.processorDisputeId);
    if (existing) {
      const before = existing.status as DisputeStatus;
      const status = nextDisputeStatus(
        { status: before, accepted: existing.acceptedAt !== null },
        event.status,
      );
      if (status === before) return { disputeId: existing.id, close: false };
      const row = await updateDispute(tx, existing.id, {
        status,
        evidenceDueBy: event.evidenceDueBy ? new Date(event.evidenceDueBy) : null,
        modifiedAt: at,
      });
      if (row.revokesBenefits && disputeHoldsBenefits(before) !== disputeHoldsBenefits(status)) {
        await markBenefitsOf(tx, row.orderId);
      }
      return { disputeId: row.id, close: false };
    }
    const payment = await findOrderPaymentByProcessorId(tx, event.processorPaymentId);
    const order = payment?.orderId ? await findOrder(tx, payment.orderId) : null;
    if (!payment || !order) return { disputeId: null, close: false };
    const settings = await findDisputeSettings(tx, order.organizationId);
    const { amount, taxAmount } = splitDisputedAmount(order, event.amount);
    const autoAccept = shouldAutoAccept(amount, event.status, settings?.disputeAutoAcceptBelowAmount ?? null);
    // Only a one-time order's benefits are the order's own; a subscription's follow the subscription.
    const revokesBenefits = Boolean(settings?.disputeRevokeBenefits) && order.subscriptionId === null;
    const row = await insertDispute(tx, {
      organizationId: order.organizationId,
      orderId: order.id,
      paymentId: payment.id,
      processor,
      processorDisputeId: event.processorDisputeId,
      status: autoAccept ? 'lost' : event.status,
      amount,
      taxAmount,
      currency: event.currency.toLowerCase(),
      reason: event.reason,
      evidenceDueBy: event.evidenceDueBy ? new Date(event.evidenceDueBy) : null,
      acceptedAt: autoAccept ? at : null,
      revokesBenefits,
      createdAt: at,
    });
    if (revokesBenefits && disputeHoldsBenefits(row.status as DisputeStatus)) {
      await markBenefitsOf(tx, row.orderId);
    }
    return { disputeId: row.id, close: autoAccept };
  });
}

/** The order's buyer: their grants are worked out again, without the order while it is disputed. */
async function markBenefitsOf(tx: Prisma.TransactionClient, orderId: string) {
  const order = await findOrder(tx, orderId);
  if (order) await markBenefitGrantsStale(tx, [order.customerId]);
}

/**
 * Concedes an accepted dispute with the processor and records where it ended there. Idempotent:
 * the processor answers a closed dispute as it ended.
 */
export async function closeAcceptedDispute(
  db: Db,
  processor: PaymentProcessor,
  processorDisputeId: string,
): Promise<DisputeStatus | null> {
  const dispute = await findDisputeByProcessorId(db, processor.name, processorDisputeId);
  if (!dispute?.acceptedAt) return null;
  const { status } = await processor.closeDispute({ processorDisputeId });
  if (status !== dispute.status) {
    await updateDispute(db, dispute.id, { status, modifiedAt: new Date() });
  }
  return status;
}
