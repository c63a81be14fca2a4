import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client, Connection } from '@temporalio/client';
import pg from 'pg';
import { readinessReportSchema } from '../domain/system/schemas.js';
import { findFreePort } from '../infra/processes.js';
import { projectRoot } from '../scripts/lib/paths.js';
import { createDataDir, processesOf, startTollgate, type RunningTollgate } from './stack-processes.js';
import { poll } from './support.js';

/**
 * `npm start` with nothing external: its own PostgreSQL cluster and Temporal dev server under a
 * DATA_DIR of this test's own, on free ports.
 */
describe('npm start (self-contained stack)', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let ports: { api: number; postgres: number; temporal: number; temporalUi: number };
  let tollgate: RunningTollgate | undefined;

  const readiness = async () => {
    const response = await fetch(`http://127.0.0.1:${ports.api}/readyz`);
    return { status: response.status, report: readinessReportSchema.parse(await response.json()) };
  };
  const withDatabase = async <T>(work: (client: pg.Client) => Promise<T>) => {
    const client = new pg.Client({
      connectionString: `postgresql://tollgate:tollgate@127.0.0.1:${ports.postgres}/tollgate`,
    });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  const workflowIds = async (query: string) => {
    const connection = await Connection.connect({ address: `127.0.0.1:${ports.temporal}` });
    try {
      const client = new Client({ connection });
      const ids: string[] = [];
      for await (const execution of client.workflow.list({ query })) {
        ids.push(execution.workflowId);
      }
      return ids;
    } finally {
      await connection.close();
    }
  };
  const readinessWorkflowIds = () => workflowIds("WorkflowType = 'readinessWorkflow'");
  // Tollgate's search attributes are registered on the dev server: the worker's long-lived
  // workflows are found by kind (visibility catches up within moments).
  const dispatcherFoundByKind = () =>
    poll('the webhook dispatcher found by TollgateEntityKind', async () => {
      const ids = await workflowIds(
        "TollgateEntityKind = 'webhook_dispatcher' AND ExecutionStatus = 'Running'",
      );
      return ids.length > 0 ? ids : undefined;
    });

  beforeAll(async () => {
    dataDir = createDataDir('stack');
    ports = {
      api: await findFreePort(),
      postgres: await findFreePort(),
      temporal: await findFreePort(),
      temporalUi: await findFreePort(),
    };
    // A short readiness timeout keeps each red check short.
    env = { ...process.env, DATA_DIR: dataDir, PORT: String(ports.api), READINESS_TIMEOUT_MS: '2000' };
    env.EMBEDDED_POSTGRES_PORT = String(ports.postgres);
    env.TEMPORAL_DEV_PORT = String(ports.temporal);
    env.TEMPORAL_UI_PORT = String(ports.temporalUi);
    delete env.DATABASE_URL;
    delete env.TEMPORAL_ADDRESS;
    tollgate = await startTollgate(env);
  });
  afterAll(async () => {
    if (tollgate && tollgate.child.exitCode === null) await tollgate.stop('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints the URLs once ready', () => {
    const output = tollgate?.output() ?? '';
    expect(output).toContain(`App:          http://localhost:${ports.api}`);
    expect(output).toContain(`Temporal UI:  http://localhost:${ports.temporalUi}`);
  });

  it('answers /api/auth/ok, a green /readyz, its settings and the Temporal UI', async () => {
    const ok = await fetch(`http://127.0.0.1:${ports.api}/api/auth/ok`);
    expect(await ok.json()).toEqual({ ok: true });
    const { status, report } = await readiness();
    expect(status).toBe(200);
    expect(report.checks).toMatchObject({
      postgres: { status: 'ok' },
      temporal: { status: 'ok' },
      worker: { status: 'ok' },
    });
    const settings = await (await fetch(`http://127.0.0.1:${ports.api}/api/settings`)).json();
    expect(settings).toEqual({
      version: (
        JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }
      ).version,
      mode: 'sandbox',
      temporal_ui_url: `http://localhost:${ports.temporalUi}`,
      temporal_namespace: 'default',
      dev_mailbox: true,
      stripe_publishable_key: null,
    });
    const ui = await fetch(`http://127.0.0.1:${ports.temporalUi}/`);
    expect(ui.status).toBe(200);
    expect((await readinessWorkflowIds()).length).toBeGreaterThan(0);
    expect(await dispatcherFoundByKind()).toHaveLength(1);
  });

  const workerPid = () => Number(readFileSync(path.join(dataDir, 'run', 'worker.pid'), 'utf8'));
  const readinessWith = (status: number) =>
    poll(`/readyz to answer ${status}`, async () => {
      const result = await readiness();
      return result.status === status ? result : undefined;
    });

  it('turns /readyz red naming the worker while the worker is stopped, and green once it runs again', async () => {
    // SIGSTOP freezes the worker without an exit, so the supervisor does not restart it.
    const pid = workerPid();
    process.kill(pid, 'SIGSTOP');
    try {
      const down = await readinessWith(503);
      expect(down.report.checks.worker.status).toBe('error');
      expect(down.report.checks.postgres.status).toBe('ok');
      expect(down.report.checks.temporal.status).toBe('ok');
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    const up = await readinessWith(200);
    expect(up.report.checks.worker.status).toBe('ok');
  });

  it('restarts a worker that crashed, and /readyz is green with the new one', async () => {
    const crashed = workerPid();
    process.kill(crashed, 'SIGKILL');
    await poll('a new worker process', async () => {
      const pid = existsSync(path.join(dataDir, 'run', 'worker.pid')) ? workerPid() : crashed;
      return pid !== crashed ? pid : undefined;
    });
    const up = await readinessWith(200);
    expect(up.report.checks.worker.status).toBe('ok');
  });

  it('stops on SIGINT leaving no process behind, and a second start keeps the data', async () => {
    await withDatabase(async (client) => {
      await client.query('CREATE TABLE e2e_marker (note text)');
      await client.query("INSERT INTO e2e_marker VALUES ('kept across restarts')");
    });
    const workflowsBefore = await readinessWorkflowIds();

    expect(await tollgate?.stop('SIGINT')).toBe(130);
    expect(processesOf(dataDir)).toEqual([]);

    tollgate = await startTollgate(env);
    const rows = await withDatabase(
      async (client) => (await client.query('SELECT note FROM e2e_marker')).rows,
    );
    expect(rows).toEqual([{ note: 'kept across restarts' }]);
    expect(await readinessWorkflowIds()).toEqual(expect.arrayContaining(workflowsBefore));
    // The attributes already existed: registering them again at start is no failure.
    expect(await dispatcherFoundByKind()).toHaveLength(1);

    expect(await tollgate.stop('SIGINT')).toBe(130);
    expect(processesOf(dataDir)).toEqual([]);
  });
});
