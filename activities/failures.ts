import { ApplicationFailure } from '@temporalio/common';
import { PaymentProcessorError } from '../domain/payments/errors.js';
import { PROCESSOR_FAILURE_TYPES } from '../domain/payments/rules.js';

/** What a workflow reads of a processor failure (`details[0]` of the ApplicationFailure). */
export type ProcessorFailureDetails = { code: string };

/**
 * A processor error as Temporal's failure of its class (docs/payments.md, "Retry contract"): a
 * permanent one is non-retryable, so the step stops at its first try; a transient or configuration
 * one is retried (a workflow that reports configuration problems names its type in
 * `nonRetryableErrorTypes` and retries it itself). Anything else (PostgreSQL unavailable, a bug)
 * is thrown as it is, for Temporal to retry.
 */
export function toActivityFailure(error: unknown): unknown {
  if (!(error instanceof PaymentProcessorError)) return error;
  const details: ProcessorFailureDetails = { code: error.code };
  return ApplicationFailure.create({
    type: PROCESSOR_FAILURE_TYPES[error.failureClass],
    message: error.message,
    nonRetryable: error.failureClass === 'permanent',
    details: [details],
    cause: error,
  });
}

// Activities take any arguments; `never[]` accepts every parameter list.
type Activity = (...args: never[]) => Promise<unknown>;

/** The same activities, each failing by the retry contract. */
export function withRetryContract<T extends Record<string, Activity>>(activities: T): T {
  const wrapped: Record<string, Activity> = {};
  for (const [name, activity] of Object.entries(activities)) {
    wrapped[name] = async (...args) => {
      try {
        return await activity(...args);
      } catch (error) {
        throw toActivityFailure(error);
      }
    };
  }
  return wrapped as T;
}
