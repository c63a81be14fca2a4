// What the workflow benchmarks (B4, B5) share: one PostgreSQL database, one Temporal dev server,
// and in this process the API (createApp, on loopback) and one worker (the deployment's workflows
// plus the bench-only baselines of bench-workflows.ts), each with its own database pool of the
// default size, as deployed; the webhook dispatcher runs throughout, as on every deployment.
// B7 stands on the services alone (startBenchServices) and runs its worker in a process of its own.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Polar } from '@polar-sh/sdk';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, NativeConnection, Worker } from '@temporalio/worker';
import { pino } from 'pino';
import { createApp } from '../api/app.js';
import { createAuth } from '../api/auth/auth.js';
import { issueAccessToken } from '../domain/access-tokens/service.js';
import { noTax } from '../domain/tax/rules.js';
import { createDb, type Db } from '../infra/db.js';
import { findFreePort } from '../infra/processes.js';
import { createHttpWebhookSender } from '../integrations/http/webhook-sender.js';
import { LocalFileStorage } from '../integrations/local-disk/storage.js';
import { createMailer } from '../integrations/smtp/mailer.js';
import { openToolingPostgres } from '../scripts/lib/local-database.js';
import { resolveDataDir } from '../scripts/lib/paths.js';
import { ensureTemporalCli } from '../scripts/lib/tools.js';
import { resolveTypeScriptSpecifiers } from '../temporal/bundle.js';
import { ensureLongLivedWorkflows, longLivedWorkflowIds } from '../temporal/schedules.js';
import { startTemporalDevServer } from '../temporal/dev-server.js';
import { temporalStarters, type WorkflowStarters } from '../temporal/starters.js';
import { taskQueues } from '../temporal/task-queues.js';
import { createBenchWorker } from './bench-worker.js';
import { BASELINE_ACTIVITY_QUEUE } from './bench-workflows.js';
import { freshBenchDatabase } from './lib.js';

/** Nearest-rank percentile of already sorted values. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? Number.NaN;
}

export function latencySummary(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    p50: round(percentile(sorted, 0.5)),
    p99: round(percentile(sorted, 0.99)),
    max: round(sorted.at(-1) ?? Number.NaN),
  };
}

/** A protobuf timestamp of a history event, in milliseconds since the epoch. */
export function epochMs(timestamp: {
  seconds?: number | { toString(): string } | null;
  nanos?: number | null;
}) {
  return Number(timestamp.seconds ?? 0) * 1000 + Math.floor((timestamp.nanos ?? 0) / 1_000_000);
}

/** Runs `work` over `items` with at most `lanes` at a time, in order within each lane. */
export async function inLanes<T>(items: T[], lanes: number, work: (item: T) => Promise<void>) {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}

export async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`bench: ${what} did not happen in ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The API as a deployment serves it, on loopback, with a real Temporal client. */
export async function startApi(db: Db, temporal: Client, taskQueue: string, workflows: WorkflowStarters) {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const secret = 'bench-secret-bench-secret-bench-secret';
  const silent = pino({ level: 'silent' });
  const app = createApp({
    config: {
      TEMPORAL_TASK_QUEUE: taskQueue,
      READINESS_TIMEOUT_MS: 5000,
      TRUST_PROXY: 'loopback',
      // Counted as in production, with a budget the bench never reaches.
      API_RATE_LIMIT_PER_MINUTE: 1_000_000_000,
      CHECKOUT_CLIENT_RATE_LIMIT_PER_MINUTE: 1_000_000_000,
      publicUrl: baseUrl,
      CHECKOUT_TTL_SECONDS: 3600,
      processorMetadata: {},
    },
    settings: {
      version: 'bench',
      mode: 'sandbox',
      temporal_ui_url: null,
      temporal_namespace: 'default',
      dev_mailbox: false,
      stripe_publishable_key: null,
    },
    // Access logs are written as in production, to a sink that costs no disk.
    logger: pino({ level: 'info' }, pino.destination('/dev/null')),
    db,
    temporal,
    workflows,
    mailer: createMailer({ db, from: 'bench@localhost', logger: silent }),
    webhookSender: createHttpWebhookSender({
      requireHttps: false,
      allowLoopback: true,
      allowPrivateNetworks: false,
    }),
    fileStorage: new LocalFileStorage({
      root: path.join(os.tmpdir(), 'tollgate-bench-files'),
      publicUrl: baseUrl,
      secret,
    }),
    auth: createAuth(db, {
      publicUrl: baseUrl,
      secret,
      trustedOrigins: [],
      rateLimitEnabled: false,
      logger: silent,
      mailer: createMailer({ db, from: 'bench@localhost', logger: silent }),
      invitations: workflows.invitations,
    }),
    tax: noTax,
  });
  server.on('request', app);
  return {
    baseUrl,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An organization, its API client and a product at 25.00 USD (one-time unless `interval`), through the API. */
export async function seller(db: Db, baseUrl: string, name: string, interval: 'month' | null = null) {
  const organization = await db.organization.create({ data: { name, slug: `bench-${randomUUID()}` } });
  const { token } = await issueAccessToken(db, {
    organizationId: organization.id,
    comment: 'bench',
    createdById: null,
  });
  const polar = new Polar({ accessToken: token, serverURL: baseUrl });
  const product = await polar.products.create({
    name: 'Bench product',
    recurringInterval: interval,
    prices: [{ amountType: 'fixed', priceAmount: 2500, priceCurrency: 'usd' }],
  });
  return { organization, polar, product, priceId: product.prices[0]!.id };
}

/** A seller of `seller`, whose product the seeded checkouts are for. */
export type BenchSeller = Awaited<ReturnType<typeof seller>>;

/** Rows per INSERT: 13 columns each stay well under PostgreSQL's 65,535 bind parameters. */
const SEED_BATCH = 1000;

/**
 * `count` open checkouts of `shop`'s product expiring at `expiresAt`, straight into the table (no
 * workflow started: the bench starts them); their ids, in order.
 */
export async function seedOpenCheckouts(db: Db, shop: BenchSeller, count: number, expiresAt: Date) {
  const ids: string[] = [];
  for (let seeded = 0; seeded < count; seeded += SEED_BATCH) {
    const rows = await db.checkout.createManyAndReturn({
      data: Array.from({ length: Math.min(SEED_BATCH, count - seeded) }, () => ({
        organizationId: shop.organization.id,
        status: 'open',
        clientSecret: `tollgate_c_${randomBytes(24).toString('base64url')}`,
        expiresAt,
        productIds: [shop.product.id],
        productId: shop.product.id,
        productPriceId: shop.priceId,
        currency: 'usd',
        amount: 2500,
        discountAmount: 0,
        netAmount: 2500,
        totalAmount: 2500,
      })),
      select: { id: true },
    });
    ids.push(...rows.map((row) => row.id));
  }
  return ids;
}

/**
 * What every workflow benchmark stands on (`name` names its database and task queue): PostgreSQL
 * with a fresh database, a Temporal dev server, a client of it, and a pool for the bench's own
 * seeding and reads. Each part is stopped by `cleanups`, in reverse, by the caller.
 */
export async function startBenchServices(name: string, cleanups: (() => Promise<void>)[]) {
  const postgres = await openToolingPostgres({ name: 'bench-postgres' });
  cleanups.push(postgres.stop);
  const databaseUrl = await freshBenchDatabase(postgres, name);

  const dataDir = resolveDataDir(process.env.DATA_DIR ?? '.data');
  const temporalServer = await startTemporalDevServer({
    binary: await ensureTemporalCli(() => undefined),
    port: await findFreePort(),
    logFile: path.join(dataDir, 'logs', `bench-${name}-temporal.log`),
  });
  cleanups.push(temporalServer.stop);

  const db = createDb(databaseUrl);
  cleanups.push(() => db.$disconnect());
  const clientConnection = await Connection.connect({ address: temporalServer.address });
  cleanups.push(() => clientConnection.close());
  const temporal = new Client({ connection: clientConnection });
  const taskQueuePrefix = `bench-${name}`;
  return {
    databaseUrl,
    temporalAddress: temporalServer.address,
    db,
    temporal,
    taskQueuePrefix,
    taskQueue: taskQueues(taskQueuePrefix).main,
  };
}

export type BenchStack = Awaited<ReturnType<typeof startBenchStack>>;

/**
 * The stack of one benchmark (`name` names its database, task queue and log); every part it starts
 * is stopped by `cleanups`, in reverse, by the caller.
 */
export async function startBenchStack(name: string, cleanups: (() => Promise<void>)[]) {
  const { databaseUrl, temporalAddress, db, temporal, taskQueuePrefix, taskQueue } = await startBenchServices(
    name,
    cleanups,
  );

  // As deployed: the API and the worker each with their own pool of the default size; the
  // bench's own seeding and reads on a third, so they never take the others' connections.
  const apiDb = createDb(databaseUrl);
  const workerDb = createDb(databaseUrl);
  cleanups.push(
    () => apiDb.$disconnect(),
    () => workerDb.$disconnect(),
  );
  const workerConnection = await NativeConnection.connect({ address: temporalAddress });
  cleanups.push(() => workerConnection.close());

  const workflows = temporalStarters(temporal, taskQueue);
  const api = await startApi(apiDb, temporal, taskQueue, workflows);
  cleanups.push(api.stop);
  const bundle = await bundleWorkflowCode({
    workflowsPath: fileURLToPath(new URL('./bench-workflows.ts', import.meta.url)),
    webpackConfigHook: resolveTypeScriptSpecifiers,
    logger: { info() {}, debug() {}, trace() {}, log() {}, warn: console.warn, error: console.error },
  });
  const worker = await createBenchWorker({
    connection: workerConnection,
    db: workerDb,
    workflows,
    taskQueuePrefix,
    publicUrl: api.baseUrl,
    workflowBundle: { code: bundle.code },
  });
  const run = worker.run();
  cleanups.push(async () => {
    // Their long-running activities would hold the worker's shutdown for 30 s.
    for (const workflowId of longLivedWorkflowIds(taskQueue)) {
      await temporal.workflow
        .getHandle(workflowId)
        .terminate('bench done')
        .catch(() => undefined);
    }
    worker.shutdown();
    await run;
  });
  // As a deployment's worker start does: the outbox dispatcher and the meter refresher run throughout.
  await ensureLongLivedWorkflows(workflows);
  // The baselines' one activity does nothing, on a queue of its own (the deployment's worker does
  // not carry bench code).
  const baselineWorker = await Worker.create({
    connection: workerConnection,
    namespace: 'default',
    taskQueue: BASELINE_ACTIVITY_QUEUE,
    activities: { baselineActivity: async () => null },
  });
  const baselineRun = baselineWorker.run();
  cleanups.push(async () => {
    baselineWorker.shutdown();
    await baselineRun;
  });
  return { db, temporal, taskQueue, api, workflows };
}
