import { proxyActivities } from '@temporalio/workflow';
import type { PaymentMethodActivities } from '../activities/payment-methods.js';
import type { PaymentMethodSetupInput, PaymentMethodSetupResult } from '../domain/payment-methods/rules.js';

// The buyer waits for the answer in the portal: a few quick tries, then the error reaches them.
const { setUpCustomerPaymentMethod } = proxyActivities<PaymentMethodActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

// Nobody waits: tried until the processor lets go of the card.
const { detachCustomerPaymentMethod } = proxyActivities<PaymentMethodActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 minutes' },
});

/**
 * `payment-method-setup:<customer>:<request>`: saves a card with the processor for the customer
 * (its idempotency key is the request, so a retry saves one card) and keeps it.
 */
export async function paymentMethodSetupWorkflow(
  input: PaymentMethodSetupInput,
): Promise<PaymentMethodSetupResult> {
  return setUpCustomerPaymentMethod(input);
}

/** `payment-method-detach:<id>`: a card the customer deleted leaves the processor's customer. */
export async function paymentMethodDetachWorkflow(paymentMethodId: string): Promise<string> {
  return detachCustomerPaymentMethod(paymentMethodId);
}
