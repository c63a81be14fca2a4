import { proxyActivities } from '@temporalio/workflow';
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

/** One short run per /readyz call: a worker must pick up both a workflow and an activity task. */
export async function readinessWorkflow(): Promise<{ workerIdentity: string; databaseTime: string }> {
  return checkWorkerDatabase();
}
