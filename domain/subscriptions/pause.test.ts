import { describe, expect, it } from '@jest/globals';
import { pauseRefusal, pauseStateOf, pauseStep, UNTIL_RESUMED_BY_HAND } from './pause.js';

const END = Date.parse('2026-12-15T10:00:00Z');
const period = { index: 3, endMs: END, canceling: false };
const none = { atPeriodEnd: false, pausedAtMs: null, resumesAtMs: null, resumedAtMs: null };

describe('pauseStep', () => {
  it('puts nothing before the renewal of a plan that is not pausing', () => {
    expect(pauseStep(undefined, period)).toBeNull();
    expect(pauseStep(none, period)).toBeNull();
  });
  it('pauses at the period end, unless the plan is also set to cancel', () => {
    expect(pauseStep({ ...none, atPeriodEnd: true }, period)).toEqual({ kind: 'pause', index: 3, atMs: END });
    expect(pauseStep({ ...none, atPeriodEnd: true }, { ...period, canceling: true })).toBeNull();
  });
  it('waits to resume at resumes_at, or until resumed by hand', () => {
    expect(pauseStep({ ...none, pausedAtMs: END, resumesAtMs: END + 5 }, period)).toEqual({
      kind: 'resume',
      atMs: END + 5,
    });
    expect(pauseStep({ ...none, pausedAtMs: END }, period)).toEqual({
      kind: 'resume',
      atMs: UNTIL_RESUMED_BY_HAND,
    });
  });
  it('renews a resumed plan at its resume instant', () => {
    expect(pauseStep({ ...none, resumedAtMs: END + 9 }, period)).toEqual({
      kind: 'cycle',
      index: 4,
      atMs: END + 9,
    });
  });
});

describe('pauseStateOf', () => {
  const row = {
    status: 'active',
    endedAt: null,
    pauseAtPeriodEnd: false,
    pausedAt: null,
    resumesAt: null,
    billingAnchor: new Date(END - 1000),
    currentPeriodEnd: new Date(END),
  };
  it('reads a resume only from an anchor past the period end', () => {
    expect(pauseStateOf(row).resumedAtMs).toBeNull();
    expect(pauseStateOf({ ...row, billingAnchor: new Date(END + 1) }).resumedAtMs).toBe(END + 1);
  });
  it('reads a paused plan as paused, a revoked one not', () => {
    const paused = { ...row, status: 'paused', pausedAt: new Date(END) };
    expect(pauseStateOf(paused).pausedAtMs).toBe(END);
    expect(pauseStateOf({ ...paused, endedAt: new Date(END + 1) }).pausedAtMs).toBeNull();
  });
});

describe('pauseRefusal', () => {
  const row = {
    status: 'active',
    endedAt: null,
    cancelAtPeriodEnd: false,
    pauseAtPeriodEnd: false,
    currentPeriodEnd: new Date(END),
  };
  it("follows Polar's rules", () => {
    expect(pauseRefusal(row, { kind: 'pause', resumesAt: null })).toBeNull();
    expect(pauseRefusal({ ...row, status: 'past_due' }, { kind: 'pause', resumesAt: null })?.error).toBe(
      'CannotPauseSubscription',
    );
    expect(pauseRefusal({ ...row, cancelAtPeriodEnd: true }, { kind: 'pause', resumesAt: null })?.error).toBe(
      'CannotPauseSubscription',
    );
    expect(pauseRefusal(row, { kind: 'unpause' })?.error).toBe('NoScheduledPause');
    expect(pauseRefusal({ ...row, pauseAtPeriodEnd: true }, { kind: 'unpause' })).toBeNull();
    expect(pauseRefusal(row, { kind: 'resume' })?.error).toBe('NotPausedSubscription');
    expect(pauseRefusal({ ...row, status: 'paused' }, { kind: 'resume' })).toBeNull();
  });
});
