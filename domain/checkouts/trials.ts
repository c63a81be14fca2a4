// A checkout's free trial: the product's, overridden by the checkout (or the link that opened it),
// unless declined. A checkout with a trial charges nothing: it saves the card (a SetupIntent), the
// order is a $0 one for the trial period (as Polar's), and the subscription starts `trialing`.
import { DOCUMENT_LOCALE, formatDay } from '../dates/rules.js';
import { activeTrial, trialView, type Trial } from '../products/trials.js';
import { trialEndOf } from '../subscriptions/trials.js';

type TrialOfCheckout = {
  allowTrial: boolean;
  trialInterval: string | null;
  trialIntervalCount: number | null;
  product: {
    recurringInterval: string | null;
    trialInterval: string | null;
    trialIntervalCount: number | null;
  };
};

/** The trial a checkout gives when confirmed, or null. */
export const checkoutTrial = (row: TrialOfCheckout): Trial | null =>
  activeTrial({ allowTrial: row.allowTrial, override: row, product: row.product });

/**
 * The checkout's trial fields (@polar-sh/sdk@0.48.1). `trial_end` is the subscription's once it
 * started (`started`); before, when the trial would end if the buyer confirmed now, as Polar
 * computes it on each change: the trial starts with the subscription, at the fulfilment.
 */
export function checkoutTrialView(row: TrialOfCheckout, started: Date | null, now = new Date()) {
  const trial = checkoutTrial(row);
  const end = started ?? (trial ? trialEndOf(trial, now) : null);
  return {
    allow_trial: row.allowTrial,
    ...trialView(row),
    active_trial_interval: trial?.interval ?? null,
    active_trial_interval_count: trial?.count ?? null,
    trial_end: end?.toISOString() ?? null,
  };
}

/** The $0 order line of a trial, in Polar's words ("Trial period for Pro (Dec 2, 2026 - Dec 16, 2026)"). */
export function trialOrderLabel(productName: string, start: Date, end: Date): string {
  const day = (date: Date) => formatDay(date, { timeZone: 'UTC', locale: DOCUMENT_LOCALE, style: 'medium' });
  return `Trial period for ${productName} (${day(start)} - ${day(end)})`;
}
