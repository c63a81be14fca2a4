import { temporalStarters } from '../temporal/starters.js';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { recordEvent } from '../domain/webhook-outbox/repository.js';
import { webhookHeaders } from '../domain/webhooks/signing.js';
import { createDb } from '../infra/db.js';
import { findFreePort } from '../infra/processes.js';
import { openToolingPostgres } from '../scripts/lib/local-database.js';
import { resolveDataDir } from '../scripts/lib/paths.js';
import { ensureTemporalCli } from '../scripts/lib/tools.js';
import { bundleWorkflows } from '../temporal/bundle.js';
import { startTemporalDevServer } from '../temporal/dev-server.js';
import { createBenchWorker } from './bench-worker.js';
import { freshBenchDatabase, loadTest, startServerProcess, type BenchmarkResult } from './lib.js';
import { createHttpWebhookSender } from '../integrations/http/webhook-sender.js';

const EVENTS = 1_000;
/** Each subscribed to every event, as a seller's several integrations are. */
const ENDPOINTS = 10;
const SINK_LOAD = { connections: 32, durationSeconds: 10, warmupSeconds: 3 };
const SECRET = 'tollgate_whs_bench-secret';

function organizationPayload(id: string, name: string) {
  return {
    created_at: new Date().toISOString(),
    modified_at: null,
    id,
    name,
    slug: `bench-${id.slice(0, 8)}`,
    avatar_url: null,
    email: null,
    website: null,
    socials: [],
    details_submitted_at: null,
    feature_settings: {
      issue_funding_enabled: false,
      usage_based_billing_enabled: false,
      reset_proration_behavior_enabled: false,
      seat_based_pricing_enabled: true,
    },
    subscription_settings: {
      allow_multiple_subscriptions: false,
      allow_customer_updates: true,
      proration_behavior: 'prorate',
    },
  };
}

/**
 * B6: signed webhook deliveries per second through the whole engine (outbox → dispatcher → the
 * endpoint's delivery workflow → signed POST → attempt recorded), against the same sink's
 * own requests per second under autocannon. One in-process worker, Temporal dev server, loopback.
 */
export async function runB6(): Promise<BenchmarkResult> {
  const postgres = await openToolingPostgres({ name: 'bench-postgres' });
  const cleanups: (() => Promise<void>)[] = [postgres.stop];
  try {
    const databaseUrl = await freshBenchDatabase(postgres, 'b6');

    const sink = await startServerProcess('bench/b6-sink.ts', [], {});
    cleanups.push(sink.stop);

    // Baseline: the sink alone, sent bodies of the same size with the same signed headers.
    const sampleBody = JSON.stringify({
      type: 'organization.updated',
      timestamp: new Date().toISOString(),
      data: organizationPayload('00000000-0000-4000-8000-000000000000', 'Bench resource'),
    });
    const baseline = await loadTest(sink.url, {
      ...SINK_LOAD,
      method: 'POST',
      body: sampleBody,
      headers: webhookHeaders({
        id: 'bench',
        timestampSeconds: Math.floor(Date.now() / 1000),
        body: sampleBody,
        secret: SECRET,
        apiVersion: '2026-10',
      }),
    });

    // Floor: the same number of signed POSTs from this process through the delivery's own sender,
    // 64 at once as a delivery call sends, with nothing recorded: what sending alone costs here.
    const sender = createHttpWebhookSender({
      requireHttps: false,
      allowLoopback: true,
      allowPrivateNetworks: false,
    });
    const floorStarted = performance.now();
    let floorNext = 0;
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        while (floorNext < EVENTS * ENDPOINTS) {
          const index = floorNext++;
          const headers = webhookHeaders({
            id: `floor-${index}`,
            timestampSeconds: Math.floor(Date.now() / 1000),
            body: sampleBody,
            secret: SECRET,
            apiVersion: '2026-10',
          });
          const answer = await sender.post(`${sink.url}/endpoint-${index % ENDPOINTS}`, headers, sampleBody);
          if (answer.httpCode !== 200) throw new Error(`B6 floor: ${answer.error ?? answer.httpCode}`);
        }
      }),
    );
    const floorPerSecond = Math.round((EVENTS * ENDPOINTS) / ((performance.now() - floorStarted) / 1000));

    const dataDir = resolveDataDir(process.env.DATA_DIR ?? '.data');
    const temporalServer = await startTemporalDevServer({
      binary: await ensureTemporalCli(() => undefined),
      port: await findFreePort(),
      logFile: path.join(dataDir, 'logs', 'bench-temporal.log'),
    });
    cleanups.push(temporalServer.stop);

    const db = createDb(databaseUrl, { maxConnections: 20 });
    cleanups.push(() => db.$disconnect());
    const organization = await db.organization.create({ data: { name: 'Bench Co', slug: 'bench-co' } });
    await db.webhookEndpoint.createMany({
      data: Array.from({ length: ENDPOINTS }, (_, index) => ({
        organizationId: organization.id,
        url: `${sink.url}/endpoint-${index}`,
        format: 'raw',
        secret: SECRET,
        events: ['organization.updated'],
      })),
    });
    // Distinct resources, as many independent orders would be: none waits behind another.
    await db.$transaction(
      async (tx) => {
        for (let index = 0; index < EVENTS; index += 1) {
          const id = crypto.randomUUID();
          await recordEvent(tx, {
            organizationId: organization.id,
            type: 'organization.updated',
            data: organizationPayload(id, `Bench resource ${index}`),
          });
        }
      },
      // Seeding, not measured: generous on a busy machine.
      { timeout: 120_000 },
    );

    const clientConnection = await Connection.connect({ address: temporalServer.address });
    cleanups.push(() => clientConnection.close());
    const temporal = new Client({ connection: clientConnection });
    const workerConnection = await NativeConnection.connect({ address: temporalServer.address });
    cleanups.push(() => workerConnection.close());
    const taskQueue = 'bench-b6';
    const workflows = temporalStarters(temporal, taskQueue);
    const worker = await createBenchWorker({
      connection: workerConnection,
      db,
      workflows,
      taskQueuePrefix: taskQueue,
      publicUrl: 'http://127.0.0.1',
      workflowBundle: { code: (await bundleWorkflows()).code },
    });
    const run = worker.run();

    const startedAt = Date.now();
    const started = performance.now();
    await workflows.webhooks.ensureDispatcher();
    const deliveries = EVENTS * ENDPOINTS;
    let delivered = 0;
    while (delivered < deliveries) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      delivered = await db.webhookEvent.count({ where: { status: 'succeeded' } });
      if (performance.now() - started > 600_000)
        throw new Error(`B6: only ${delivered} of ${deliveries} delivered in 10 min`);
    }
    const seconds = (performance.now() - started) / 1000;
    const attempts = await db.webhookDelivery.count();
    // Where the time went: fanning the outbox out, or delivering what was fanned out.
    const { _max } = await db.outboxEvent.aggregate({ _max: { dispatchedAt: true } });
    const dispatchSeconds = ((_max.dispatchedAt?.getTime() ?? startedAt) - startedAt) / 1000;
    await temporal.workflow.getHandle(`webhook-dispatcher:${taskQueue}`).terminate('bench done');
    worker.shutdown();
    await run;

    const deliveriesPerSecond = Math.round(deliveries / seconds);
    return {
      benchmark: 'B6',
      description: `${EVENTS} outbox events, each about its own resource, delivered signed to each of ${ENDPOINTS} endpoints on a loopback sink through the dispatcher and each endpoint's delivery workflow (one in-process worker, Temporal dev server), vs the sink's own POST requests/s under autocannon (${SINK_LOAD.connections} connections, ${SINK_LOAD.durationSeconds} s). Floor: as many signed POSTs sent by this process through the same sender, 64 at once, nothing recorded`,
      figure: {
        name: 'signed webhook deliveries',
        value: deliveriesPerSecond,
        unit: 'requests/s',
        details: {
          events: EVENTS,
          endpoints: ENDPOINTS,
          deliveries,
          seconds: Math.round(seconds * 10) / 10,
          dispatch_seconds: Math.round(dispatchSeconds * 10) / 10,
          attempts,
          floor_per_second: floorPerSecond,
          share_of_floor: Math.round((deliveriesPerSecond / floorPerSecond) * 1000) / 1000,
        },
      },
      baseline: {
        name: 'sink POST throughput',
        value: baseline.requestsPerSecond,
        unit: 'requests/s',
        details: { p50_ms: baseline.p50Ms, p99_ms: baseline.p99Ms },
      },
      ratio: Math.round((deliveriesPerSecond / baseline.requestsPerSecond) * 1000) / 1000,
    };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}
