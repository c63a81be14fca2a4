import { describe, expect, it } from '@jest/globals';
import { formatDate } from '../components';
import { describePause, describeResumeCharge } from './pause';

const base = {
  status: 'active' as const,
  ended_at: null,
  cancel_at_period_end: false,
  pause_at_period_end: false,
  paused_at: null,
  resumes_at: null,
  current_period_end: '2026-04-01T09:00:00.000Z',
  amount: 2000,
  currency: 'usd',
  recurring_interval: 'month' as const,
  recurring_interval_count: 1,
  prices: [],
};

describe('describePause', () => {
  it('says nothing for a plan that is not paused or set to pause', () => {
    expect(describePause(base)).toBeNull();
  });

  it('says when a plan set to pause pauses, and when it resumes if it will by itself', () => {
    expect(describePause({ ...base, pause_at_period_end: true })).toBe(
      `Pauses on ${formatDate('2026-04-01T09:00:00.000Z')} until resumed`,
    );
    expect(
      describePause({ ...base, pause_at_period_end: true, resumes_at: '2026-06-01T00:00:00.000Z' }),
    ).toBe(
      `Pauses on ${formatDate('2026-04-01T09:00:00.000Z')}, resumes on ${formatDate('2026-06-01T00:00:00.000Z')}`,
    );
  });

  it('says since when a paused plan is paused, and its resume date or that the buyer resumes it', () => {
    const paused = { ...base, status: 'paused' as const, paused_at: '2026-04-01T09:00:00.000Z' };
    expect(describePause(paused)).toBe(
      `Paused since ${formatDate('2026-04-01T09:00:00.000Z')} — resume when you want`,
    );
    expect(describePause({ ...paused, resumes_at: '2026-06-01T00:00:00.000Z' })).toBe(
      `Paused since ${formatDate('2026-04-01T09:00:00.000Z')}, resumes on ${formatDate('2026-06-01T00:00:00.000Z')}`,
    );
  });
});

describe('describeResumeCharge', () => {
  it('charges the amount now for a period from the resume, counted from that day (every 3 months here)', () => {
    const now = new Date('2026-04-17T10:00:00.000Z');
    expect(describeResumeCharge({ ...base, recurring_interval_count: 3 }, now)).toBe(
      `Resuming charges $20.00 now, for a new period from ${formatDate(now)} to ${formatDate('2026-07-17T10:00:00.000Z')}; it then renews every period from that day.`,
    );
  });
});
