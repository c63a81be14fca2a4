// The workflow's meter-cycle step (meter-cycles.ts has the arithmetic): a meter cycle of the
// product's own closes inside the billing period. Its metered usage is billed in an order of its
// own (`subscription_meter_cycle`, as Polar settles it), charged at once; the meters start again
// and the meter credits reset and credit again (the plan's benefits cycle). The renewal at the
// period's end bills the last cycle's usage with the new period's fees, as without a cycle.
import { transaction, type Tx } from '../../infra/db.js';
import { requestGrantCycles } from '../benefit-grants/repository.js';
import { markCustomerMetersStale } from '../customers/repository.js';
import type { Mailer } from '../emails/mailer.js';
import { findOrderStatusByRequestKey, type OrderRow } from '../orders/repository.js';
import { createSubscriptionOrder } from '../orders/service.js';
import type { PaymentProcessor } from '../payments/processor.js';
import { customerTaxBasis } from '../tax/rules.js';
import {
  lockStepRow,
  orderRelationsOf,
  subscriptionOrderOf,
  STEP_TRANSACTION,
  type SubscriptionBillingContext,
} from './billing-step.js';
import { recordSubscriptionChange } from './change-events.js';
import { collectSubscriptionOrder, type CollectOutcome } from './collection.js';
import {
  currentMeterPeriod,
  meterClockOf,
  meterCycleDueMs,
  meterCycleKey,
  type MeterPeriod,
} from './meter-cycles.js';
import { notifySubscription } from './notices.js';
import { billedCustomerOf, measureMeteredUsage, type MeteredUsage } from './renewal-pricing.js';
import type { BillingLine } from './rules.js';
import {
  findSubscriptionForStep,
  setSubscriptionMeterCycle,
  updateSubscriptionRecord,
  type SubscriptionRow,
  type SubscriptionStepRow,
} from './repository.js';
import { isEnded } from './workflow-state.js';

export type MeterCycleOutcome =
  /** Not due yet at `nowMs`, or the workflow is behind the row (closed already, the plan changed). */
  | { outcome: 'not_due' | 'stale'; orderId: null; collected: null }
  /** Closed; `orderId` null when the cycle's usage billed nothing (no order, as Polar). */
  | { outcome: 'closed'; orderId: string | null; collected: CollectOutcome | null };

/**
 * A new subscription keeps its product's meter cycle (Polar snapshots it on the subscription):
 * written in the transaction that inserted it.
 */
export async function keepProductMeterCycle<T extends SubscriptionRow>(tx: Tx['prisma'], row: T): Promise<T> {
  if (row.product.meterInterval === null) return row;
  const cycle = {
    meterInterval: row.product.meterInterval,
    meterIntervalCount: row.product.meterIntervalCount,
  };
  await setSubscriptionMeterCycle(tx, row.id, cycle);
  return { ...row, ...cycle };
}

/**
 * Closes the meter cycle of period `index` that ends at `endMs`, then charges its order (try 1)
 * and sends its receipt once paid. The order's request key (subscription, period, cycle end)
 * makes a retry after any part find the same order: a cycle is billed once, whatever crashes.
 */
export async function closeMeterCycle(
  ctx: SubscriptionBillingContext,
  processor: PaymentProcessor,
  mailer: Mailer,
  input: { subscriptionId: string; index: number; endMs: number; nowMs: number },
): Promise<MeterCycleOutcome> {
  const key = meterCycleKey(input.subscriptionId, input.index, input.endMs);
  const before = await findSubscriptionForStep(ctx.db, input.subscriptionId);
  if (!before) return { outcome: 'stale', orderId: null, collected: null };
  if (!dueHere(before, input)) {
    // Closed already (a retry after the commit): charge and notify its order again, each by its key.
    const done = await findOrderStatusByRequestKey(ctx.db, key);
    if (!done) return { outcome: 'stale', orderId: null, collected: null };
    return collectAndNotify(ctx, processor, mailer, input, done.id);
  }
  if (input.endMs > input.nowMs) return { outcome: 'not_due', orderId: null, collected: null };
  // Measured once, before the lock, as the renewal measures: a late event dated in it is not billed.
  const { period, usage, items, net, taxAmount } = await priceMeterCycle(ctx, before, input.index);
  const customer = billedCustomerOf(before);

  const made = await transaction(
    ctx.db,
    async (tx): Promise<{ row: SubscriptionStepRow; order: OrderRow | null } | null> => {
      // A plan or price change since the read fails here (lockStepRow); the retry measures again.
      const row = await lockStepRow(tx, before);
      if (!row || !dueHere(row, input)) return null;
      // As the renewal dates its order: when the step runs (a test clock's due instant).
      const at = new Date(input.nowMs);
      // The fees' discount does not apply to usage (docs/usage.md), nor do pending proration
      // lines: those wait for the renewal.
      const order =
        items.length > 0
          ? await createSubscriptionOrder(
              tx,
              subscriptionOrderOf(row, customer, {
                discountId: null,
                billingReason: 'subscription_meter_cycle',
                items,
                subtotalAmount: net,
                discountAmount: 0,
                netAmount: net,
                taxAmount,
                requestKey: key,
                at,
              }),
              orderRelationsOf(row),
            )
          : null;
      // The next cycle starts at this one's end, with none of its meter credits taken yet.
      const closed = await updateSubscriptionRecord(tx.sql, row.id, {
        meterPeriodStart: period.end,
        periodMeterCredits: {},
      });
      // The plan's benefits cycle: a meter credit resets and credits again (benefits.md).
      await requestGrantCycles(tx.sql, row.id, period.end);
      if (usage.length > 0) await markCustomerMetersStale(tx.prisma, [row.customerId]);
      const after = { ...row, ...closed };
      // `current_meter_period_*` moved: `subscription.updated`.
      await recordSubscriptionChange(ctx, tx, row, after, at);
      return { row: after, order };
    },
    STEP_TRANSACTION,
  );
  if (!made) return { outcome: 'stale', orderId: null, collected: null };
  if (!made.order) return { outcome: 'closed', orderId: null, collected: null };
  return collectAndNotify(ctx, processor, mailer, input, made.order.id, made);
}

export type PricedMeterCycle = {
  period: MeterPeriod;
  usage: MeteredUsage[];
  /** The order's lines: each metered price's usage of the cycle, zero lines left out. */
  items: BillingLine[];
  net: number;
  taxAmount: number;
};

/**
 * The order that closes the current meter cycle, priced as the step bills it (the upcoming
 * invoice shows it unmade): usage measured up to the cycle's end, less the cycle's credits, and
 * its tax quoted under the order's own key (before any lock: Stripe Tax is never waited for while
 * the row is locked).
 */
export async function priceMeterCycle(
  ctx: { tax: SubscriptionBillingContext['tax']; db: SubscriptionBillingContext['db'] },
  row: SubscriptionStepRow,
  index: number,
): Promise<PricedMeterCycle> {
  const period = currentMeterPeriod(meterClockOf(row))!;
  const { usage } = await measureMeteredUsage(ctx.db.sql, row, period.end);
  const items = usage.map((each) => each.line).filter((line) => line.amount > 0);
  const net = items.reduce((sum, line) => sum + line.amount, 0);
  const quote =
    net > 0
      ? await ctx.tax.quote({
          amount: net,
          currency: row.currency,
          ...customerTaxBasis(billedCustomerOf(row)),
          productId: row.productId,
          idempotencyKey: `${meterCycleKey(row.id, index, period.end.getTime())}:tax:${net}`,
        })
      : null;
  return { period, usage, items, net, taxAmount: quote?.amount ?? 0 };
}

/** The row's current meter cycle is the one this step closes. */
function dueHere(row: SubscriptionStepRow, input: { index: number; endMs: number }): boolean {
  return (
    !isEnded(row) &&
    row.currentPeriodIndex === input.index &&
    meterCycleDueMs(meterClockOf(row)) === input.endMs
  );
}

async function collectAndNotify(
  ctx: SubscriptionBillingContext,
  processor: PaymentProcessor,
  mailer: Mailer,
  input: { subscriptionId: string; nowMs: number },
  orderId: string,
  inHand?: { row: SubscriptionStepRow; order: OrderRow | null },
): Promise<MeterCycleOutcome> {
  const held = inHand?.order ? { row: inHand.row, order: inHand.order } : undefined;
  const collected = await collectSubscriptionOrder(
    ctx,
    processor,
    { subscriptionId: input.subscriptionId, orderId, attempt: 1, nowMs: input.nowMs },
    held,
  );
  // Also after a retry that finds the order paid: the receipt's key sends it once.
  await notifySubscription(ctx, mailer, { kind: 'receipt', subscriptionId: input.subscriptionId, orderId });
  return { outcome: 'closed', orderId, collected };
}
