// The worker process: `node dist/temporal/main.js` (production) or `tsx temporal/main.ts` (dev) load it after starting tracing; run directly, it runs untraced.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadConfigOrExit } from '../config/config.js';
import { createDb } from '../infra/db.js';
import { createLogger } from '../infra/logger.js';
import { createHttpWebhookSender, webhookTargetPolicy } from '../integrations/http/webhook-sender.js';
import { createMailer } from '../integrations/smtp/mailer.js';
import { createAccountPlatforms } from '../integrations/account-platforms.js';
import { createPaymentProcessor, createStripeTax } from '../integrations/payments.js';
import { createTaxCalculator } from '../integrations/tax.js';
import { connectTemporalClient, connectTemporalWorker } from './connection.js';
import { prepareOperatorContext } from './entity-directory.js';
import { ensureSchedules } from './schedules.js';
import { temporalStarters } from './starters.js';
import { taskQueues } from './task-queues.js';
import { createTollgateWorker } from './worker.js';
import { startMetricsServer } from '../infra/metrics.js';
import { processTracing } from '../infra/trace-context.js';
import { clientTracingInterceptors } from './tracing.js';
import { createWorkerMetrics, installTemporalRuntimeMetrics } from './metrics.js';

const config = loadConfigOrExit();
const logger = createLogger({ level: config.LOG_LEVEL, name: 'tollgate-worker' });
if (!config.DATABASE_URL) {
  logger.fatal('DATABASE_URL is required by the worker');
  process.exit(78);
}

// `npm run build` writes the bundle beside the compiled worker (dist/workflow-bundle.js); running
// from sources there is none and the workflows are bundled at start.
// With tracing on, the bundle with the workflow tracing interceptors (temporal/bundle.ts).
const tracing = processTracing();
const prebuiltBundle = fileURLToPath(
  new URL(tracing ? '../workflow-bundle-traced.js' : '../workflow-bundle.js', import.meta.url),
);
const db = createDb(config.DATABASE_URL);
// Before the first connection: the SDK's runtime is made once, with its exporter or without.
if (config.TEMPORAL_METRICS_PORT !== undefined) {
  installTemporalRuntimeMetrics(config.METRICS_HOST, config.TEMPORAL_METRICS_PORT);
}
const metricsServer =
  config.METRICS_PORT !== undefined
    ? await startMetricsServer({
        registry: createWorkerMetrics(db),
        port: config.METRICS_PORT,
        host: config.METRICS_HOST,
        token: config.METRICS_TOKEN,
      })
    : null;
if (metricsServer) logger.info({ port: metricsServer.port }, 'worker metrics listening');
const connection = await connectTemporalWorker(config);
const temporal = await connectTemporalClient(config, clientTracingInterceptors(tracing));
const taskQueue = taskQueues(config.TEMPORAL_TASK_QUEUE).main;
const operators = await prepareOperatorContext({
  temporal,
  namespace: config.TEMPORAL_NAMESPACE,
  db,
  publicUrl: config.publicUrl,
  warn: (message) => logger.warn(message),
});
const workflows = temporalStarters(temporal, taskQueue, operators);
const worker = await createTollgateWorker({
  connection,
  namespace: config.TEMPORAL_NAMESPACE,
  taskQueuePrefix: config.TEMPORAL_TASK_QUEUE,
  db,
  mailer: createMailer({ db, smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, logger }),
  publicUrl: config.publicUrl,
  workflows,
  webhookSender: createHttpWebhookSender(webhookTargetPolicy(config)),
  processor: createPaymentProcessor(config, { db, sink: workflows.processorEvents }),
  processorMetadata: config.processorMetadata,
  tax: createTaxCalculator(config, config.isSandbox ? undefined : createStripeTax(config)),
  dunningRetryDays: config.SUBSCRIPTION_RETRY_DAYS,
  accountPlatforms: createAccountPlatforms(config),
  workflowBundle: existsSync(prebuiltBundle) ? { codePath: prebuiltBundle } : undefined,
  tracing,
  logger,
});

// Every worker start makes sure the schedules exist (idempotent), so a fresh deployment needs no setup step.
await ensureSchedules(temporal, taskQueue, workflows);
logger.info(
  { taskQueue: config.TEMPORAL_TASK_QUEUE, namespace: config.TEMPORAL_NAMESPACE },
  'worker started',
);
// The Temporal runtime turns SIGINT/SIGTERM into a graceful worker shutdown: in-flight activities
// finish (up to the shutdown grace time), then run() resolves.
try {
  await worker.run();
} finally {
  await connection.close();
  await temporal.connection.close();
  await db.$disconnect();
  await metricsServer?.close();
  await tracing?.shutdown();
  logger.info('worker stopped');
}
