// What the `subscription:<id>` workflow reads of its subscription to choose its next step, and
// when a subscription has ended for good.
import type { Db } from '../../infra/db.js';
import {
  markCaughtUpWithClock,
  findSubscriptionWorkflowRow,
  type SubscriptionWorkflowRow,
} from './repository.js';
import { isPaused, pauseStateOf } from './pause.js';
import { awaitsCustomer, type SubscriptionWorkflowState } from './rules.js';
import { BILLABLE_STATUSES, type SubscriptionStatus } from './schemas.js';
import { runningTrialEnd } from './trials.js';
import { meterClockOf, meterCycleDueMs } from './meter-cycles.js';

/** Ended (canceled at the period's end, revoked, unpaid): it renews no more. */
export const isEnded = (row: { endedAt: Date | null; status: string }) =>
  row.endedAt !== null || !BILLABLE_STATUSES.includes(row.status as SubscriptionStatus);

/** What tells whether a subscription still bills, and what. */
export type LifeFields = Pick<
  SubscriptionWorkflowRow,
  'status' | 'endedAt' | 'cancelAtPeriodEnd' | 'failedAttempts' | 'nextAttemptAt'
>;

/**
 * A plan that ended at its period's end (not revoked, not unpaid) still collects its final order
 * (debits not billed yet) until its tries are given up (a last failed try leaves no next one).
 */
export const collectsFinalOrder = (row: LifeFields) =>
  row.status === 'canceled' &&
  row.endedAt !== null &&
  row.cancelAtPeriodEnd &&
  !(row.failedAttempts > 0 && row.nextAttemptAt === null);

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
    // A paused plan bills nothing but lives on: its workflow waits to resume it.
    ended: isEnded(row) && !final && !isPaused(row),
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
    trialEndMs: runningTrialEnd(row)?.getTime() ?? null,
    // Period 0 is the trial (trials.ts): it started when that period did.
    trialStartMs: runningTrialEnd(row) ? row.currentPeriodStart.getTime() : null,
    testClock: row.clockFrozenTime
      ? {
          frozenTimeMs: row.clockFrozenTime.getTime(),
          caughtUpToMs: row.clockCaughtUpTo?.getTime() ?? null,
        }
      : null,
    pause: pauseStateOf(row),
    // Not while trialing: the trial bills no usage, its first meter cycle starts at conversion.
    meterCycleEndMs: runningTrialEnd(row) ? null : meterCycleDueMs(meterClockOf(row)),
  };
}

/** The workflow has lived through its test clock's time up to `frozenTimeMs`. */
export async function reportCaughtUpWithClock(
  db: Db,
  input: { subscriptionId: string; frozenTimeMs: number },
): Promise<void> {
  await markCaughtUpWithClock(db, [input.subscriptionId], new Date(input.frozenTimeMs));
}
