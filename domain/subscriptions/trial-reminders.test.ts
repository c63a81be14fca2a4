import { describe, expect, it } from '@jest/globals';
import type { SubscriptionWorkflowState } from './rules.js';
import { trialReminderStep } from './trial-reminders.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const start = Date.UTC(2026, 11, 2, 9, 30);

const trialing = (
  days: number,
  changes: Partial<SubscriptionWorkflowState> = {},
): SubscriptionWorkflowState => ({
  ended: false,
  currentPeriodIndex: 0,
  currentPeriodEndMs: start + days * DAY_MS,
  canceledAtMs: null,
  unpaidOrder: null,
  testClock: null,
  trialStartMs: start,
  trialEndMs: start + days * DAY_MS,
  ...changes,
});

describe('trialReminderStep', () => {
  it('reminds 3 days before the end of a trial that converts, once per end', () => {
    const state = trialing(14);
    expect(trialReminderStep(state, null)).toEqual({
      kind: 'trial_reminder',
      atMs: start + 11 * DAY_MS,
      trialEndMs: start + 14 * DAY_MS,
    });
    expect(trialReminderStep(state, start + 14 * DAY_MS)).toBeNull();
    // A trial_end moved later is a new end: reminded again.
    expect(trialReminderStep(trialing(30), start + 14 * DAY_MS)).toMatchObject({ atMs: start + 27 * DAY_MS });
  });

  it('a trial of exactly 3 days is reminded at its start; a shorter one never', () => {
    expect(trialReminderStep(trialing(3), null)).toMatchObject({ atMs: start });
    expect(trialReminderStep(trialing(2), null)).toBeNull();
  });

  it('none for a plan not trialing, set to cancel, ended, or with an order to collect', () => {
    expect(trialReminderStep(trialing(14, { trialEndMs: null, trialStartMs: null }), null)).toBeNull();
    expect(trialReminderStep(trialing(14, { canceledAtMs: start }), null)).toBeNull();
    expect(trialReminderStep(trialing(14, { ended: true }), null)).toBeNull();
    expect(
      trialReminderStep(trialing(14, { unpaidOrder: { id: 'o', attempt: 1, dueAtMs: start } }), null),
    ).toBeNull();
    // States recorded before the field existed carry no trial start: no reminder rather than a wrong one.
    expect(trialReminderStep(trialing(14, { trialStartMs: undefined }), null)).toBeNull();
  });
});
