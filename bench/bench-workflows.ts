// The benchmarks' workflow bundle: every workflow a Tollgate worker registers plus the baselines,
// kept out of workflows/index.ts so that no production bundle carries bench code.
import { proxyActivities } from '@temporalio/workflow';

export * from '../workflows/index.js';

/** The baselines' activity runs on a worker of its own (bench/stack.ts). */
export const BASELINE_ACTIVITY_QUEUE = 'bench-baseline-activity';

/** B4's baseline: nothing but Temporal's own start, one workflow task and completion. */
export async function emptyWorkflow(): Promise<null> {
  return null;
}

const { baselineActivity } = proxyActivities<{ baselineActivity(): Promise<null> }>({
  taskQueue: BASELINE_ACTIVITY_QUEUE,
  startToCloseTimeout: '1 minute',
});

/** B5's baseline: start, one activity that does nothing, complete. */
export async function oneActivityWorkflow(): Promise<null> {
  return baselineActivity();
}
