import type { ProcessorFailureClass } from './rules.js';

/**
 * A processor request that did not produce an outcome: the processor refused the request itself
 * (an idempotency key reused with other parameters, an unknown customer, bad credentials) or could
 * not be reached. Card declines are not errors: they are `failed` results.
 */
export class PaymentProcessorError extends Error {
  constructor(
    /** Stripe's error code where it gives one (`idempotency_key_in_use`, `resource_missing`, …). */
    readonly code: string,
    message: string,
    readonly failureClass: ProcessorFailureClass,
  ) {
    super(message);
    this.name = 'PaymentProcessorError';
  }
}

/** A processor refusal that retrying cannot change, or null for any other error. */
export function permanentProcessorFailure(error: unknown): PaymentProcessorError | null {
  return error instanceof PaymentProcessorError && error.failureClass === 'permanent' ? error : null;
}

/** What the seller reads of a refused request, on the entity it failed (a checkout, a refund, a try). */
export function refusalReason(error: PaymentProcessorError): string {
  return `The payment processor refused the request (${error.code}): ${error.message}`;
}

/**
 * What the buyer reads where the seller reads `refusalReason`. The processor's code and message
 * name ids and idempotency keys that are the seller's to act on, and a refused request charged
 * nothing, which a buyer who just typed their card needs to hear first.
 */
export function refusedPaymentNotice(sellerName: string): string {
  return `We could not take this payment because of a problem on the seller's side. You have not been charged. Please try again later, or contact ${sellerName} if it keeps happening.`;
}

/**
 * The request's answer, or its permanent refusal as a value for the caller to record on its entity
 * (the checkout fails, the refund fails, the renewal's try fails); other errors are thrown on.
 */
export async function answerOrRefusal<T>(request: Promise<T>): Promise<T | PaymentProcessorError> {
  try {
    return await request;
  } catch (error) {
    const refused = permanentProcessorFailure(error);
    if (refused) return refused;
    throw error;
  }
}
