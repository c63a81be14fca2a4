// A seller moves or ends a subscription's trial (`subscriptions.update` with `trial_end`, Polar's
// semantics): a trialing plan's trial ends at the new date, or now (`"now"`: the workflow converts
// it at once, charging the first period); an active plan gets a free trial from its period's end
// to the date (`trialing` until then, nothing charged at the period's end). The period and the
// billing anchor move with the trial (trials.ts), so the first charged period starts at its end.
import type { Prisma } from '../../generated/prisma/client.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import { isPaused } from './pause.js';
import type { SubscriptionRow } from './repository.js';
import { movedTrialFields } from './trials.js';

const FIELD = ['body', 'trial_end'];

/** The change `trial_end` asks for: a date (ISO-8601 with offset) or `"now"`. */
export function changeTrialEnd(trialEnd: string) {
  return (row: SubscriptionRow, now: Date): Prisma.SubscriptionUncheckedUpdateInput => {
    // Polar's InactiveSubscription: only a plan in the active group (trialing or active) has a
    // trial to move; a past-due, paused or ended one must be settled first.
    if (row.endedAt !== null || isPaused(row) || (row.status !== 'trialing' && row.status !== 'active')) {
      throw new AppError('InactiveSubscription');
    }
    const trialing = row.status === 'trialing';
    if (trialEnd === 'now') {
      if (!trialing) throw new InvalidFieldError(FIELD, 'The subscription is not currently trialing.');
      return { ...movedTrialFields(now), ...endsWithPeriod(row, now) };
    }
    const at = new Date(trialEnd);
    if (at.getTime() <= now.getTime()) throw new InvalidFieldError(FIELD, 'Trial end must be in the future.');
    if (trialing) return { ...movedTrialFields(at), ...endsWithPeriod(row, at) };
    // A new trial must not shorten what the customer paid for (Polar's rule).
    if (at.getTime() <= row.currentPeriodEnd.getTime()) {
      throw new InvalidFieldError(FIELD, 'Trial end must be after the current period end.');
    }
    if (row.pauseAtPeriodEnd) {
      throw new InvalidFieldError(FIELD, 'This subscription is set to pause at the end of its period.');
    }
    return {
      status: 'trialing',
      // The free part starts where the paid period would have ended.
      trialStart: row.currentPeriodEnd,
      ...movedTrialFields(at),
      // The next period, the first charged after the trial, starts at the anchor.
      periodIndexBase: row.currentPeriodIndex + 1,
      ...endsWithPeriod(row, at),
    };
  };
}

/** A plan set to cancel ends with its period, wherever that now ends. */
const endsWithPeriod = (row: SubscriptionRow, end: Date) => (row.cancelAtPeriodEnd ? { endsAt: end } : {});
