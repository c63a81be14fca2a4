import { proxyActivities } from '@temporalio/workflow';
import type { OperatorActivities } from '../activities/operators.js';
import type { SystemActivities } from '../activities/system.js';

const READINESS_ACTIVITY_TIMEOUT = '5 seconds';

const { checkWorkerDatabase } = proxyActivities<SystemActivities>({
  startToCloseTimeout: READINESS_ACTIVITY_TIMEOUT,
  // Readiness asks "is it working now?": a retry would only hide the answer.
  retry: { maximumAttempts: 1 },
});

const { purgeExpiredIdempotencyKeys, purgeIdleRateLimitCounters } = proxyActivities<SystemActivities>({
  startToCloseTimeout: '5 minutes',
});

// A review that fails is replaced by the next one a minute later: a few quick tries are enough.
const { reviewStuckWork } = proxyActivities<OperatorActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 3 },
});

/** Run by the `housekeeping` schedule: deletes what has outlived its purpose. */
export async function housekeepingWorkflow(): Promise<{
  idempotencyKeysDeleted: number;
  rateLimitCountersDeleted: number;
}> {
  const idempotencyKeys = await purgeExpiredIdempotencyKeys();
  const rateLimitCounters = await purgeIdleRateLimitCounters();
  return {
    idempotencyKeysDeleted: idempotencyKeys.deleted,
    rateLimitCountersDeleted: rateLimitCounters.deleted,
  };
}

/** Run by the `stuck-work-review` schedule: marks stuck runs for the Temporal UI, unmarks moved ones. */
export async function reviewStuckWorkWorkflow(): Promise<{
  dropped: number;
  flagged: number;
  cleared: number;
}> {
  return reviewStuckWork();
}

/** One short run per /readyz call: a worker must pick up both a workflow and an activity task. */
export async function readinessWorkflow(): Promise<{ workerIdentity: string; databaseTime: string }> {
  return checkWorkerDatabase();
}
