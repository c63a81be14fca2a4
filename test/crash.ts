import { ApplicationFailure } from '@temporalio/common';
import type { Context } from '@temporalio/activity';
import type { ActivityInboundCallsInterceptor, Next } from '@temporalio/worker';

/**
 * An activity interceptor that dies at the end of a step when `dies` says so: the step's effects
 * are committed, but the worker never reports it done, exactly as when the process is killed
 * there. Temporal runs the step again, which must change nothing. `crashed` records the steps it
 * killed, in order.
 */
function killedAfter(dies: (step: string, context: Context) => boolean, crashed: string[]) {
  return (context: Context) => {
    const inbound: ActivityInboundCallsInterceptor = {
      async execute(input, next: Next<ActivityInboundCallsInterceptor, 'execute'>) {
        const result: unknown = await next(input);
        const step = context.info.activityType;
        if (dies(step, context)) {
          crashed.push(step);
          throw ApplicationFailure.retryable(`worker killed after ${step} committed`);
        }
        return result;
      },
    };
    return { inbound };
  };
}

/** Dies at the end of each of `steps` the first time it runs. */
export function crashOnceAfterEachStep(steps: readonly string[], crashed: string[]) {
  return killedAfter((step) => steps.includes(step) && !crashed.includes(step), crashed);
}

/**
 * Dies at the end of the first attempt of every run of each of `steps`: every step boundary of a
 * path, each renewal's and each email's, not only the first of a kind. The retry (attempt 2) is let
 * through.
 */
export function crashAfterEveryStep(steps: readonly string[], crashed: string[]) {
  return killedAfter((step, context) => steps.includes(step) && context.info.attempt === 1, crashed);
}
