// The deployment's worker (createTollgateWorker) as the benches run it: webhooks to loopback, the
// sandbox processor, no tax, a silent mailer. Apart from stack.ts so that B7's worker process
// (b7-worker.ts) loads the worker and nothing else (no API, no SDK client of it).
import type { NativeConnection, Worker, WorkflowBundleOption } from '@temporalio/worker';
import { pino } from 'pino';
import { noTax } from '../domain/tax/rules.js';
import type { Db } from '../infra/db.js';
import { createHttpWebhookSender } from '../integrations/http/webhook-sender.js';
import { createSandboxProcessor } from '../integrations/sandbox/processor.js';
import { createMailer } from '../integrations/smtp/mailer.js';
import type { WorkflowStarters } from '../temporal/starters.js';
import { createTollgateWorker } from '../temporal/worker.js';

export function createBenchWorker(options: {
  connection: NativeConnection;
  db: Db;
  workflows: WorkflowStarters;
  taskQueuePrefix: string;
  publicUrl: string;
  workflowBundle: WorkflowBundleOption;
  maxCachedWorkflows?: number;
}): Promise<Worker> {
  const { db, workflows } = options;
  return createTollgateWorker({
    connection: options.connection,
    namespace: 'default',
    taskQueuePrefix: options.taskQueuePrefix,
    db,
    mailer: createMailer({ db, from: 'bench@localhost', logger: pino({ level: 'silent' }) }),
    publicUrl: options.publicUrl,
    workflows,
    webhookSender: createHttpWebhookSender({
      requireHttps: false,
      allowLoopback: true,
      allowPrivateNetworks: false,
    }),
    processor: createSandboxProcessor({ db, sink: workflows.processorEvents }),
    processorMetadata: {},
    tax: noTax,
    workflowBundle: options.workflowBundle,
    ...(options.maxCachedWorkflows !== undefined ? { maxCachedWorkflows: options.maxCachedWorkflows } : {}),
  });
}
