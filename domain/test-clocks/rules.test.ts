import { describe, expect, it } from '@jest/globals';
import { advanceRefusal, isSettledForGood, testClockStatus } from './rules.js';

const at = (iso: string) => new Date(iso);

describe('advanceRefusal', () => {
  const from = at('2026-01-31T10:00:00.000Z');

  it('lets a clock move forward up to two calendar years at a time', () => {
    expect(advanceRefusal(from, at('2026-01-31T10:00:00.001Z'))).toBeNull();
    expect(advanceRefusal(from, at('2028-01-31T10:00:00.000Z'))).toBeNull();
  });

  it('refuses standing still, going back and leaping further, saying up to when', () => {
    expect(advanceRefusal(from, from)).toBe(
      'Advance the clock to a time after its current time, 2026-01-31T10:00:00.000Z.',
    );
    expect(advanceRefusal(from, at('2025-01-01T00:00:00Z'))).toContain('after its current time');
    expect(advanceRefusal(from, at('2028-01-31T10:00:00.001Z'))).toBe(
      'A clock advances at most two years at a time: choose a time up to 2028-01-31T10:00:00.000Z.',
    );
  });
});

describe('testClockStatus', () => {
  const frozen = at('2026-03-01T00:00:00Z');
  const running = { endedAt: null, hasPendingOrder: false };

  it('is ready with no subscriptions, or when each caught up with the frozen time', () => {
    expect(testClockStatus(frozen, [])).toBe('ready');
    expect(testClockStatus(frozen, [{ ...running, clockCaughtUpTo: frozen }])).toBe('ready');
  });

  it('is advancing while one subscription is behind or has never reported', () => {
    expect(
      testClockStatus(frozen, [
        { ...running, clockCaughtUpTo: frozen },
        { ...running, clockCaughtUpTo: at('2026-02-01T00:00:00Z') },
      ]),
    ).toBe('advancing');
    expect(testClockStatus(frozen, [{ ...running, clockCaughtUpTo: null }])).toBe('advancing');
  });
});

describe('isSettledForGood', () => {
  it('is true only for an ended plan with nothing left to collect', () => {
    const ended = at('2026-02-01T00:00:00Z');
    expect(isSettledForGood({ clockCaughtUpTo: null, endedAt: ended, hasPendingOrder: false })).toBe(true);
    expect(isSettledForGood({ clockCaughtUpTo: null, endedAt: ended, hasPendingOrder: true })).toBe(false);
    expect(isSettledForGood({ clockCaughtUpTo: null, endedAt: null, hasPendingOrder: false })).toBe(false);
  });
});
