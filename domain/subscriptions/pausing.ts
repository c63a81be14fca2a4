// Pause and resume, the changes (docs/subscriptions.md, "Pause and resume"): the seller's and the
// buyer's requests (set to pause at the period's end, un-set it, resume by hand), and the two steps
// of the subscription's workflow (go `paused` at the period's end, resume at `resumes_at`). The
// rules they follow are pause.ts; the renewal that opens the resumed period is renewal.ts.
import { transaction } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import type { SubscriptionBillingContext } from './billing-step.js';
import { recordSubscriptionChange } from './change-events.js';
import {
  isPaused,
  pauseRefusal,
  RESUMES_AT_TOO_EARLY_MESSAGE,
  resumesAtTooEarly,
  type PauseStep,
} from './pause.js';
import {
  findSubscription,
  lockSubscription,
  updateSubscriptionRow,
  type SubscriptionRow,
} from './repository.js';

type Change = (row: SubscriptionRow, now: Date) => Prisma.SubscriptionUncheckedUpdateInput;

function refuseUnless(row: SubscriptionRow, change: Parameters<typeof pauseRefusal>[1]): void {
  const refusal = pauseRefusal(row, change);
  if (refusal) throw new AppError(refusal.error, refusal.message);
}

/**
 * Pause at the end of the current period (benefits and billing go on until then), resuming by
 * itself at `resumesAt` when given. `field` is where a too early `resumes_at` is reported.
 */
export function pauseAtPeriodEnd(
  resumesAt: Date | null,
  field: (string | number)[] = ['body', 'resumes_at'],
): Change {
  return (row) => {
    refuseUnless(row, { kind: 'pause', resumesAt });
    if (resumesAt && resumesAtTooEarly(row, resumesAt)) {
      throw new InvalidFieldError(field, RESUMES_AT_TOO_EARLY_MESSAGE);
    }
    return { pauseAtPeriodEnd: true, resumesAt };
  };
}

/** Un-sets a scheduled pause: the plan renews at the period's end as before. */
export const cancelScheduledPause: Change = (row) => {
  refuseUnless(row, { kind: 'unpause' });
  return { pauseAtPeriodEnd: false, resumesAt: null };
};

/**
 * The fields of a paused plan resumed at `at`: active again, and its periods counted from `at`
 * (the anchor moves to the resume instant, so a plan resumed on the 17th renews on the 17th).
 * The period itself is opened, and charged, by the workflow's renewal right after (pause.ts
 * `pauseStep`): its order's request key is the next period index, as every renewal's.
 */
function resumedFields(row: SubscriptionRow, at: Date): Prisma.SubscriptionUncheckedUpdateInput {
  return {
    status: 'active',
    pausedAt: null,
    resumesAt: null,
    billingAnchor: at,
    periodIndexBase: row.currentPeriodIndex + 1,
  };
}

/** Resume a paused plan now (by hand): a new period from now, charged at once. */
export const resumeNow: Change = (row, now) => {
  refuseUnless(row, { kind: 'resume' });
  return resumedFields(row, now);
};

export type PauseStepOutcome = { outcome: 'paused' | 'resumed' | 'stale' };

/**
 * The workflow's pause steps, each one transaction under the row's lock that changes the row only
 * when it is still due (so a retry after the commit, or a step overtaken by a change, is `stale`):
 * - `pause`: period `index` ended at `nowMs` with the plan set to pause (and not to cancel): it
 *   goes `paused` as of the period's end, with no order; its benefits are revoked unless its
 *   product keeps them (the grant sync reads `pause_keeps_benefits`).
 * - `resume`: a paused plan whose `resumes_at` has come resumes at it, as `resumeNow` does.
 */
export async function runPauseStep(
  ctx: Pick<SubscriptionBillingContext, 'db' | 'publicUrl'>,
  input: { subscriptionId: string; step: PauseStep; nowMs: number },
): Promise<PauseStepOutcome> {
  const { step } = input;
  return transaction(ctx.db, async (tx) => {
    await lockSubscription(tx.prisma, input.subscriptionId);
    const row = await findSubscription(tx.prisma, input.subscriptionId);
    if (!row) return { outcome: 'stale' };
    const at = new Date(input.nowMs);
    let data: Prisma.SubscriptionUncheckedUpdateInput;
    if (step.kind === 'pause') {
      const due =
        row.status === 'active' &&
        row.endedAt === null &&
        row.pauseAtPeriodEnd &&
        !row.cancelAtPeriodEnd &&
        row.currentPeriodIndex === step.index &&
        row.currentPeriodEnd.getTime() <= input.nowMs;
      if (!due) return { outcome: 'stale' };
      data = {
        status: 'paused',
        pausedAt: row.currentPeriodEnd,
        pauseAtPeriodEnd: false,
        failedAttempts: 0,
        nextAttemptAt: null,
      };
    } else {
      const due = isPaused(row) && row.resumesAt !== null && row.resumesAt.getTime() <= input.nowMs;
      if (!due) return { outcome: 'stale' };
      // Dated at `resumes_at` itself: on a test clock advanced past it, the new period starts
      // then, not at the clock's time.
      data = resumedFields(row, row.resumesAt!);
    }
    const after = await updateSubscriptionRow(tx.prisma, row.id, data);
    await recordSubscriptionChange(ctx, tx, row, after, at);
    return { outcome: step.kind === 'pause' ? 'paused' : 'resumed' };
  });
}
