import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createSystemActivities } from '../activities/system.js';
import { resolveTypeScriptSpecifiers } from '../temporal/bundle.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { requireTestEnv } from '../test/env.js';
import { clockSkips, createTimeSkippingEnvironment } from '../test/time-skipping.js';
import type { sleepThenRecord } from '../test/workflows/timer.js';
import type { readinessWorkflow } from './system.js';

const TWO_DAYS_MS = 2 * 24 * 60 * 60 * 1000;

describe('workflows on the time-skipping server', () => {
  let env: TestWorkflowEnvironment;
  let database: TestDatabase;

  beforeAll(async () => {
    env = await createTimeSkippingEnvironment();
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await env?.teardown();
    await database?.drop();
  });

  it('completes a 2-day timer in seconds of wall time', async () => {
    const taskQueue = `timer-${randomUUID()}`;
    const wakeUps: number[] = [];
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowsPath: fileURLToPath(new URL('../test/workflows/timer.ts', import.meta.url)),
      bundlerOptions: { webpackConfigHook: resolveTypeScriptSpecifiers },
      activities: {
        async recordWakeUp(sleptMs: number) {
          wakeUps.push(sleptMs);
          return 'awake';
        },
      },
    });
    const wallStarted = Date.now();
    const result = await worker.runUntil(
      env.client.workflow.execute<typeof sleepThenRecord>('sleepThenRecord', {
        args: [TWO_DAYS_MS],
        taskQueue,
        workflowId: `timer:${randomUUID()}`,
      }),
    );
    const wallElapsedMs = Date.now() - wallStarted;

    expect(result.recorded).toBe('awake');
    expect(result.workflowElapsedMs).toBeGreaterThanOrEqual(TWO_DAYS_MS);
    expect(wakeUps).toEqual([result.workflowElapsedMs]);
    expect(wallElapsedMs).toBeLessThan(30_000);
  });

  it('tells a clock that skips from one a leftover lock holds (the wedge the harness replaces a server for)', async () => {
    expect(await clockSkips(env)).toBe(true);
    // A lock nobody releases, as the server keeps one after a run is ended with a task in flight.
    await env.connection.testService!.lockTimeSkipping({});
    const started = Date.now();
    expect(await clockSkips(env)).toBe(false);
    expect(Date.now() - started).toBeLessThan(10_000);
    await env.connection.testService!.unlockTimeSkipping({});
    expect(await clockSkips(env)).toBe(true);
  });

  it('runs the readiness workflow through the real activity and database', async () => {
    const taskQueue = `readiness-${randomUUID()}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: { codePath: requireTestEnv('workflowBundle') },
      activities: createSystemActivities({ db: database.db, workerIdentity: 'wf-test-worker' }),
    });
    const result = await worker.runUntil(
      env.client.workflow.execute<typeof readinessWorkflow>('readinessWorkflow', {
        taskQueue,
        workflowId: `readiness:${randomUUID()}`,
      }),
    );
    expect(result.workerIdentity).toBe('wf-test-worker');
    expect(Number.isNaN(Date.parse(result.databaseTime))).toBe(false);
  });
});
