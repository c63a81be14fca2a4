// "Your free trial ends on <date>": the `subscription:<id>` workflow reminds the buyer a few days
// before a trial converts (issue 34). Pure, so the workflow may import it.
import type { SubscriptionWorkflowState } from './rules.js';

/** How long before a trial's end the buyer is reminded. */
export const TRIAL_REMINDER_DAYS = 3;
const REMINDER_MS = TRIAL_REMINDER_DAYS * 24 * 60 * 60 * 1000;

/** The workflow's step that sends the reminder of the trial ending at `trialEndMs`. */
export type TrialReminderStep = { kind: 'trial_reminder'; atMs: number; trialEndMs: number };

/**
 * The reminder still to send before the trial converts, or null: none for a trial set to cancel
 * (nothing will be charged), none once sent for this end (`remindedForMs`: a `trial_end` moved
 * later is reminded again), and none for a trial shorter than the reminder's lead (a 2-day trial:
 * the buyer was told the date when it started). A reminder whose time passed while the workflow
 * was down is sent late rather than never; its email names the date, not a number of days.
 */
export function trialReminderStep(
  state: SubscriptionWorkflowState,
  remindedForMs: number | null,
): TrialReminderStep | null {
  const end = state.trialEndMs;
  if (end == null || state.ended || state.canceledAtMs !== null || state.unpaidOrder) return null;
  if (remindedForMs === end) return null;
  const atMs = end - REMINDER_MS;
  if (state.trialStartMs == null || atMs < state.trialStartMs) return null;
  return { kind: 'trial_reminder', atMs, trialEndMs: end };
}
