import { describe, expect, it } from '@jest/globals';
import { currentDetails, waitingForSentence } from '../domain/operators/rules.js';
import type { SubscriptionWorkflowState } from '../domain/subscriptions/rules.js';
import { subscriptionStepWork, subscriptionWait } from './subscription-waits.js';

const at = (iso: string) => Date.parse(iso);
const sinceMs = at('2026-11-28T10:00:00Z');

const state = (overrides: Partial<SubscriptionWorkflowState> = {}): SubscriptionWorkflowState => ({
  ended: false,
  currentPeriodIndex: 2,
  currentPeriodEndMs: at('2026-12-28T10:00:00Z'),
  canceledAtMs: null,
  unpaidOrder: null,
  testClock: null,
  ...overrides,
});

describe('subscriptionWait (the subscription workflow’s waitingFor)', () => {
  it('waits for the end of the period, until the renewal', () => {
    const wait = subscriptionWait(
      state(),
      { kind: 'cycle', index: 3, atMs: at('2026-12-28T10:00:00Z') },
      {
        sinceMs,
        lastDecline: null,
      },
    );
    expect(waitingForSentence(wait)).toBe(
      'the end of period 2, until the subscription renews into period 3 at 2026-12-28T10:00:00Z',
    );
  });

  it('says a subscription set to cancel ends at the end of the period', () => {
    const wait = subscriptionWait(
      state({ canceledAtMs: at('2026-12-01T00:00:00Z') }),
      { kind: 'cycle', index: 3, atMs: at('2026-12-28T10:00:00Z') },
      { sinceMs, lastDecline: null },
    );
    expect(waitingForSentence(wait)).toBe(
      'the end of period 2, until the subscription ends (it is set to cancel at the end of the period) at 2026-12-28T10:00:00Z',
    );
  });

  it('in dunning: the next try and the last decline', () => {
    const wait = subscriptionWait(
      state({ unpaidOrder: { id: 'order-1', attempt: 2, dueAtMs: at('2026-12-30T10:00:00Z') } }),
      { kind: 'charge', orderId: 'order-1', attempt: 2, atMs: at('2026-12-30T10:00:00Z') },
      { sinceMs, lastDecline: 'Your card has insufficient funds.' },
    );
    expect(waitingForSentence(wait)).toBe(
      'the next payment try, until try 2 of order order-1 is charged at 2026-12-30T10:00:00Z',
    );
    expect(currentDetails(wait)).toContain('The last try was declined: Your card has insufficient funds.');
  });

  it('on a test clock: the clock’s time, with no deadline', () => {
    const wait = subscriptionWait(
      state({ testClock: { frozenTimeMs: at('2026-12-01T00:00:00Z'), caughtUpToMs: null } }),
      { kind: 'cycle', index: 3, atMs: at('2026-12-28T10:00:00Z') },
      { sinceMs, lastDecline: null },
    );
    expect(waitingForSentence(wait)).toBe(
      'the test clock to be advanced past 2026-12-28T10:00:00Z (it is at 2026-12-01T00:00:00Z), since 2026-11-28T10:00:00Z, with no deadline',
    );
  });

  it('its own step once due', () => {
    expect(
      waitingForSentence(
        subscriptionStepWork({ kind: 'charge', orderId: 'order-1', attempt: 3, atMs: sinceMs }, sinceMs),
      ),
    ).toBe(
      'its own work: charging order order-1 (try 3) with the payment processor, since 2026-11-28T10:00:00Z',
    );
  });
});
