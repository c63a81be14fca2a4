import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker, type WorkerInterceptors } from '@temporalio/worker';
import { createApp } from '../api/app.js';
import { createAuth, type Auth, type AuthSettings } from '../api/auth/auth.js';
import { withAuthInputRules } from '../api/http/auth-input.js';
import { createApiMetrics } from '../api/http/metrics.js';
import type { Tracing } from '../infra/trace-context.js';
import { clientTracingInterceptors } from '../temporal/tracing.js';
import { isDevMailboxAvailable } from '../api/dev/mailbox.js';
import type { Db } from '../infra/db.js';
import type { FileStorage } from '../domain/files/storage.js';
import { LocalFileStorage } from '../integrations/local-disk/storage.js';
import { createLogger } from '../infra/logger.js';
import { createMailer } from '../integrations/smtp/mailer.js';
import type { TaxCalculator } from '../domain/tax/calculator.js';
import { noTax } from '../domain/tax/rules.js';
import type { PaymentProcessor, ProcessorEventSink } from '../domain/payments/processor.js';
import { createSandboxProcessor } from '../integrations/sandbox/processor.js';
import { createHttpWebhookSender } from '../integrations/http/webhook-sender.js';
import { createAccountPlatforms } from '../integrations/account-platforms.js';
import { parseConfig } from '../config/config.js';
import { operatorContext } from '../temporal/entity-directory.js';
import { temporalStarters, type WorkflowStarters } from '../temporal/starters.js';
import { ensureLongLivedWorkflows, longLivedWorkflowIds } from '../temporal/schedules.js';
import { taskQueues } from '../temporal/task-queues.js';
import { createTollgateWorker } from '../temporal/worker.js';
import { AccessTokenCache } from '../domain/access-tokens/cache.js';
import { MeterCache } from '../domain/meters/cache.js';
import { ProcessPresence } from '../infra/process-presence.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { requireTestEnv } from './env.js';

export type TestStack = {
  baseUrl: string;
  temporal: Client;
  /** The stack's entity workflows as the domains see them (temporal/starters.ts). */
  workflows: WorkflowStarters;
  auth: Auth;
  taskQueuePrefix: string;
  /** The local file store of this stack, in a temporary folder removed by stop(). */
  fileStorage: LocalFileStorage;
  filesDir: string;
  worker?: Worker;
  stopWorker(): Promise<void>;
  startWorker(): Promise<void>;
  stop(): Promise<void>;
};

export const TEST_AUTH_SECRET = 'test-secret-that-is-long-enough-for-better-auth';

/**
 * The API on a real socket and (unless `withWorker: false`) a worker, both in this process, against
 * the run's Temporal server. Each stack has its own task queue, so parallel files never share work.
 */
export async function startTestStack(options: {
  db: Db;
  workerDb?: Db;
  withWorker?: boolean;
  readinessTimeoutMs?: number;
  /** Serve a built web app from here (its index.html and assets), as `npm start` serves dist/web. */
  webDir?: string;
  authRateLimit?: boolean;
  /** Express `trust proxy`; loopback by default, so a test can play several clients. */
  trustProxy?: string | boolean;
  organizations?: { limit?: number; allowCreation?: boolean };
  requireEmailVerification?: boolean;
  /** The payments API's per-caller budget; generous by default so tests are not throttled. */
  apiRateLimitPerMinute?: number;
  /** The buyer's per-address budget (client endpoints, link URLs); generous by default. */
  checkoutClientRateLimitPerMinute?: number;
  socialProviders?: AuthSettings['socialProviders'];
  /** Another file store (S3) instead of the stack's own local one. */
  fileStorage?: FileStorage;
  /** Send email over SMTP (a test's own server); by default emails land in the dev mailbox table. */
  smtpUrl?: string;
  /**
   * Traces (infra/tracing.ts): the client carries them into workflows, and the worker runs the
   * traced bundle (`bundleWorkflows({ tracing: true })`, written to `workflowBundle`).
   */
  tracing?: { tracing: Tracing; workflowBundle: string };
  /** Serve `GET /metrics` (api/http/metrics.ts), behind this token when one is given; off by default. */
  metrics?: { token?: string };
  /** The deployment's payment mode; live means a Stripe key is configured. Sandbox by default. */
  mode?: 'sandbox' | 'live';
  /** Serve Stripe's webhook endpoint with this signing secret and event sink. */
  /** Serve Stripe's webhook endpoint with this signing secret; events go to the stack's workflows. */
  stripeWebhook?: { webhookSecret: string; sink?: ProcessorEventSink };
  workerInterceptors?: WorkerInterceptors;
  /** The attempt from which a failing activity counts as stuck (the deployment's unless given). */
  stuckActivityAttempts?: number;
  /** Tax on checkouts; none by default. */
  tax?: TaxCalculator;
  /** The worker's payment processor; the sandbox by default. */
  processor?: PaymentProcessor;
  /**
   * GitHub and Discord settings as a deployment's environment gives them (`GITHUB_*`, `DISCORD_*`,
   * pointing at test/fake-platforms.ts); none configured by default.
   */
  platformSettings?: Record<string, string>;
}): Promise<TestStack> {
  const address = requireTestEnv('temporalAddress');
  const taskQueuePrefix = `test-${randomUUID()}`;
  const logger = createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent', name: 'tollgate-test' });
  const clientConnection = await Connection.connect({ address });
  const temporal = new Client({
    connection: clientConnection,
    namespace: 'default',
    ...(options.tracing
      ? { interceptors: { workflow: clientTracingInterceptors(options.tracing.tracing) } }
      : {}),
  });
  const workerConnection = await NativeConnection.connect({ address });
  const accountPlatforms = createAccountPlatforms(parseConfig(options.platformSettings ?? {}));
  // As a deployment in this mode: receivers on this machine are reachable in sandbox mode only.
  const webhookSender = createHttpWebhookSender({
    requireHttps: false,
    allowLoopback: (options.mode ?? 'sandbox') === 'sandbox',
    allowPrivateNetworks: false,
  });

  // Listen first: Better Auth and the worker's emails need the public URL (with the port).
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The run's dev server registered the search attributes (temporal/dev-server.ts).
  const workflows = temporalStarters(
    temporal,
    taskQueues(taskQueuePrefix).main,
    operatorContext(options.db, baseUrl),
  );
  const mailer = createMailer({
    db: options.db,
    smtpUrl: options.smtpUrl,
    from: 'Tollgate <no-reply@tollgate.test>',
    logger,
  });

  let worker: Worker | undefined;
  let workerRun: Promise<void> | undefined;
  const startWorker = async () => {
    worker = await createTollgateWorker({
      connection: workerConnection,
      namespace: 'default',
      taskQueuePrefix,
      db: options.workerDb ?? options.db,
      mailer: createMailer({
        db: options.workerDb ?? options.db,
        smtpUrl: options.smtpUrl,
        from: 'Tollgate <no-reply@tollgate.test>',
        logger,
      }),
      publicUrl: baseUrl,
      workflows,
      webhookSender,
      processor:
        options.processor ??
        createSandboxProcessor({ db: options.workerDb ?? options.db, sink: workflows.processorEvents }),
      processorMetadata: {},
      tax: options.tax ?? noTax,
      accountPlatforms,
      interceptors: options.workerInterceptors,
      ...(options.stuckActivityAttempts ? { stuckActivityAttempts: options.stuckActivityAttempts } : {}),
      logger,
      workflowBundle: { codePath: options.tracing?.workflowBundle ?? requireTestEnv('workflowBundle') },
      tracing: options.tracing?.tracing,
    });
    workerRun = worker.run();
    // As a deployment's worker start does: the outbox dispatcher and the meter refresher run.
    await ensureLongLivedWorkflows(workflows);
  };
  const stopWorker = async () => {
    if (worker && worker.getState() === 'RUNNING') worker.shutdown();
    await workerRun;
    worker = undefined;
  };
  if (options.withWorker !== false) await startWorker();

  const auth = createAuth(options.db, {
    publicUrl: baseUrl,
    secret: TEST_AUTH_SECRET,
    trustedOrigins: [],
    rateLimitEnabled: options.authRateLimit ?? false,
    logger,
    mailer,
    invitations: workflows.invitations,
    organizations: options.organizations,
    requireEmailVerification: options.requireEmailVerification,
    socialProviders: options.socialProviders,
  });
  const filesDir = await mkdtemp(path.join(os.tmpdir(), 'tollgate-files-'));
  const fileStorage = new LocalFileStorage({ root: filesDir, publicUrl: baseUrl, secret: TEST_AUTH_SECRET });
  // As in production: every test's token and meter reads go through the caches and their change feeds.
  const accessTokens = new AccessTokenCache(options.db.sql.options).start();
  const meters = new MeterCache(options.db.sql.options).start();
  const presence = new ProcessPresence(options.db.sql.options).start();
  const app = createApp({
    config: {
      TEMPORAL_TASK_QUEUE: taskQueuePrefix,
      TRUST_PROXY: options.trustProxy ?? 'loopback',
      READINESS_TIMEOUT_MS: options.readinessTimeoutMs ?? 5000,
      API_RATE_LIMIT_PER_MINUTE: options.apiRateLimitPerMinute ?? 10_000,
      CHECKOUT_CLIENT_RATE_LIMIT_PER_MINUTE: options.checkoutClientRateLimitPerMinute ?? 10_000,
      CHECKOUT_TTL_SECONDS: 3600,
      publicUrl: baseUrl,
      processorMetadata: {},
    },
    settings: {
      version: 'test',
      mode: options.mode ?? 'sandbox',
      temporal_ui_url: null,
      temporal_namespace: 'default',
      dev_mailbox: isDevMailboxAvailable(options.mode ?? 'sandbox', mailer),
      stripe_publishable_key: null,
    },
    logger,
    db: options.db,
    metrics: options.metrics && {
      registry: createApiMetrics({ db: options.db }),
      token: options.metrics.token,
    },
    temporal,
    workflows,
    mailer,
    webhookSender,
    // As api/server.ts composes it: the text rule in front of Better Auth's handler.
    auth: withAuthInputRules(auth),
    fileStorage: options.fileStorage ?? fileStorage,
    stripeWebhook: options.stripeWebhook && {
      webhookSecret: options.stripeWebhook.webhookSecret,
      sink: options.stripeWebhook.sink ?? workflows.processorEvents,
    },
    tax: options.tax ?? noTax,
    accountPlatforms,
    webDir: options.webDir,
    accessTokens,
    meters,
    presence,
  });
  server.on('request', app);

  return {
    baseUrl,
    temporal,
    workflows,
    auth,
    taskQueuePrefix,
    fileStorage,
    filesDir,
    get worker() {
      return worker;
    },
    startWorker,
    stopWorker,
    async stop() {
      // They live until stopped; this stack's task queue has no worker after this.
      for (const workflowId of longLivedWorkflowIds(taskQueues(taskQueuePrefix).main)) {
        await temporal.workflow
          .getHandle(workflowId)
          .terminate('test stack stopped')
          .catch(() => undefined);
      }
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await accessTokens.stop();
      await meters.stop();
      await presence.stop();
      await stopWorker();
      await workerConnection.close();
      await clientConnection.close();
      await rm(filesDir, { recursive: true, force: true });
    },
  };
}

/**
 * For a describe block: a fresh database and a started stack before its tests, both torn down after.
 * Read them as `env.database` / `env.stack` inside tests (they exist once beforeAll has run).
 */
export function useTestStack(options: Omit<Parameters<typeof startTestStack>[0], 'db'> = {}) {
  const env = {} as { database: TestDatabase; stack: TestStack };
  beforeAll(async () => {
    env.database = await createTestDatabase();
    env.stack = await startTestStack({ db: env.database.db, ...options });
  });
  afterAll(async () => {
    await env.stack?.stop();
    await env.database?.drop();
  });
  return env;
}
