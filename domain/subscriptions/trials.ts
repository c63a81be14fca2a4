// Free trials of a subscription (issue 34): when one ends, what a trialing subscription's row is,
// and moving or ending a trial (`subscriptions.update` with `trial_end`).
//
// A trial is the subscription's period 0: it runs from `trial_start` to `trial_end`, bills nothing
// (its ledger is empty) and its billing anchor is `trial_end`, so period 1, the first one charged,
// starts when the trial ends and later periods keep that day of the month. The workflow converts
// it at `trial_end` with the ordinary renewal (renewal.ts), which charges period 1 and makes the
// subscription `active`; a declined first charge goes through dunning as any renewal does. A trial
// set to cancel ends at `trial_end` with nothing charged (the renewal of a plan that ends bills
// no fee).
import type { Trial } from '../products/trials.js';
import { addCalendarMonths } from './rules.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * When a trial of `trial.count` units that starts at `from` ends: days and weeks are exact
 * lengths of time; months and years are calendar ones (31 January + 1 month = 28 or 29 February,
 * the month's last day when it is shorter), as Polar's `relativedelta`.
 */
export function trialEndOf(trial: Trial, from: Date): Date {
  switch (trial.interval) {
    case 'day':
      return new Date(from.getTime() + trial.count * DAY_MS);
    case 'week':
      return new Date(from.getTime() + trial.count * 7 * DAY_MS);
    case 'month':
      return addCalendarMonths(from, trial.count);
    case 'year':
      return addCalendarMonths(from, trial.count * 12);
  }
}

/** The row fields of a subscription that starts its trial at `at` and ends it at `trialEnd`. */
export function trialingFields(at: Date, trialEnd: Date) {
  return {
    status: 'trialing',
    trialStart: at,
    trialEnd,
    // Period 1 (the first one charged) starts at the anchor.
    billingAnchor: trialEnd,
    periodIndexBase: 1,
    currentPeriodIndex: 0,
    currentPeriodStart: at,
    currentPeriodEnd: trialEnd,
    // Nothing was billed for the trial: a plan change during it credits nothing.
    periodBilled: 0,
  } as const;
}

/**
 * The fields a trial moved to `trialEnd` changes: the trial and the period 0 it is end together,
 * and the anchor moves with them so the first charged period starts then.
 */
export function movedTrialFields(trialEnd: Date) {
  return { trialEnd, currentPeriodEnd: trialEnd, billingAnchor: trialEnd } as const;
}

/** A subscription's trial while it runs (trialing, not ended), or null. */
export function runningTrialEnd(row: { status: string; trialEnd: Date | null }): Date | null {
  return row.status === 'trialing' ? row.trialEnd : null;
}

/** What the renewal that ends a trial changes besides the period: the plan is `active` from then. */
export const convertedFields = (row: { status: string }) =>
  row.status === 'trialing' ? ({ status: 'active' } as const) : {};
