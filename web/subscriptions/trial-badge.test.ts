import { describe, expect, it } from '@jest/globals';
import { formatDate } from '../components';
import { describeSubscriptionStatus } from './format';

describe('the status badge of a trial', () => {
  const trialing = {
    status: 'trialing' as const,
    ended_at: null,
    ends_at: null,
    cancel_at_period_end: false,
    current_period_end: '2026-12-16T09:30:00Z',
    trial_end: '2026-12-16T09:30:00Z',
  };

  it('says when the trial ends', () => {
    expect(describeSubscriptionStatus(trialing)).toEqual([
      `Trial ends on ${formatDate(trialing.trial_end)}`,
      'ok',
    ]);
  });

  it('says the plan ends instead when it is set to cancel, and "Active" once converted', () => {
    expect(
      describeSubscriptionStatus({ ...trialing, cancel_at_period_end: true, ends_at: trialing.trial_end }),
    ).toEqual([`Ends on ${formatDate(trialing.trial_end)}`, 'warn']);
    expect(describeSubscriptionStatus({ ...trialing, status: 'active' })).toEqual(['Active', 'ok']);
  });
});
