import {
  condition,
  defineQuery,
  defineSignal,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
} from '@temporalio/workflow';
import type { CheckoutActivities } from '../activities/checkouts.js';
import {
  CHECKOUT_SIGNALS,
  type CheckoutConfirmedSignal,
  type CheckoutPaymentSignal,
  type CheckoutWorkflowInput,
  AUTHENTICATION_LIMIT_MS,
  AUTHENTICATION_TIMEOUT_MESSAGE,
} from '../domain/checkouts/rules.js';
import { WAITING_FOR_QUERY } from '../domain/operators/rules.js';
import { operatorView, type OperatorView } from './operators.js';
import { CAPPED_RETRY, PROCESSOR_STEP_RETRY, untilProcessorAccepts } from './retry.js';

const {
  loadCheckoutState,
  chargeCheckout,
  cancelCheckoutPayment,
  fulfilCheckout,
  refundOrphanPayment,
  failCheckoutPayment,
  expireCheckout,
} = proxyActivities<CheckoutActivities>({
  startToCloseTimeout: '1 minute',
  // Every step is idempotent (processor idempotency keys, unique order per checkout, conditional
  // status changes), so PostgreSQL or processor hiccups are simply retried.
  retry: PROCESSOR_STEP_RETRY,
});

/**
 * Expiring is one short transaction: as a local activity it costs the Temporal server no activity
 * task of its own, which is most of an abandoned checkout's cost there.
 */
const { expireCheckout: expireCheckoutLocally } = proxyLocalActivities<CheckoutActivities>({
  startToCloseTimeout: '1 minute',
  retry: CAPPED_RETRY,
});

export const checkoutConfirmedSignal = defineSignal<[CheckoutConfirmedSignal]>(CHECKOUT_SIGNALS.confirmed);
export const checkoutPaymentSignal = defineSignal<[CheckoutPaymentSignal]>(CHECKOUT_SIGNALS.payment);
/** Who the checkout waits for and until when, in words (docs/architecture.md, "Operators"). */
export const checkoutWaitingForQuery = defineQuery<string>(WAITING_FOR_QUERY);

/** How long a payment the processor reported as processing may take before the checkout fails. */
const PROCESSING_LIMIT_MS = 3 * 24 * 60 * 60 * 1000;

export type CheckoutOutcome = 'succeeded' | 'expired' | 'gone';

/**
 * Most checkouts are abandoned: since this patch a new checkout waits for its buyer from the expiry
 * its start carries, and a wait that runs out expires the checkout straight away (the step checks
 * the row under its lock, as a local activity), so an abandoned checkout costs one local activity
 * instead of three activities. Histories from before it replay the read-first path.
 */
const QUIET_UNTIL_CONFIRMED_PATCH = 'checkout-quiet-until-confirmed';

const NOT_CONFIRMED_YET = 'They have not confirmed the checkout yet.';

/** The buyer's part of an open (or failed) checkout, which ends when the checkout expires. */
function waitForBuyer(view: OperatorView, expiresAtMs: number, failed: boolean): void {
  view.waiting(
    failed ? 'the buyer to confirm payment again' : 'the buyer to confirm payment',
    { atMs: expiresAtMs, then: 'the checkout expires' },
    failed ? 'The last payment failed; they may confirm again with another card.' : NOT_CONFIRMED_YET,
  );
}

/**
 * `checkout:<id>`: lives while the checkout is open, confirmed or failed. Charges each confirmation
 * once, fulfils on success, records declines (the buyer may confirm again) and expires the
 * checkout when its time is up. It re-reads the row whenever it wakes; signals only wake it.
 */
export async function checkoutWorkflow(input: CheckoutWorkflowInput): Promise<CheckoutOutcome> {
  const { checkoutId } = input;
  let woken = false;
  const payments: CheckoutPaymentSignal[] = [];
  setHandler(checkoutConfirmedSignal, () => {
    woken = true;
  });
  setHandler(checkoutPaymentSignal, (event) => {
    payments.push(event);
  });
  const charged = new Set<number>();
  const view = operatorView(checkoutWaitingForQuery);
  const processorEntity = { kind: 'checkout', id: checkoutId } as const;
  const quiet = patched(QUIET_UNTIL_CONFIRMED_PATCH);
  const expireIfDue = async () => {
    view.working('expiring the checkout');
    if ((await expireCheckoutLocally({ checkoutId, nowMs: Date.now() })) !== 'expired') return false;
    view.status('expired');
    view.finished('the checkout expired');
    return true;
  };

  if (quiet && input.expiresAtMs !== undefined) {
    // `woken` is not cleared here: a confirmation that started this run has already set it.
    const untilExpiryMs = input.expiresAtMs - Date.now();
    waitForBuyer(view, input.expiresAtMs, false);
    const wokenEarly =
      untilExpiryMs > 0 && (await condition(() => woken || payments.length > 0, untilExpiryMs));
    if (!wokenEarly && (await expireIfDue())) return 'expired';
  }

  for (;;) {
    // Cleared before the read, so a confirmation that lands while reading still wakes the wait.
    woken = false;
    view.working('reading the checkout');
    const state = await loadCheckoutState(checkoutId);
    if (!state) {
      view.finished('the checkout was deleted');
      return 'gone';
    }
    view.status(state.status);

    // Before ending: an event may be why this run exists (a payment that settled after the
    // checkout expired, or one of an earlier attempt) and must still be handled.
    const event = payments.shift();
    if (event) {
      if (event.type === 'payment.succeeded') {
        await settlePayment(view, checkoutId, event.paymentId);
      } else {
        view.working('recording the failed payment the processor reported');
        await failCheckoutPayment({ checkoutId, paymentId: event.paymentId, message: event.message });
      }
      continue;
    }
    if (state.status === 'succeeded' || state.status === 'expired') {
      view.finished(`the checkout ${state.status}`);
      return state.status;
    }

    if (state.status === 'confirmed' && !charged.has(state.paymentAttempt)) {
      const attempt = state.paymentAttempt;
      charged.add(attempt);
      view.working(`charging payment attempt ${attempt} with the payment processor`);
      const result = await untilProcessorAccepts(view, processorEntity, () =>
        chargeCheckout({ checkoutId, attempt }),
      );
      if (result.outcome === 'succeeded' || result.outcome === 'free') {
        await settlePayment(view, checkoutId, result.outcome === 'succeeded' ? result.paymentId : null);
      } else if (result.outcome === 'failed') {
        await failCheckoutPayment({ checkoutId, attempt, message: result.message, refused: result.refused });
      }
      continue;
    }

    if (state.status === 'confirmed') {
      // The buyer is authenticating, or the processor is still working on it (bank delays): its
      // event will wake us.
      const limitMs = state.awaitingAuthentication ? AUTHENTICATION_LIMIT_MS : PROCESSING_LIMIT_MS;
      const payment = state.paymentId ?? `of attempt ${state.paymentAttempt}`;
      if (state.awaitingAuthentication) {
        view.waiting(
          'the buyer to authenticate the payment (3-D Secure) on the checkout page',
          { atMs: Date.now() + limitMs, then: 'the payment is canceled as not authenticated' },
          `Payment ${payment} asked their bank for authentication.`,
        );
      } else {
        view.waiting(
          `the payment processor to settle payment ${payment}`,
          { atMs: Date.now() + limitMs, then: 'the payment counts as failed' },
          'The payment is processing there (a bank delay); its event settles the checkout.',
        );
      }
      const settled = await condition(() => payments.length > 0 || woken, limitMs);
      if (settled) continue;
      const attempt = state.paymentAttempt;
      if (!state.awaitingAuthentication) {
        view.working('recording the payment that did not complete in time');
        await failCheckoutPayment({ checkoutId, attempt, message: 'The payment did not complete in time.' });
        continue;
      }
      view.working(`canceling payment attempt ${attempt}, which was not authenticated in time`);
      const result = await untilProcessorAccepts(view, processorEntity, () =>
        cancelCheckoutPayment({ checkoutId, attempt }),
      );
      if (result.outcome === 'succeeded') {
        await settlePayment(view, checkoutId, result.paymentId);
      } else if (result.outcome === 'failed') {
        await failCheckoutPayment({ checkoutId, attempt, message: AUTHENTICATION_TIMEOUT_MESSAGE });
      }
      continue;
    }

    const remainingMs = state.expiresAtMs - Date.now();
    if (remainingMs <= 0) {
      view.working('expiring the checkout');
      if ((await expireCheckout({ checkoutId, nowMs: Date.now() })) === 'expired') {
        view.status('expired');
        view.finished('the checkout expired');
        return 'expired';
      }
      continue;
    }
    waitForBuyer(view, state.expiresAtMs, state.status === 'failed');
    const wokenBeforeExpiry = await condition(() => woken || payments.length > 0, remainingMs);
    if (quiet && !wokenBeforeExpiry && (await expireIfDue())) return 'expired';
  }
}

/** Fulfils with the payment, or refunds it when the checkout cannot take it (see fulfilCheckout). */
async function settlePayment(
  view: OperatorView,
  checkoutId: string,
  paymentId: string | null,
): Promise<void> {
  view.working(paymentId ? `fulfilling the order paid by payment ${paymentId}` : 'fulfilling the order');
  const entity = { kind: 'checkout', id: checkoutId } as const;
  const { orphan } = await untilProcessorAccepts(view, entity, () =>
    fulfilCheckout({ checkoutId, paymentId }),
  );
  if (orphan && paymentId) {
    view.working(`refunding payment ${paymentId}, which the checkout could not take`);
    await untilProcessorAccepts(view, entity, () => refundOrphanPayment({ checkoutId, paymentId }));
  }
}

const { reconcileCheckouts } = proxyActivities<CheckoutActivities>({
  startToCloseTimeout: '5 minutes',
  retry: CAPPED_RETRY,
});

/**
 * Run by the `reconcile-checkouts` schedule: starts the workflows that checkouts are missing and
 * wakes those that missed a confirmation.
 */
export async function reconcileCheckoutsWorkflow(): Promise<{ started: string[]; woken: string[] }> {
  return reconcileCheckouts();
}
