import {
  condition,
  continueAsNew,
  defineQuery,
  defineSignal,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { SubscriptionActivities } from '../activities/subscriptions.js';
import {
  SUBSCRIPTION_SIGNALS,
  nextSubscriptionStep,
  trialReminderStep,
  type TrialReminderStep,
  type CustomerPaymentInput,
  type CustomerPaymentOutcome,
  type CustomerPaymentResult,
  type SubscriptionStep,
  type SubscriptionWorkflowInput,
  type SubscriptionWorkflowState,
} from '../domain/subscriptions/rules.js';
import { WAITING_FOR_QUERY } from '../domain/operators/rules.js';
import { operatorView } from './operators.js';
import { subscriptionStepWork, subscriptionWait } from './subscription-waits.js';
import { CAPPED_RETRY, PROCESSOR_STEP_RETRY, untilProcessorAccepts, WHILE_SOMEONE_WAITS } from './retry.js';

// Every step is idempotent (the renewal order's request key, the charge's key per order and try,
// conditional status changes), so PostgreSQL or processor hiccups are simply retried, at most five
// minutes apart; a charge the processor refuses fails its try (dunning), and a refused key or
// account is retried by the workflow, which reports it (workflows/retry.ts).
const STEP_RETRY = PROCESSOR_STEP_RETRY;

// The billing steps are short (a few statements and one processor call) and run as local
// activities: in the worker, inside the workflow task, recorded as a marker in the history. A
// renewal then costs the server a timer and two workflow tasks instead of also an activity task
// and its round trips, which is what lets thousands of plans due at one instant renew at once.
const {
  loadSubscriptionState,
  renewSubscription,
  collectSubscriptionOrder,
  reportCaughtUpWithClock,
  settleCustomerPayment,
  runPauseStep,
  closeMeterCycle,
} = proxyLocalActivities<SubscriptionActivities>({ startToCloseTimeout: '1 minute', retry: STEP_RETRY });

// Emails may wait on an SMTP server: ordinary activities, off the workflow task.
const { notifySubscriptionPaymentFailed, notifySubscription } = proxyActivities<SubscriptionActivities>({
  startToCloseTimeout: '1 minute',
  retry: STEP_RETRY,
});

export const subscriptionChangedSignal = defineSignal(SUBSCRIPTION_SIGNALS.changed);
/** A payment the customer made for one of its orders ended, as the processor reported it. */
export const subscriptionCustomerPaymentSignal = defineSignal<[CustomerPaymentOutcome]>(
  SUBSCRIPTION_SIGNALS.customerPayment,
);
/** What the workflow waits for, in words, for whoever looks at it in the Temporal UI. */
export const subscriptionWaitingForQuery = defineQuery<string>(WAITING_FOR_QUERY);

const TRIAL_REMINDER_PATCH = 'subscription-trial-reminder';

/** A long-lived run's history is cut short after this many events even without a renewal. */
const HISTORY_LIMIT = 2_000;

/**
 * `subscription:<id>`: lives while the subscription is billable. It re-reads the row whenever it
 * wakes (a signal, or the time of its next step) and then does that step: charge an unpaid order
 * (a renewal, or a retry during dunning) or renew at the end of the period (or end it, when set to
 * cancel). After each renewal that is paid it continues as new, so a ten-year subscription keeps
 * a short history.
 */
export async function subscriptionWorkflow(input: SubscriptionWorkflowInput): Promise<string> {
  const { subscriptionId } = input;
  let woken = false;
  setHandler(subscriptionChangedSignal, () => {
    woken = true;
  });
  /** Customers' payments reported and not settled yet, oldest first. */
  const customerPayments: CustomerPaymentOutcome[] = [];
  setHandler(subscriptionCustomerPaymentSignal, (outcome) => {
    customerPayments.push(outcome);
    woken = true;
  });
  let renewed = false;
  let canceledNoticeFor: number | null = null;
  let welcomed = input.continued ?? false;
  let known: SubscriptionWorkflowState | null = input.state ?? null;
  const view = operatorView(subscriptionWaitingForQuery);
  const processorEntity = { kind: 'subscription', id: subscriptionId } as const;
  /** The processor's answer to the last failed try, for the dunning wait's details. */
  let lastDecline: string | null = null;
  /** The trial end the buyer was last reminded of (trial-reminders.ts); the email's key dedupes across runs. */
  let remindedForMs: number | null = null;
  // Histories recorded before trial reminders replay without them (no timer they never had).
  const remindsOfTrials = patched(TRIAL_REMINDER_PATCH);

  for (;;) {
    // A timer that ran out changed nothing but the time: the row read before it still holds (the
    // steps check it again under its lock). Anything else reads it again; cleared before the read,
    // so a change that lands while reading still wakes the wait.
    let state: SubscriptionWorkflowState | null = known;
    known = null;
    if (!state) {
      woken = false;
      view.working('reading the subscription');
      state = await loadSubscriptionState(subscriptionId);
    }
    if (!state) {
      view.finished('the subscription was deleted');
      return 'gone';
    }
    const paid = customerPayments.shift();
    if (paid) {
      // Settled even once the plan has ended: money the customer paid is always recorded.
      view.working(`settling the customer's payment of order ${paid.orderId}`);
      const nowMs = state.testClock ? state.testClock.frozenTimeMs : Date.now();
      const settled = await untilProcessorAccepts(view, processorEntity, () =>
        settleCustomerPayment({ subscriptionId, outcome: paid, nowMs }),
      );
      if (settled.outcome === 'paid') {
        await notifySubscription({ kind: 'receipt', subscriptionId, orderId: paid.orderId });
      }
      continue;
    }
    view.status(operatorStatus(state));
    const clock = state.testClock;
    if (state.ended) {
      if (clock) await reportCaughtUpWithClock({ subscriptionId, frozenTimeMs: clock.frozenTimeMs });
      view.finished('the subscription ended');
      return 'ended';
    }
    if (!welcomed) {
      welcomed = true;
      if (state.currentPeriodIndex === 0) await notifySubscription({ kind: 'started', subscriptionId });
    }
    if (state.canceledAtMs !== null && state.canceledAtMs !== canceledNoticeFor) {
      canceledNoticeFor = state.canceledAtMs;
      await notifySubscription({ kind: 'canceled', subscriptionId });
    }
    if ((renewed && !state.unpaidOrder) || workflowInfo().historyLength > HISTORY_LIMIT) {
      return continueAsNew<typeof subscriptionWorkflow>({ subscriptionId, continued: true });
    }

    const planned = nextSubscriptionStep(state);
    const reminder: TrialReminderStep | null = remindsOfTrials
      ? trialReminderStep(state, remindedForMs)
      : null;
    const step: SubscriptionStep = reminder && reminder.atMs < planned.atMs ? reminder : planned;
    // On a test clock (sandbox) time is the clock's: it moves only when the seller advances it.
    const nowMs = clock ? clock.frozenTimeMs : Date.now();
    if (step.atMs > nowMs) {
      view.show(subscriptionWait(state, step, { sinceMs: Date.now(), lastDecline }));
      if (clock) {
        if (clock.caughtUpToMs !== clock.frozenTimeMs) {
          await reportCaughtUpWithClock({ subscriptionId, frozenTimeMs: clock.frozenTimeMs });
        }
        await condition(() => woken);
      } else {
        // A plan paused until resumed by hand has no time to wait for (pause.ts).
        const signalled = Number.isFinite(step.atMs)
          ? await condition(() => woken, step.atMs - nowMs)
          : (await condition(() => woken), true);
        if (!signalled) known = state;
      }
      continue;
    }

    // Catching up with a test clock, each step happens at the time it was due, as if that time had
    // passed: a year advanced at once bills twelve renewals dated a month apart.
    const stepAtMs = clock ? step.atMs : nowMs;
    view.show(subscriptionStepWork(step, Date.now()));
    if (step.kind === 'trial_reminder') {
      remindedForMs = step.trialEndMs;
      await notifySubscription({ kind: 'trial_ending', subscriptionId, trialEndMs: step.trialEndMs });
      // The email changed nothing the state says: the next step is chosen from the same read.
      known = state;
      continue;
    }
    if (step.kind === 'pause' || step.kind === 'resume') {
      // No charge: a resumed plan's new period is the renewal the next read finds due (pause.ts).
      await runPauseStep({ subscriptionId, step, nowMs: stepAtMs });
      continue;
    }
    if (step.kind === 'meter_cycle') {
      // Its usage billed in an order of its own, charged at once (domain/subscriptions/meter-cycling.ts).
      const closed = await untilProcessorAccepts(view, processorEntity, () =>
        closeMeterCycle({ subscriptionId, index: step.index, endMs: step.atMs, nowMs: stepAtMs }),
      );
      if (closed.collected && closed.orderId) await notifyFailure(closed.orderId, 1, closed.collected);
      continue;
    }
    // A trial's end is the renewal into its first paid period (domain/subscriptions/trials.ts).
    if (step.kind === 'cycle' || step.kind === 'convert') {
      const { cycled, collected, after } = await untilProcessorAccepts(view, processorEntity, () =>
        renewSubscription({ subscriptionId, index: step.index, nowMs: stepAtMs }),
      );
      if (cycled.outcome === 'renewed') renewed = true;
      // Paid at once: the next run starts with a short history, from the row as the renewal left
      // it unless a signal said it changed since.
      if (renewed && collected?.outcome === 'paid') {
        return continueAsNew<typeof subscriptionWorkflow>({
          subscriptionId,
          continued: true,
          ...(after && !woken ? { state: after } : {}),
        });
      }
      if (collected && cycled.outcome === 'renewed' && cycled.orderId) {
        await notifyFailure(cycled.orderId, 1, collected);
      }
      continue;
    }

    const collected = await untilProcessorAccepts(view, processorEntity, () =>
      collectSubscriptionOrder({
        subscriptionId,
        orderId: step.orderId,
        attempt: step.attempt,
        nowMs: stepAtMs,
      }),
    );
    if (collected.outcome === 'paid') {
      await notifySubscription({ kind: 'receipt', subscriptionId, orderId: step.orderId });
      // The renewal is paid: the next run starts from a fresh read (and a short history).
      if (renewed) return continueAsNew<typeof subscriptionWorkflow>({ subscriptionId, continued: true });
    }
    await notifyFailure(step.orderId, step.attempt, collected);
  }

  /** The buyer is told of each failed try (not of a final order's, see collectSubscriptionOrder). */
  async function notifyFailure(orderId: string, attempt: number, collected: CollectOutcome) {
    if (collected.outcome !== 'stale' && collected.charge.status === 'failed') {
      lastDecline = collected.charge.message ?? 'The payment failed.';
    }
    if (
      (collected.outcome === 'past_due' || collected.outcome === 'unpaid') &&
      collected.notify &&
      collected.charge.status === 'failed'
    ) {
      await notifySubscriptionPaymentFailed({
        subscriptionId,
        orderId,
        attempt,
        reason: collected.charge.message ?? 'The payment failed.',
        nextAttemptAt: collected.outcome === 'past_due' ? collected.nextAttemptAt : null,
        declineCode: collected.charge.declineCode ?? null,
        refused: collected.charge.refused ?? false,
      });
    }
  }
}

type CollectOutcome = Awaited<ReturnType<SubscriptionActivities['collectSubscriptionOrder']>>;

/** `TollgateStatus`: a later try of an unpaid order means dunning. */
function operatorStatus(state: SubscriptionWorkflowState): string {
  if (state.ended) return 'ended';
  if (state.pause?.pausedAtMs != null) return 'paused';
  if (state.unpaidOrder && state.unpaidOrder.attempt > 1) return 'past_due';
  return state.canceledAtMs === null ? 'active' : 'canceling';
}

const { reconcileSubscriptions } = proxyActivities<SubscriptionActivities>({
  startToCloseTimeout: '5 minutes',
  retry: CAPPED_RETRY,
});

/**
 * Run by the `reconcile-subscriptions` schedule: starts the workflow of any billable subscription
 * without one, and wakes those left behind their test clock.
 */
export async function reconcileSubscriptionsWorkflow(): Promise<{ started: string[]; woken: string[] }> {
  return reconcileSubscriptions();
}

// The customer waits for the answer in the portal.
const { payOrderAsCustomer } = proxyActivities<SubscriptionActivities>(WHILE_SOMEONE_WAITS);

/**
 * `customer-payment:<id>`: charges an unpaid order of a subscription with its customer present
 * (the portal's confirm-payment) and answers the processor's first word; its outcome reaches
 * `subscription:<id>` as a processor event.
 */
export async function customerPaymentWorkflow(input: CustomerPaymentInput): Promise<CustomerPaymentResult> {
  return payOrderAsCustomer(input);
}
