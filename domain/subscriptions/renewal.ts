// The end of a period: the subscription moves into the next one (or ends) with its renewal order,
// which is charged at once and its receipt sent once paid.
import { transaction } from '../../infra/db.js';
import { requestGrantCycles } from '../benefit-grants/repository.js';
import { markCustomerMetersStale } from '../customers/repository.js';
import type { Mailer } from '../emails/mailer.js';
import { findOrderStatusByRequestKey, type OrderRow } from '../orders/repository.js';
import { createSubscriptionOrder } from '../orders/service.js';
import type { PaymentProcessor } from '../payments/processor.js';
import {
  lockStepRow,
  orderRelationsOf,
  subscriptionOrderOf,
  STEP_TRANSACTION,
  type SubscriptionBillingContext,
} from './billing-step.js';
import { recordSubscriptionChange } from './change-events.js';
import { collectSubscriptionOrder, type CollectOutcome } from './collection.js';
import { notifySubscription } from './notices.js';
import { applyDuePendingUpdate } from './pending-updates.js';
import { billedCustomerOf, cycleKey, openedPeriod, planRenewal, priceRenewal } from './renewal-pricing.js';
import {
  findSubscriptionForStep,
  insertPendingItem,
  markPendingItemsBilled,
  updateSubscriptionRecord,
  type SubscriptionStepRow,
} from './repository.js';
import { renewalMakesOrder, type SubscriptionWorkflowState } from './rules.js';
import { convertedFields } from './trials.js';
import { isEnded, subscriptionWorkflowState } from './workflow-state.js';

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
  // A change scheduled for the period's end is applied first: this renewal bills the new plan.
  await applyDuePendingUpdate(ctx, input);
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
            subscriptionOrderOf(row, customer, {
              discountId: plan.bill.discount > 0 ? row.discountId : null,
              billingReason: 'subscription_cycle',
              items: plan.bill.items,
              subtotalAmount: plan.bill.subtotal,
              discountAmount: plan.bill.discount,
              netAmount: plan.bill.net,
              taxAmount: quoted.taxAmount,
              requestKey: key,
              at,
            }),
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
        ...convertedFields(row),
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
