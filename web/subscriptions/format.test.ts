import { describe, expect, it } from '@jest/globals';
import { formatDate } from '../components';
import {
  describeRenewal,
  describeSubscriptionStatus,
  formatPlanAmount,
  isResumable,
  monthlyAmount,
} from './format';

const running = { status: 'active' as const, ended_at: null };

describe('monthlyAmount', () => {
  it('counts a monthly plan as it is and a yearly one as a twelfth, rounded to the cent', () => {
    expect(monthlyAmount({ ...running, amount: 1000, recurring_interval: 'month' })).toBe(1000);
    expect(monthlyAmount({ ...running, amount: 10_000, recurring_interval: 'year' })).toBe(833);
    expect(monthlyAmount({ ...running, amount: 10_010, recurring_interval: 'year' })).toBe(834);
  });

  it('counts nothing for a plan that has ended', () => {
    expect(
      monthlyAmount({
        status: 'canceled',
        ended_at: '2026-01-01T00:00:00Z',
        amount: 1000,
        recurring_interval: 'month',
      }),
    ).toBe(0);
  });
});

describe('describeRenewal', () => {
  const base = {
    ...running,
    ends_at: null,
    cancel_at_period_end: false,
    current_period_end: '2026-03-15T12:00:00Z',
  };

  it('says when a running plan renews, when one set to cancel ends, and that an ended one ended', () => {
    expect(describeRenewal(base)).not.toMatch(/^End/);
    expect(
      describeRenewal({ ...base, cancel_at_period_end: true, ends_at: base.current_period_end }),
    ).toMatch(/^Ends /);
    expect(describeRenewal({ ...base, status: 'canceled', ended_at: '2026-02-01T00:00:00Z' })).toMatch(
      /^Ended /,
    );
  });
});

describe('isResumable', () => {
  it('offers to resume only a plan set to cancel that is still active', () => {
    expect(isResumable({ ...running, cancel_at_period_end: true })).toBe(true);
    expect(isResumable({ ...running, cancel_at_period_end: false })).toBe(false);
    expect(isResumable({ status: 'past_due', ended_at: null, cancel_at_period_end: true })).toBe(false);
  });
});

describe('formatPlanAmount', () => {
  it('gives the amount per interval', () => {
    expect(formatPlanAmount(1000, 'usd', 'month')).toMatch(/10\.00 \/ month$/);
    expect(formatPlanAmount(12_000, 'usd', 'year')).toMatch(/120\.00 \/ year$/);
  });
});

describe('describeSubscriptionStatus', () => {
  const base = {
    ...running,
    ends_at: null,
    cancel_at_period_end: false,
    current_period_end: '2026-03-15T12:00:00Z',
  };

  it('says "Ends on <date>" in amber for a plan set to cancel until it has ended, never "Canceled"', () => {
    const ending = { ...base, cancel_at_period_end: true, ends_at: base.current_period_end };
    expect(describeSubscriptionStatus(ending)).toEqual([
      `Ends on ${formatDate(base.current_period_end)}`,
      'warn',
    ]);
    expect(describeSubscriptionStatus(base)).toEqual(['Active', 'ok']);
    expect(
      describeSubscriptionStatus({ ...ending, status: 'canceled', ended_at: '2026-03-15T12:00:00Z' }),
    ).toEqual(['Canceled', 'neutral']);
  });
});
