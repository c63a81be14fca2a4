import { describe, expect, it } from '@jest/globals';
import { activeTrial, trialColumns, trialInputIssues } from '../products/trials.js';
import { nextSubscriptionStep, type SubscriptionWorkflowState } from './rules.js';
import { convertedFields, runningTrialEnd, trialEndOf } from './trials.js';

const at = new Date('2026-01-31T10:30:00.000Z');

describe('trialEndOf', () => {
  it('counts days and weeks as exact lengths of time', () => {
    expect(trialEndOf({ interval: 'day', count: 14 }, at).toISOString()).toBe('2026-02-14T10:30:00.000Z');
    expect(trialEndOf({ interval: 'week', count: 2 }, at).toISOString()).toBe('2026-02-14T10:30:00.000Z');
  });
  it('counts months and years on the calendar, on the month’s last day when it is shorter', () => {
    expect(trialEndOf({ interval: 'month', count: 1 }, at).toISOString()).toBe('2026-02-28T10:30:00.000Z');
    expect(trialEndOf({ interval: 'month', count: 3 }, at).toISOString()).toBe('2026-04-30T10:30:00.000Z');
    const leap = new Date('2028-02-29T00:00:00.000Z');
    expect(trialEndOf({ interval: 'year', count: 1 }, leap).toISOString()).toBe('2029-02-28T00:00:00.000Z');
  });
});

describe('activeTrial', () => {
  const product = { recurringInterval: 'month', trialInterval: 'day', trialIntervalCount: 7 };
  it('takes the override when it sets one, else the product’s', () => {
    expect(activeTrial({ allowTrial: true, override: null, product })).toEqual({ interval: 'day', count: 7 });
    expect(
      activeTrial({ allowTrial: true, override: { trialInterval: 'week', trialIntervalCount: 2 }, product }),
    ).toEqual({ interval: 'week', count: 2 });
  });
  it('gives none when declined or for a one-time product', () => {
    expect(activeTrial({ allowTrial: false, override: null, product })).toBeNull();
    expect(
      activeTrial({ allowTrial: true, override: null, product: { ...product, recurringInterval: null } }),
    ).toBeNull();
  });
});

describe('trial inputs', () => {
  it('asks for both fields or neither', () => {
    expect(trialInputIssues({ trial_interval: 'day', trial_interval_count: 3 })).toEqual([]);
    expect(trialInputIssues({})).toEqual([]);
    expect(trialInputIssues({ trial_interval: 'day' })).toEqual([
      {
        loc: ['body', 'trial_interval_count'],
        msg: 'Both trial_interval and trial_interval_count must be set together.',
        type: 'missing',
      },
    ]);
  });
  it('leaves the columns alone when the body does not name them, clears them on null', () => {
    expect(trialColumns({})).toBeUndefined();
    expect(trialColumns({ trial_interval: null, trial_interval_count: null })).toEqual({
      trialInterval: null,
      trialIntervalCount: null,
    });
  });
});

describe('the trial in the workflow', () => {
  const state: SubscriptionWorkflowState = {
    ended: false,
    currentPeriodIndex: 0,
    currentPeriodEndMs: 1_000,
    canceledAtMs: null,
    unpaidOrder: null,
    testClock: null,
    trialEndMs: 1_000,
  };
  it('converts at the trial end while trialing, and renews as usual after', () => {
    expect(nextSubscriptionStep(state)).toEqual({ kind: 'convert', index: 1, atMs: 1_000 });
    expect(nextSubscriptionStep({ ...state, trialEndMs: null })).toEqual({
      kind: 'cycle',
      index: 1,
      atMs: 1_000,
    });
  });
  it('runs only while trialing, and the conversion makes the plan active', () => {
    const end = new Date(1_000);
    expect(runningTrialEnd({ status: 'trialing', trialEnd: end })).toBe(end);
    expect(runningTrialEnd({ status: 'active', trialEnd: end })).toBeNull();
    expect(convertedFields({ status: 'trialing' })).toEqual({ status: 'active' });
    expect(convertedFields({ status: 'past_due' })).toEqual({});
  });
});
