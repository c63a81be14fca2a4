import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { summarizeReadiness } from '../domain/system/rules.js';
import type { ReadinessCheck, ReadinessReport } from '../domain/system/schemas.js';
import { pingDatabase, type Db } from '../infra/db.js';
import { withTimeout } from '../infra/timeout.js';
import type { readinessWorkflow } from '../workflows/system.js';

export type ReadinessDeps = {
  db: Db;
  temporal: Client;
  taskQueue: string;
  timeoutMs: number;
};

async function timed(work: () => Promise<unknown>): Promise<ReadinessCheck> {
  const started = performance.now();
  try {
    await work();
    return { status: 'ok', duration_ms: Math.round(performance.now() - started) };
  } catch (error) {
    return {
      status: 'error',
      duration_ms: Math.round(performance.now() - started),
      detail: error instanceof Error ? error.message : String(error),
    };
  }
}

export async function checkReadiness(deps: ReadinessDeps): Promise<ReadinessReport> {
  const { db, temporal, taskQueue, timeoutMs } = deps;
  const postgres = timed(() => withTimeout('PostgreSQL', timeoutMs, pingDatabase(db)));
  const temporalCheck = timed(() =>
    temporal.connection.withDeadline(Date.now() + timeoutMs, () =>
      temporal.workflowService.getSystemInfo({}),
    ),
  );
  // A real round trip through a worker: describing pollers would still list a worker for a
  // minute after it died, while a workflow + activity only completes if one is serving now.
  const worker = timed(async () => {
    const handle = await temporal.workflow.start<typeof readinessWorkflow>('readinessWorkflow', {
      taskQueue,
      workflowId: `readiness:${randomUUID()}`,
      staticSummary: `Readiness check: a worker on task queue ${taskQueue} answers`,
      // Longer than our own wait, which names the task queue; the run still cleans itself up.
      workflowExecutionTimeout: timeoutMs * 2,
    });
    await withTimeout(`A worker on task queue "${taskQueue}"`, timeoutMs, handle.result());
  });
  const [postgresResult, temporalResult, workerResult] = await Promise.all([postgres, temporalCheck, worker]);
  return summarizeReadiness(
    { postgres: postgresResult, temporal: temporalResult, worker: workerResult },
    new Date(),
  );
}
