import http from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isWrapped } from '@opentelemetry/instrumentation';
import { Polar } from '@polar-sh/sdk';
import pg from 'pg';
import { buyInSandbox, createAccessToken, createOrganization } from '../test/factories.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { patchLoadedModules, startOtlpReceiver, type ReceivedSpan } from '../test/otlp-receiver.js';
import { startTestStack, type TestStack } from '../test/stack.js';
import { eventually } from '../test/eventually.js';
import { bundleWorkflows } from '../temporal/bundle.js';
import { startTracing, type Tracing } from './tracing.js';
import { createLogger } from './logger.js';

describe('traces', () => {
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let tracing: Tracing;
  let database: TestDatabase;
  let stack: TestStack;
  let bundleDir: string;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    tracing = startTracing({ endpoint: receiver.endpoint, serviceName: 'tollgate-test', version: 'test' });
    patchLoadedModules(tracing.instrumentations, {
      ...(isWrapped(http.Server.prototype.emit) ? {} : { http: { exports: http } }),
      ...(isWrapped(pg.Client.prototype.query) ? {} : { pg: { exports: pg } }),
    });
    bundleDir = await mkdtemp(path.join(os.tmpdir(), 'tollgate-traced-bundle-'));
    const workflowBundle = path.join(bundleDir, 'workflow-bundle-traced.js');
    await writeFile(workflowBundle, (await bundleWorkflows({ tracing: true })).code);
    database = await createTestDatabase();
    stack = await startTestStack({ db: database.db, tracing: { tracing, workflowBundle } });
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    await database?.drop();
    await tracing?.shutdown();
    await receiver?.stop();
    if (bundleDir) await rm(bundleDir, { recursive: true, force: true });
  });

  it("follows a checkout from its HTTP requests into its workflow, the workflow's activities and their SQL", async () => {
    const organization = await createOrganization(database.db, { name: 'Acme' });
    const polar = new Polar({
      accessToken: await createAccessToken(database.db, organization.id),
      serverURL: stack.baseUrl,
    });
    const lamp = await polar.products.create({
      name: 'Desk lamp',
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 4900, priceCurrency: 'usd' }],
    });
    const customer = await polar.customers.create({ email: 'ada@example.test', name: 'Ada' });
    await buyInSandbox(polar, stack.baseUrl, lamp.id, customer.id);

    // The request that opened the checkout started its workflow: the workflow's activities are
    // in its trace. The confirmation signals the workflow: its handler's span is in that one's.
    const requestTrace = (spans: ReceivedSpan[], method: string, target: RegExp) =>
      spans.find(
        (span) =>
          span.attributes['http.method'] === method &&
          target.test(String(span.attributes['http.target'] ?? '')),
      )?.traceId;
    const createTrace = (spans: ReceivedSpan[]) => requestTrace(spans, 'POST', /^\/v1\/checkouts\/?$/);
    const confirmTrace = (spans: ReceivedSpan[]) =>
      requestTrace(spans, 'POST', /^\/v1\/checkouts\/client\/[^/]+\/confirm$/);
    const spans = await eventually(
      async () => {
        await tracing.spanProcessor.forceFlush();
        return receiver.spans;
      },
      (received) => {
        const created = createTrace(received);
        const confirmed = confirmTrace(received);
        return (
          received.some((span) => span.traceId === created && span.name.startsWith('RunActivity:')) &&
          received.some((span) => span.traceId === confirmed && span.name.startsWith('HandleSignal:'))
        );
      },
    );
    const inTrace = spans.filter((span) => span.traceId === createTrace(spans));
    expect(inTrace.some((span) => span.name === 'StartWorkflow:checkoutWorkflow')).toBe(true);
    // (The workflow's own RunWorkflow span ends, and is exported, when the workflow does.)
    const activities = inTrace.filter((span) => span.name.startsWith('RunActivity:'));
    expect(activities.length).toBeGreaterThanOrEqual(1);
    const confirmed = spans.filter((span) => span.traceId === confirmTrace(spans));
    expect(confirmed.some((span) => span.name === 'SignalWithStartWorkflow:checkoutWorkflow')).toBe(true);
    expect(confirmed.some((span) => span.name.startsWith('HandleSignal:'))).toBe(true);

    // SQL statements of the activities, under their spans in the same trace.
    const sql = inTrace.filter((span) => span.attributes['db.system'] === 'postgresql');
    const activitySpanIds = new Set(activities.map((span) => span.spanId));
    const parentOf = new Map(inTrace.map((span) => [span.spanId, span.parentSpanId]));
    const underActivity = (span: ReceivedSpan) => {
      for (let parent = span.parentSpanId; parent; parent = parentOf.get(parent)) {
        if (activitySpanIds.has(parent)) return true;
      }
      return false;
    };
    expect(sql.some(underActivity)).toBe(true);
    // No statement's parameters: buyers' emails must not leave in spans.
    expect(JSON.stringify(sql)).not.toContain('ada@example.test');
  });

  it('puts the active trace id on log lines', async () => {
    const lines: string[] = [];
    const logger = createLogger(
      { level: 'info', name: 'tollgate-test' },
      { write: (line: string) => void lines.push(line) },
    );
    const tracer = (await import('@opentelemetry/api')).trace.getTracer('test');
    await tracer.startActiveSpan('a unit of work', async (span) => {
      logger.info('inside');
      span.end();
    });
    logger.info('outside');
    const [inside, outside] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(inside).toMatchObject({ msg: 'inside', trace_id: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(outside).not.toHaveProperty('trace_id');
  });
});
