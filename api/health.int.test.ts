import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readinessReportSchema, type ReadinessReport } from '../domain/system/schemas.js';
import { createDb } from '../infra/db.js';
import { findFreePort } from '../infra/processes.js';
import { startLocalPostgres } from '../scripts/lib/postgres.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { startTestStack, useTestStack, type TestStack } from '../test/stack.js';

async function getReadiness(baseUrl: string): Promise<{ status: number; report: ReadinessReport }> {
  const response = await fetch(`${baseUrl}/readyz`);
  return { status: response.status, report: readinessReportSchema.parse(await response.json()) };
}

describe('GET /healthz and /readyz', () => {
  const env = useTestStack({ readinessTimeoutMs: 3000 });

  it('answers liveness without touching dependencies', async () => {
    const response = await fetch(`${env.stack.baseUrl}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('is ready when PostgreSQL, Temporal and a worker all answer', async () => {
    const { status, report } = await getReadiness(env.stack.baseUrl);
    expect(status).toBe(200);
    expect(report.status).toBe('ok');
    expect(report.checks.postgres.status).toBe('ok');
    expect(report.checks.temporal.status).toBe('ok');
    expect(report.checks.worker.status).toBe('ok');
  });

  it('runs a real readiness workflow that the Temporal server records', async () => {
    await getReadiness(env.stack.baseUrl);
    const executions = env.stack.temporal.workflow.list({
      query: `WorkflowType = 'readinessWorkflow' AND TaskQueue = '${env.stack.taskQueuePrefix}'`,
    });
    const completed: string[] = [];
    for await (const execution of executions) {
      if (execution.status.name === 'COMPLETED') completed.push(execution.workflowId);
    }
    expect(completed.length).toBeGreaterThan(0);
    expect(completed.every((id) => id.startsWith('readiness:'))).toBe(true);
  });

  it('turns red naming the worker when no worker polls, and green again when one is back', async () => {
    await env.stack.stopWorker();
    const down = await getReadiness(env.stack.baseUrl);
    expect(down.status).toBe(503);
    expect(down.report.status).toBe('error');
    expect(down.report.checks.worker.status).toBe('error');
    expect(down.report.checks.worker.detail).toContain(env.stack.taskQueuePrefix);
    expect(down.report.checks.postgres.status).toBe('ok');
    expect(down.report.checks.temporal.status).toBe('ok');

    await env.stack.startWorker();
    const up = await getReadiness(env.stack.baseUrl);
    expect(up.status).toBe(200);
    expect(up.report.checks.worker.status).toBe('ok');
  });
});

describe('GET /readyz while PostgreSQL goes down and comes back', () => {
  let dataDir: string;
  let database: TestDatabase;
  let stack: TestStack;
  let cluster: Awaited<ReturnType<typeof startLocalPostgres>>;
  let port: number;
  let apiDb: ReturnType<typeof createDb>;

  const startCluster = () =>
    startLocalPostgres({ dataDir: path.join(dataDir, 'pg'), port, logFile: path.join(dataDir, 'pg.log') });

  beforeAll(async () => {
    // A cluster of this test's own, so stopping it disturbs nothing else.
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'tollgate-readyz-'));
    chmodSync(dataDir, 0o755); // PostgreSQL runs as its own OS user when tests run as root.
    port = await findFreePort();
    cluster = await startCluster();
    apiDb = createDb(cluster.superuserUrl('postgres'));
    database = await createTestDatabase();
    stack = await startTestStack({ db: apiDb, workerDb: database.db, readinessTimeoutMs: 3000 });
  });
  afterAll(async () => {
    await stack?.stop();
    await apiDb?.$disconnect();
    await cluster?.stop();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('reports postgres failing while it is stopped and ok once it is restarted', async () => {
    expect((await getReadiness(stack.baseUrl)).status).toBe(200);

    await cluster.stop();
    const down = await getReadiness(stack.baseUrl);
    expect(down.status).toBe(503);
    expect(down.report.checks.postgres.status).toBe('error');
    expect(down.report.checks.postgres.detail).toBeTruthy();
    expect(down.report.checks.worker.status).toBe('ok');

    cluster = await startCluster();
    const up = await getReadiness(stack.baseUrl);
    expect(up.status).toBe(200);
    expect(up.report.checks.postgres.status).toBe('ok');
  });
});
