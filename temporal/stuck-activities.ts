// The worker's side of stuck work (docs/operations.md, "Stuck work"): an activity whose attempt at
// or past the threshold fails is recorded, and removed when a later attempt goes through, so the
// operators' page and `tollgate_stuck_work` see it while Temporal keeps retrying it.
import type { Context } from '@temporalio/activity';
import type { ActivityInboundCallsInterceptor, ActivityInterceptorsFactory, Next } from '@temporalio/worker';
import type { Logger } from 'pino';
import { deleteStuckActivity, recordStuckActivity } from '../domain/operators/repository-stuck-work.js';
import { STUCK_ACTIVITY_ATTEMPTS } from '../domain/operators/stuck-work.js';
import type { SqlClient } from '../infra/db.js';

const errorText = (error: unknown) =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);

/**
 * Local activities are left out: Temporal lists only remote ones as pending, so the review could
 * not tell a retrying local activity from a finished one; their workflow task shows them instead.
 * Recording never fails the activity: a database that is down is the failure being retried.
 */
export function stuckActivityInterceptor(
  sql: SqlClient,
  logger: Logger,
  threshold = STUCK_ACTIVITY_ATTEMPTS,
): ActivityInterceptorsFactory {
  return (context: Context) => {
    const inbound: ActivityInboundCallsInterceptor = {
      async execute(input, next: Next<ActivityInboundCallsInterceptor, 'execute'>) {
        const { info } = context;
        const execution = info.workflowExecution;
        if (!execution || info.isLocal || info.attempt < threshold) return next(input);
        const key = { workflowId: execution.workflowId, activityId: info.activityId };
        try {
          const result: unknown = await next(input);
          await deleteStuckActivity(sql, key.workflowId, key.activityId).catch((error: unknown) =>
            logger.warn({ err: error, ...key }, 'could not clear a stuck activity'),
          );
          return result;
        } catch (error) {
          await recordStuckActivity(sql, {
            ...key,
            runId: execution.runId,
            workflowType: info.workflowType ?? 'unknown',
            activityType: info.activityType,
            attempt: info.attempt,
            error: errorText(error),
            at: new Date(),
          }).catch((recordError: unknown) =>
            logger.warn({ err: recordError, ...key }, 'could not record a stuck activity'),
          );
          throw error;
        }
      },
    };
    return { inbound };
  };
}
