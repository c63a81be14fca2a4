// Plan changes at the next period (`proration_behavior: next_period`, Polar's `pending_update`):
// the change is recorded on the subscription and nothing is billed or switched until the period
// ends. Its renewal applies it first, at the period's end, so the one renewal order bills the new
// plan's fees (with the old plan's usage of the ended period) and the benefits switch then.
// Clearing it (`{pending_update: null}`) keeps the current plan. Asking for another product
// replaces it; asking for the current product, or any change that applies at once, cancels it.
import { meterCycleColumnsOf } from '../products/meter-cycles.js';
import { randomUUID } from 'node:crypto';
import { transaction, type Db } from '../../infra/db.js';
import { findLiveCustomer, markCustomerMetersStale } from '../customers/repository.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import { findProduct, type ProductRow } from '../products/repository.js';
import { recordSubscriptionChange } from './change-events.js';
import {
  applyPlan,
  assertCaughtUpWithClock,
  isChangeable,
  planProductChange,
  type ChangeTarget,
  type PlanChangeContext,
} from './changes.js';
import {
  findSubscription,
  lockSubscription,
  recordSubscriptionProduct,
  subscriptionNow,
  updateSubscriptionRow,
  type SubscriptionRow,
} from './repository.js';
import type { PendingSubscriptionUpdate } from './schemas.js';
import { subscriptionView } from './views.js';

type PendingFields = Pick<
  SubscriptionRow,
  | 'pendingUpdateId'
  | 'pendingProductId'
  | 'pendingSeats'
  | 'pendingUpdateCreatedAt'
  | 'pendingUpdateModifiedAt'
  | 'currentPeriodEnd'
  | 'endedAt'
>;

/** The columns of no pending update: what clearing, applying or dropping one writes. */
export const NO_PENDING_UPDATE = {
  pendingUpdateId: null,
  pendingProductId: null,
  pendingSeats: null,
  pendingUpdateCreatedAt: null,
  pendingUpdateModifiedAt: null,
} as const;

/** The wire's `pending_update`: applied at the current period's end, however the period moved. */
export function pendingUpdateView(row: PendingFields): PendingSubscriptionUpdate | null {
  if (!row.pendingUpdateId || !row.pendingProductId || !row.pendingUpdateCreatedAt || row.endedAt)
    return null;
  return {
    created_at: row.pendingUpdateCreatedAt.toISOString(),
    modified_at: row.pendingUpdateModifiedAt?.toISOString() ?? null,
    id: row.pendingUpdateId,
    applies_at: row.currentPeriodEnd.toISOString(),
    product_id: row.pendingProductId,
    seats: row.pendingSeats,
    units: null,
  };
}

/**
 * The columns once `target` is asked for at the period's end, at `at`. The pending update is the
 * plan of the next period, a product and (with a seat change) its seats: seats asked for alone go
 * on the product it will be on (a plan change scheduled first keeps its product); a plan change
 * asked for alone replaces the seats too. A new update gets `newId`; a changed one keeps its id and
 * creation. Back to the plan as it is cancels it; `null`: nothing to write.
 */
export function scheduledUpdate(
  row: Pick<SubscriptionRow, 'productId' | 'seats'> & PendingFields,
  target: ChangeTarget,
  at: Date,
  newId: string,
): typeof NO_PENDING_UPDATE | Omit<PendingFields, 'currentPeriodEnd' | 'endedAt'> | null {
  const pending = pendingUpdateView(row);
  const productId = target.productId ?? pending?.product_id ?? row.productId;
  // A plan change asked for on its own takes the seats a change to that product gives (kept, or its
  // fewest): seats scheduled for the current product are not carried onto another.
  const seats =
    target.seats !== undefined
      ? target.seats
      : target.productId !== undefined
        ? null
        : (pending?.seats ?? null);
  const asItIs = productId === row.productId && (seats === null || seats === row.seats);
  if (asItIs) return pending ? NO_PENDING_UPDATE : null;
  if (pending && pending.product_id === productId && pending.seats === seats) return null;
  return pending
    ? {
        pendingUpdateId: pending.id,
        pendingProductId: productId,
        pendingSeats: seats,
        pendingUpdateCreatedAt: row.pendingUpdateCreatedAt,
        pendingUpdateModifiedAt: at,
      }
    : {
        pendingUpdateId: newId,
        pendingProductId: productId,
        pendingSeats: seats,
        pendingUpdateCreatedAt: at,
        pendingUpdateModifiedAt: null,
      };
}

/**
 * What the renewal opening period `index` at `nowMs` does with the pending update: `apply` it
 * first, `drop` it (the plan is set to cancel: it ends instead of changing), or nothing (`none`:
 * none pending, or not this renewal's yet).
 */
export function pendingUpdateAtRenewal(
  row: Pick<SubscriptionRow, 'currentPeriodIndex' | 'cancelAtPeriodEnd'> & PendingFields,
  index: number,
  nowMs: number,
): 'apply' | 'drop' | 'none' {
  if (!pendingUpdateView(row)) return 'none';
  if (row.currentPeriodIndex !== index - 1 || row.currentPeriodEnd.getTime() > nowMs) return 'none';
  return row.cancelAtPeriodEnd ? 'drop' : 'apply';
}

/**
 * `product_id` with `next_period`: checked as a change now would be (a product it can move to, in
 * its currency), then only recorded; `subscription.updated` says so.
 */
export async function scheduleProductChange(
  ctx: PlanChangeContext,
  current: SubscriptionRow,
  target: ChangeTarget,
) {
  if (!isChangeable(current)) throw new AppError('AlreadyCanceledSubscription');
  const after = await transaction(ctx.db, async (tx) => {
    await lockSubscription(tx.prisma, current.id);
    const row = (await findSubscription(tx.prisma, current.id))!;
    if (!isChangeable(row)) throw new AppError('AlreadyCanceledSubscription');
    assertCaughtUpWithClock(row);
    const at = subscriptionNow(row);
    const fields = scheduledUpdate(row, target, at, randomUUID());
    const scheduled = fields && fields.pendingProductId ? fields : null;
    // Refuses what the renewal could not move to, as a change now would (and the current product
    // asked for again, with nothing pending).
    if (scheduled || !pendingUpdateView(row)) {
      const productId = scheduled?.pendingProductId ?? target.productId ?? row.productId;
      const product = await findProduct(tx.prisma, productId, [row.organizationId]);
      planProductChange(row, product, 'prorate', at, scheduled?.pendingSeats ?? target.seats);
    }
    if (!fields) return row;
    const updated = await updateSubscriptionRow(tx.prisma, row.id, fields);
    await recordSubscriptionChange(ctx, tx, row, updated, at);
    return updated;
  });
  return subscriptionView(after, ctx.publicUrl);
}

/** `{pending_update: null}`: the change scheduled for the period's end is cancelled. */
export async function clearPendingUpdate(ctx: Pick<PlanChangeContext, 'db' | 'publicUrl'>, id: string) {
  const after = await transaction(ctx.db, async (tx) => {
    await lockSubscription(tx.prisma, id);
    const row = (await findSubscription(tx.prisma, id))!;
    if (!pendingUpdateView(row)) {
      throw new InvalidFieldError(
        ['body', 'pending_update'],
        'This subscription has no pending update to clear.',
      );
    }
    const updated = await updateSubscriptionRow(tx.prisma, id, NO_PENDING_UPDATE);
    await recordSubscriptionChange(ctx, tx, row, updated, subscriptionNow(row));
    return updated;
  });
  return subscriptionView(after, ctx.publicUrl);
}

/**
 * Before the renewal opening period `index` prices its order: the pending update is applied at
 * the period's end (the time the change is dated), in one transaction that clears it, so a retry
 * finds nothing left to apply. At the period's end no time is left to prorate: the old plan's
 * metered usage of the period waits for the renewal order (its prices leave), and a new interval
 * starts its periods at the renewal. A product that can no longer be moved to (archived since,
 * or priced in another currency now) drops the update and the plan renews unchanged.
 * Returns whether it changed the subscription.
 */
export async function applyDuePendingUpdate(
  ctx: { db: Db; publicUrl: string },
  input: { subscriptionId: string; index: number; nowMs: number },
): Promise<boolean> {
  const first = await findSubscription(ctx.db, input.subscriptionId);
  if (!first || pendingUpdateAtRenewal(first, input.index, input.nowMs) === 'none') return false;
  const product = await findProduct(ctx.db, first.pendingProductId!, [first.organizationId]);
  const customer = await findLiveCustomer(ctx.db, first.customerId);
  return transaction(ctx.db, async (tx) => {
    await lockSubscription(tx.prisma, input.subscriptionId);
    const row = (await findSubscription(tx.prisma, input.subscriptionId))!;
    const what = pendingUpdateAtRenewal(row, input.index, input.nowMs);
    if (what === 'none') return false;
    // Replaced by another product since it was read: the activity's retry reads it again.
    if (product && row.pendingProductId !== product.id) {
      throw new Error(`subscription ${row.id} changed its pending update while it was being applied`);
    }
    const at = row.currentPeriodEnd;
    const plan =
      what === 'apply' && product ? movableTo(row, product, at, row.pendingSeats ?? undefined) : null;
    if (!plan) {
      const updated = await updateSubscriptionRow(tx.prisma, row.id, NO_PENDING_UPDATE);
      await recordSubscriptionChange(ctx, tx, row, updated, at);
      return true;
    }
    // Nothing is prorated at the period's end; the renewal bills the new plan's period.
    const creditsTaken = await applyPlan(
      tx,
      row,
      product!,
      { ...plan, behavior: 'prorate', lines: [] },
      at,
      0,
      customer,
    );
    await markCustomerMetersStale(tx.prisma, [row.customerId]);
    const updated = await updateSubscriptionRow(tx.prisma, row.id, {
      ...NO_PENDING_UPDATE,
      productId: product!.id,
      seats: plan.seats,
      ...meterCycleColumnsOf(product!),
      amount: plan.newAmount,
      periodMeterCredits: creditsTaken,
      ...(plan.intervalChange
        ? {
            // The next period (the renewal's) starts the new interval's periods at this period's end.
            recurringInterval: product!.recurringInterval!,
            recurringIntervalCount: plan.count,
            billingAnchor: at,
            periodIndexBase: row.currentPeriodIndex + 1,
          }
        : {}),
    });
    if (product!.id !== row.productId) {
      await recordSubscriptionProduct(tx.prisma, {
        subscriptionId: row.id,
        productId: product!.id,
        productName: product!.name,
        since: at,
      });
    }
    await recordSubscriptionChange(ctx, tx, row, updated, at);
    return true;
  });
}

/** The change to `product` (at `seats`) at `at`, or null when the subscription can no longer move to it. */
function movableTo(row: SubscriptionRow, product: ProductRow, at: Date, seats: number | undefined) {
  try {
    return planProductChange(row, product, 'prorate', at, seats);
  } catch (error) {
    if (error instanceof InvalidFieldError) return null;
    throw error;
  }
}
