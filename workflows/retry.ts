// The retry contract's side in the workflows (docs/payments.md, "Retry contract"): every retry is
// capped, a refused request is never retried, and a step the processor refuses for the
// deployment's key or account is retried by the workflow itself, which says so meanwhile.
import {
  ActivityFailure,
  ApplicationFailure,
  proxyLocalActivities,
  sleep,
  type ActivityOptions,
  type RetryPolicy,
} from '@temporalio/workflow';
import type { ProcessorConfigurationActivities } from '../activities/processor-configuration.js';
import { PROCESSOR_FAILURE_TYPES, type ProcessorEntity } from '../domain/payments/rules.js';
import type { OperatorView } from './operators.js';

/**
 * A step that calls the payment processor: transient failures are retried with a back-off capped at
 * five minutes; refused requests stop at once; configuration failures come back to the workflow,
 * which retries them through `untilProcessorAccepts` (they are retryable anywhere else).
 */
export const PROCESSOR_STEP_RETRY: RetryPolicy = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '5 minutes',
  nonRetryableErrorTypes: [PROCESSOR_FAILURE_TYPES.permanent, PROCESSOR_FAILURE_TYPES.configuration],
};

/** Any other step: retried with a capped back-off; a refused request is never retried. */
export const CAPPED_RETRY: RetryPolicy = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '5 minutes',
  nonRetryableErrorTypes: [PROCESSOR_FAILURE_TYPES.permanent],
};

/**
 * A step someone waits on (a buyer in the portal, a seller's API call): a few quick tries, then
 * the error reaches them instead of a spinner that never ends.
 */
export const WHILE_SOMEONE_WAITS: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: {
    initialInterval: '500 milliseconds',
    backoffCoefficient: 2,
    maximumAttempts: 3,
    nonRetryableErrorTypes: CAPPED_RETRY.nonRetryableErrorTypes,
  },
};

/** Between the tries of a step held back by the processor's configuration: 1 minute, doubling to 30. */
const FIRST_CONFIGURATION_WAIT_MS = 60_000;
const LONGEST_CONFIGURATION_WAIT_MS = 30 * 60_000;

const { recordProcessorConfigurationProblem, clearProcessorConfigurationProblem } =
  proxyLocalActivities<ProcessorConfigurationActivities>({
    startToCloseTimeout: '1 minute',
    retry: CAPPED_RETRY,
  });

/** The processor's code and message when `error` is a configuration failure of a step, else null. */
function configurationProblem(error: unknown): { code: string; message: string } | null {
  if (!(error instanceof ActivityFailure)) return null;
  const cause = error.cause;
  if (!(cause instanceof ApplicationFailure) || cause.type !== PROCESSOR_FAILURE_TYPES.configuration) {
    return null;
  }
  const [details] = cause.details ?? [];
  const code =
    details && typeof details === 'object' && 'code' in details && typeof details.code === 'string'
      ? details.code
      : PROCESSOR_FAILURE_TYPES.configuration;
  return { code, message: cause.message };
}

/**
 * Runs a processor step until the processor accepts the deployment's key and account. Meanwhile the
 * organization's dashboard shows the problem to its owners and admins, the `waitingFor` query
 * names it and `TollgateProcessorProblem` marks the run; all three clear when the step goes
 * through. Permanent and transient failures pass through untouched.
 */
export async function untilProcessorAccepts<T>(
  view: OperatorView,
  entity: ProcessorEntity,
  step: () => Promise<T>,
): Promise<T> {
  let waitMs = FIRST_CONFIGURATION_WAIT_MS;
  let held = false;
  for (;;) {
    try {
      const result = await step();
      if (held) {
        await clearProcessorConfigurationProblem(entity);
        view.processorProblem(null);
      }
      return result;
    } catch (error) {
      const problem = configurationProblem(error);
      if (!problem) throw error;
      held = true;
      await recordProcessorConfigurationProblem({ entity, ...problem, atMs: Date.now() });
      view.processorProblem('configuration');
      view.waiting(
        `the payment processor's key or account to be fixed (${problem.code})`,
        { atMs: Date.now() + waitMs, then: 'the step is tried again' },
        `The processor refused the deployment's configuration: ${problem.message} The organization's owners and admins see this on their dashboard.`,
      );
      await sleep(waitMs);
      waitMs = Math.min(waitMs * 2, LONGEST_CONFIGURATION_WAIT_MS);
    }
  }
}
