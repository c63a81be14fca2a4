import { defineQuery, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { PaymentMethodActivities } from '../activities/payment-methods.js';
import type { PaymentMethodSetupInput, PaymentMethodSetupResult } from '../domain/payment-methods/rules.js';
import { WAITING_FOR_QUERY } from '../domain/operators/rules.js';
import { operatorView } from './operators.js';
import { CAPPED_RETRY, WHILE_SOMEONE_WAITS } from './retry.js';

/** What saving the card waits for, in words (docs/architecture.md, "Operators"). */
export const paymentMethodSetupWaitingForQuery = defineQuery<string>(WAITING_FOR_QUERY);
/** What removing the card waits for, in words. */
export const paymentMethodDetachWaitingForQuery = defineQuery<string>(WAITING_FOR_QUERY);

const SETUP_OUTCOMES: Record<PaymentMethodSetupResult['status'], string> = {
  saved: 'the card was saved',
  declined: 'the card was declined',
  requires_action: 'the card asks the buyer to authenticate (3-D Secure) before it is saved',
};

// The buyer waits for the answer in the portal.
const { setUpCustomerPaymentMethod } = proxyActivities<PaymentMethodActivities>(WHILE_SOMEONE_WAITS);

// Nobody waits: tried until the processor lets go of the card.
const { detachCustomerPaymentMethod } = proxyActivities<PaymentMethodActivities>({
  startToCloseTimeout: '1 minute',
  retry: { ...CAPPED_RETRY, maximumInterval: '10 minutes' },
});

/**
 * `payment-method-setup:<customer>:<request>`: saves a card with the processor for the customer
 * (its idempotency key is the request, so a retry saves one card) and keeps it.
 */
export async function paymentMethodSetupWorkflow(
  input: PaymentMethodSetupInput,
): Promise<PaymentMethodSetupResult> {
  const view = operatorView(paymentMethodSetupWaitingForQuery);
  const expiresAt = workflowInfo().executionExpirationTime;
  view.working('saving the card with the payment processor', {
    ...(expiresAt
      ? { until: { atMs: expiresAt.getTime(), then: 'the buyer is told to try again later' } }
      : {}),
    reason: 'The buyer waits for the answer in the portal.',
  });
  const result = await setUpCustomerPaymentMethod(input);
  view.finished(SETUP_OUTCOMES[result.status]);
  return result;
}

/** `payment-method-detach:<id>`: a card the customer deleted leaves the processor's customer. */
export async function paymentMethodDetachWorkflow(paymentMethodId: string): Promise<string> {
  const view = operatorView(paymentMethodDetachWaitingForQuery);
  view.working("taking the deleted card off the processor's customer", {
    reason: 'Retried until the processor lets go of the card; nobody waits for it.',
  });
  const outcome = await detachCustomerPaymentMethod(paymentMethodId);
  view.finished(
    outcome === 'detached'
      ? "the card was taken off the processor's customer"
      : 'nothing to take off (the card is kept, or belongs to another processor)',
  );
  return outcome;
}
