// Pause and resume, the rules (docs/subscriptions.md, "Pause and resume"): which changes a
// subscription accepts, and the pause's steps in its workflow. Pure: the workflow (through
// rules.ts) and the web app read it; the changes and steps themselves are pausing.ts.
import type { SubscriptionStep } from './rules.js';

/** What the workflow reads of a pause (`SubscriptionWorkflowState.pause`). */
export type PauseState = {
  /** Set to pause at the end of the current period (`pause_at_period_end`). */
  atPeriodEnd: boolean;
  /** Paused since then (the end of its last period); null while it is not paused. */
  pausedAtMs: number | null;
  /** When it resumes by itself (`resumes_at`); null: only by hand. */
  resumesAtMs: number | null;
  /**
   * Resumed at this instant, its new period not opened yet: resuming moves the billing anchor to
   * the resume instant, after the last period's end, and the renewal that opens the period from
   * there is the workflow's next step (charged at once).
   */
  resumedAtMs: number | null;
};

/** The pause's steps: go `paused` at the period's end (period `index`), or resume. */
export type PauseStep = { kind: 'pause'; index: number; atMs: number } | { kind: 'resume'; atMs: number };

/** A paused subscription without `resumes_at` waits for someone to resume it, with no timer. */
export const UNTIL_RESUMED_BY_HAND = Number.POSITIVE_INFINITY;

/**
 * The step a pause puts before the renewal, or null when it has none to put: a paused plan waits
 * to resume (at `resumes_at`, or for ever until resumed by hand); a resumed one renews at once
 * from its resume instant; one set to pause pauses at its period's end instead of renewing,
 * unless it is also set to cancel (the cancellation wins, as on Polar).
 */
export function pauseStep(
  pause: PauseState | undefined,
  period: { index: number; endMs: number; canceling: boolean },
): SubscriptionStep | null {
  if (!pause) return null;
  if (pause.pausedAtMs !== null) return { kind: 'resume', atMs: pause.resumesAtMs ?? UNTIL_RESUMED_BY_HAND };
  if (pause.resumedAtMs !== null && pause.resumedAtMs > period.endMs) {
    return { kind: 'cycle', index: period.index + 1, atMs: pause.resumedAtMs };
  }
  if (pause.atPeriodEnd && !period.canceling)
    return { kind: 'pause', index: period.index, atMs: period.endMs };
  return null;
}

/** What a subscription is as far as pausing goes, from its own fields. */
export type PausableFields = {
  status: string;
  endedAt: Date | null;
  cancelAtPeriodEnd: boolean;
  pauseAtPeriodEnd: boolean;
  currentPeriodEnd: Date;
};

/** Why a change of the pause is refused (a 409 in Polar's words), or null when it is allowed. */
export function pauseRefusal(
  row: PausableFields,
  change: { kind: 'pause'; resumesAt: Date | null } | { kind: 'unpause' } | { kind: 'resume' },
): {
  error: 'CannotPauseSubscription' | 'NoScheduledPause' | 'NotPausedSubscription';
  message: string;
} | null {
  switch (change.kind) {
    // Polar pauses an active plan only: not one in a trial, in dunning, set to cancel or ended.
    case 'pause':
      return row.status === 'active' &&
        row.endedAt === null &&
        !row.cancelAtPeriodEnd &&
        !row.pauseAtPeriodEnd
        ? null
        : { error: 'CannotPauseSubscription', message: 'This subscription cannot be paused.' };
    case 'unpause':
      return row.pauseAtPeriodEnd && row.status === 'active'
        ? null
        : { error: 'NoScheduledPause', message: 'This subscription is not scheduled to be paused.' };
    case 'resume':
      return row.status === 'paused' && row.endedAt === null
        ? null
        : { error: 'NotPausedSubscription', message: 'This subscription is not paused.' };
  }
}

/** `resumes_at` must come after the period the plan pauses at the end of (Polar's 422). */
export const resumesAtTooEarly = (row: Pick<PausableFields, 'currentPeriodEnd'>, resumesAt: Date) =>
  resumesAt.getTime() <= row.currentPeriodEnd.getTime();

export const RESUMES_AT_TOO_EARLY_MESSAGE = 'resumes_at must be after the current period end.';

/** Paused (and not ended since: a paused plan can still be revoked). */
export const isPaused = (row: { status: string; endedAt: Date | null }) =>
  row.status === 'paused' && row.endedAt === null;

/** The workflow's view of the pause, from the subscription's own fields. */
export function pauseStateOf(row: {
  status: string;
  endedAt: Date | null;
  pauseAtPeriodEnd: boolean;
  pausedAt: Date | null;
  resumesAt: Date | null;
  billingAnchor: Date;
  currentPeriodEnd: Date;
}): PauseState {
  const paused = isPaused(row);
  return {
    atPeriodEnd: row.pauseAtPeriodEnd,
    pausedAtMs: paused ? (row.pausedAt?.getTime() ?? row.currentPeriodEnd.getTime()) : null,
    resumesAtMs: row.resumesAt?.getTime() ?? null,
    // Only a resume moves the anchor past the period's end (an interval change moves it inside).
    resumedAtMs:
      !paused && row.endedAt === null && row.billingAnchor.getTime() > row.currentPeriodEnd.getTime()
        ? row.billingAnchor.getTime()
        : null,
  };
}
