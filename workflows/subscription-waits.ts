// What a subscription's workflow waits for, in words: its `waitingFor` answer and current details
// (docs/architecture.md, "Operators"). Pure, so the sentences are unit-tested and another wait (the
// buyer confirming a payment) is one more case here.

import { isoUtc, type OperatorWait } from '../domain/operators/rules.js';
import type { SubscriptionStep, SubscriptionWorkflowState } from '../domain/subscriptions/rules.js';
import { TRIAL_REMINDER_DAYS } from '../domain/subscriptions/rules.js';

/**
 * Where a live subscription stands before its next step is due. `sinceMs` is the workflow's time
 * (not a test clock's); `lastDecline` the processor's answer to the last failed try.
 */
export function subscriptionWait(
  state: SubscriptionWorkflowState,
  step: SubscriptionStep,
  context: { sinceMs: number; lastDecline: string | null },
): OperatorWait {
  if (step.kind === 'resume' && !Number.isFinite(step.atMs)) {
    return {
      kind: 'waiting',
      waitingFor: 'the seller or the customer to resume the paused subscription',
      until: null,
      sinceMs: context.sinceMs,
      reason: `Paused since ${isoUtc(state.pause?.pausedAtMs ?? state.currentPeriodEndMs)} with no resume date: nothing is charged until someone resumes it.`,
    };
  }
  const due = dueWords(state, step);
  if (step.kind === 'charge' && state.unpaidOrder?.awaitsCustomer) {
    // Later tries only remind the customer (domain/subscriptions/customer-payments.ts).
    const clock = state.testClock
      ? ` Try ${step.attempt} is due at ${isoUtc(step.atMs)}; the test clock is at ${isoUtc(state.testClock.frozenTimeMs)}.`
      : '';
    return {
      kind: 'waiting',
      waitingFor: `the customer to confirm the payment of order ${step.orderId} with their bank`,
      until: state.testClock
        ? null
        : { atMs: step.atMs, then: `try ${step.attempt} reminds them without charging the card` },
      sinceMs: context.sinceMs,
      reason: `Their bank asks them to confirm the payment (3-D Secure); the email links them to it in the portal. The plan ends unpaid after the last try.${clock}`,
    };
  }
  if (state.testClock) {
    return {
      kind: 'waiting',
      waitingFor: `the test clock to be advanced past ${isoUtc(step.atMs)} (it is at ${isoUtc(state.testClock.frozenTimeMs)})`,
      until: null,
      sinceMs: context.sinceMs,
      reason: `The subscription lives in its test clock's time: ${due} at ${isoUtc(step.atMs)}.`,
    };
  }
  if (step.kind === 'trial_reminder') {
    return {
      kind: 'waiting',
      waitingFor: `the day to remind the buyer that the free trial ends (${TRIAL_REMINDER_DAYS} days before)`,
      until: { atMs: step.atMs, then: due },
      sinceMs: context.sinceMs,
      reason: `The free trial ends at ${isoUtc(step.trialEndMs)}, when its first period is charged.`,
    };
  }
  if (step.kind === 'charge' && step.attempt > 1) {
    return {
      kind: 'waiting',
      waitingFor: 'the next payment try',
      until: { atMs: step.atMs, then: due },
      sinceMs: context.sinceMs,
      reason: `Dunning: the renewal is unpaid.${context.lastDecline ? ` The last try was declined: ${context.lastDecline}` : ''}`,
    };
  }
  return {
    kind: 'waiting',
    waitingFor:
      step.kind === 'convert'
        ? `the end of the free trial`
        : step.kind === 'cycle'
          ? `the end of period ${state.currentPeriodIndex}`
          : step.kind === 'pause'
            ? `the end of period ${state.currentPeriodIndex}, when the subscription pauses`
            : step.kind === 'resume'
              ? 'the paused subscription to resume'
              : step.kind === 'meter_cycle'
                ? `the end of the meter cycle at ${isoUtc(step.atMs)} in period ${step.index}`
                : `order ${step.orderId} to be due`,
    until: { atMs: step.atMs, then: due },
    sinceMs: context.sinceMs,
    reason:
      step.kind === 'resume' ? 'Paused: nothing is charged before then.' : 'Nothing is due before then.',
  };
}

/** The subscription's own step, once due. */
export function subscriptionStepWork(step: SubscriptionStep, sinceMs: number): OperatorWait {
  if (step.kind === 'trial_reminder') {
    return {
      kind: 'working',
      working: 'emailing the buyer that the free trial ends soon, with what will be charged',
      sinceMs,
      until: null,
      reason: null,
    };
  }
  return {
    kind: 'working',
    working:
      step.kind === 'convert'
        ? `ending the free trial: opening period ${step.index} and charging it`
        : step.kind === 'cycle'
          ? `renewing into period ${step.index}`
          : step.kind === 'pause'
            ? `pausing the subscription at the end of period ${step.index}`
            : step.kind === 'resume'
              ? 'resuming the paused subscription'
              : step.kind === 'meter_cycle'
                ? `closing the meter cycle that ends at ${isoUtc(step.atMs)}: billing its usage, resetting its meters and credits`
                : `charging order ${step.orderId} (try ${step.attempt}) with the payment processor`,
    sinceMs,
    until: null,
    reason: null,
  };
}

/** What happens when the step is due, as a clause: "the subscription renews into period 3". */
function dueWords(state: SubscriptionWorkflowState, step: SubscriptionStep): string {
  if (step.kind === 'trial_reminder') {
    return `the buyer is emailed that the free trial ends at ${isoUtc(step.trialEndMs)} and what is charged then`;
  }
  if (step.kind === 'charge') return `try ${step.attempt} of order ${step.orderId} is charged`;
  if (step.kind === 'pause') return 'the subscription pauses (no renewal, nothing charged)';
  if (step.kind === 'resume') return 'the subscription resumes: a new period starts and is charged';
  if (step.kind === 'meter_cycle') {
    return "the meter cycle's usage is billed in an order of its own, and its meters and meter credits start again";
  }
  if (step.kind === 'convert') {
    return state.canceledAtMs === null
      ? `the trial ends and period ${step.index}, its first paid one, is charged`
      : 'the subscription ends with its trial, charged nothing (it is set to cancel)';
  }
  return state.canceledAtMs === null
    ? `the subscription renews into period ${step.index}`
    : 'the subscription ends (it is set to cancel at the end of the period)';
}
