/**
 * A processor request that did not produce an outcome: the processor refused the request itself
 * (an idempotency key reused with other parameters, an unknown customer, bad credentials) or could
 * not be reached. Card declines are not errors: they are `failed` results.
 *
 * `isRetryable` tells an activity what to do (STYLE.md, "Errors"): retry network, rate-limit and
 * processor-side failures; fail permanently on refused requests, which would be refused again.
 */
export class PaymentProcessorError extends Error {
  constructor(
    /** Stripe's error code where it gives one (`idempotency_key_in_use`, `resource_missing`, …). */
    readonly code: string,
    message: string,
    readonly isRetryable: boolean,
  ) {
    super(message);
    this.name = 'PaymentProcessorError';
  }
}
