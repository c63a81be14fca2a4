// Stuck work: what has stopped moving before a buyer or seller notices (docs/operations.md,
// "Stuck work"). Four signals, each with the threshold past which it is shown to platform admins,
// counted in `tollgate_stuck_work` and marked on its workflow as `TollgateStuck = <kind>`.
// Pure: imported by the repository, the service and the web app; the kinds and the signal are in
// rules.ts, which the workflows import.

import type { StuckWorkKind } from './rules.js';

export { STUCK_WORK_KINDS, type StuckWorkKind } from './rules.js';

/**
 * An activity is stuck from this attempt on. The workflows' capped back-off (1 s, doubling) puts the
 * 8th attempt about two minutes after the first failure: past a blip, well before anyone writes in.
 */
export const STUCK_ACTIVITY_ATTEMPTS = 8;

/** An outbox event not dispatched after this long: the dispatcher, or every worker, has stopped. */
export const OUTBOX_EVENT_STUCK_SECONDS = 5 * 60;

/** An enabled endpoint whose deliveries have all failed for this long has stopped receiving events. */
export const WEBHOOK_ENDPOINT_FAILING_SECONDS = 60 * 60;

/**
 * A confirmed checkout not charged (succeeded or failed) after this long. The buyer's bank gets
 * 30 minutes for 3-D Secure; a card settles in seconds. A bank debit still processing shows here
 * too: it is the cue to look, and the entry says what the checkout waits for.
 */
export const CHECKOUT_UNSETTLED_SECONDS = 60 * 60;

/** At most this many entries of each kind are listed (the counts are exact up to the same cap). */
export const STUCK_WORK_LIST_CAP = 100;

/** What each kind means, as the operators' page heads it. */
export const STUCK_WORK_TITLES: Record<StuckWorkKind, string> = {
  activity_retrying: 'Activity failing and retrying',
  outbox_event_old: 'Webhook events not dispatched',
  webhook_endpoint_failing: 'Webhook endpoint failing',
  checkout_unsettled: 'Checkout confirmed but not charged',
};

/** How the operators' page counts each kind: "1 activity retrying", "3 activities retrying". */
export const STUCK_WORK_COUNTED: Record<StuckWorkKind, { one: string; other: string }> = {
  activity_retrying: { one: 'activity retrying', other: 'activities retrying' },
  outbox_event_old: { one: 'webhook event not dispatched', other: 'webhook events not dispatched' },
  webhook_endpoint_failing: { one: 'webhook endpoint failing', other: 'webhook endpoints failing' },
  checkout_unsettled: { one: 'checkout confirmed, not charged', other: 'checkouts confirmed, not charged' },
};

/** What the operator can do about each kind, in a sentence. */
export const STUCK_WORK_ADVICE: Record<StuckWorkKind, string> = {
  activity_retrying:
    'Read the last error: a bug or an outside service down. Fix the cause and the next retry goes through; the workflow waits meanwhile.',
  outbox_event_old:
    'Check that a worker runs and that the webhook dispatcher workflow is running (its watchdog restarts it every 5 minutes).',
  webhook_endpoint_failing:
    'The seller’s receiver is failing: tell the organization. After 10 events in a row fail every retry the endpoint is disabled.',
  checkout_unsettled:
    'Look at the checkout’s workflow and the payment processor’s dashboard: the charge’s outcome never reached Tollgate.',
};

const minutes = (seconds: number) => Math.round(seconds / 60);

/** The threshold of each kind, in words (the page's legend and the docs say the same). */
export const STUCK_WORK_THRESHOLDS: Record<StuckWorkKind, string> = {
  activity_retrying: `${STUCK_ACTIVITY_ATTEMPTS} attempts or more`,
  outbox_event_old: `older than ${minutes(OUTBOX_EVENT_STUCK_SECONDS)} minutes`,
  webhook_endpoint_failing: `every delivery failing for ${minutes(WEBHOOK_ENDPOINT_FAILING_SECONDS)} minutes`,
  checkout_unsettled: `confirmed more than ${minutes(CHECKOUT_UNSETTLED_SECONDS)} minutes ago`,
};
