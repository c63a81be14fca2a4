import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { createApp } from '../api/app.js';
import type { Db } from '../infra/db.js';
import { createLogger } from '../infra/logger.js';
import { createTollgateWorker } from '../temporal/worker.js';
import { requireTestEnv } from './env.js';

export type TestStack = {
  baseUrl: string;
  temporal: Client;
  taskQueuePrefix: string;
  worker?: Worker;
  stopWorker(): Promise<void>;
  startWorker(): Promise<void>;
  stop(): Promise<void>;
};

/**
 * The API on a real socket and (unless `withWorker: false`) a worker, both in this process, against
 * the run's Temporal server. Each stack has its own task queue, so parallel files never share work.
 */
export async function startTestStack(options: {
  db: Db;
  workerDb?: Db;
  withWorker?: boolean;
  readinessTimeoutMs?: number;
}): Promise<TestStack> {
  const address = requireTestEnv('temporalAddress');
  const taskQueuePrefix = `test-${randomUUID()}`;
  const logger = createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent', name: 'tollgate-test' });
  const clientConnection = await Connection.connect({ address });
  const temporal = new Client({ connection: clientConnection, namespace: 'default' });
  const workerConnection = await NativeConnection.connect({ address });

  let worker: Worker | undefined;
  let workerRun: Promise<void> | undefined;
  const startWorker = async () => {
    worker = await createTollgateWorker({
      connection: workerConnection,
      namespace: 'default',
      taskQueuePrefix,
      db: options.workerDb ?? options.db,
      workflowBundle: { codePath: requireTestEnv('workflowBundle') },
    });
    workerRun = worker.run();
  };
  const stopWorker = async () => {
    if (worker && worker.getState() === 'RUNNING') worker.shutdown();
    await workerRun;
    worker = undefined;
  };
  if (options.withWorker !== false) await startWorker();

  const app = createApp({
    config: {
      TEMPORAL_TASK_QUEUE: taskQueuePrefix,
      READINESS_TIMEOUT_MS: options.readinessTimeoutMs ?? 5000,
    },
    settings: { version: 'test', mode: 'sandbox', temporal_ui_url: null },
    logger,
    db: options.db,
    temporal,
  });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    temporal,
    taskQueuePrefix,
    get worker() {
      return worker;
    },
    startWorker,
    stopWorker,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await stopWorker();
      await workerConnection.close();
      await clientConnection.close();
    },
  };
}
