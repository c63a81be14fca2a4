// B4: checkout workflows per second, and the time from a confirmed checkout to its `order.paid`.
//
// The stack of bench/stack.ts: one PostgreSQL, one Temporal dev server, the API and one worker in
// this process (the baseline's empty workflow is in bench-workflows.ts).
//
// Throughput. Figure: N `checkout:<id>` workflows over seeded open checkouts, each on its real path
// to expiry as the API starts it (with the checkout's expiry in its input): a timer until
// expires_at, then expireCheckout as a local activity (row lock, status change, `checkout.updated`
// into the outbox).
// Each row's expires_at is set to now + B4_EXPIRY_MS right before its start (one single-row UPDATE
// inside the measured window, as createCheckout commits its row right before the start). A closed
// loop keeps a fixed number in flight, each lane starting its next workflow when its last one
// ends. A lane ends at most one workflow per expiry, so the figure can never exceed in-flight /
// expiry, printed as its cap. In flight is B4_IN_FLIGHT when set, else calibrated: 1.2 × expiry ×
// the rate of an unmeasured run of 50 checkout workflows, 10 in flight, whose rows are already
// expired (the same path minus the timer). That keeps the cap above what the measured path can
// reach. The histories are read afterwards for the timers that fired and the delay from expiry to
// the expiring step's end; stderr gets a warning when a timer did not fire or the figure nears its
// cap. Baseline: N empty workflows, as many in flight, on the same server and worker. Both are
// timed from the first start to the last result, after a warm-up, with nothing subtracted.
//
// Latency. A webhook endpoint subscribed to `order.paid` at a receiver on loopback (in this
// process too). Checkouts are created beforehand through @polar-sh/sdk; B4_CONCURRENCY lanes each
// confirm one (sandbox card pm_card_visa) and wait for its `order.paid` before confirming the
// next. Figure: from the confirm response to the arrival of that checkout's `order.paid` (signal,
// charge, fulfil, outbox, dispatcher poll every 200 ms, delivery workflow, signed POST). Baseline:
// the round trip of a bare signed POST of the same body to the same receiver with the same fetch
// the delivery uses, i.e. the one hop a delivery would cost if it were sent at confirmation.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Polar } from '@polar-sh/sdk';
import { validateEvent } from '@polar-sh/sdk/webhooks';
import { z } from 'zod';
import { checkoutWorkflowId } from '../domain/checkouts/rules.js';
import { webhookHeaders } from '../domain/webhooks/signing.js';
import type { checkoutWorkflow } from '../workflows/checkouts.js';
import type { emptyWorkflow } from './bench-workflows.js';
import type { BenchmarkResult } from './lib.js';
import {
  epochMs,
  inLanes,
  latencySummary,
  seedOpenCheckouts,
  seller,
  startBenchStack,
  waitUntil,
} from './stack.js';

const settingsSchema = z.object({
  /** Workflows of each kind in the throughput run. */
  B4_WORKFLOWS: z.coerce.number().int().positive().default(200),
  /** Workflows kept in flight in the throughput run; calibrated when unset (see the top). */
  B4_IN_FLIGHT: z.coerce.number().int().positive().optional(),
  /** Each checkout's time from its workflow's start to expiry: the timer it waits on. */
  B4_EXPIRY_MS: z.coerce.number().int().positive().default(4000),
  /** Checkouts confirmed in the latency run. */
  B4_CHECKOUTS: z.coerce.number().int().positive().default(100),
  /** Checkouts in flight at once in the latency run. */
  B4_CONCURRENCY: z.coerce.number().int().positive().default(5),
});

const SECRET = 'tollgate_whs_bench-b4-secret';
/** The calibration run, which is also the checkout workflows' warm-up (see the top). */
const CALIBRATION_WORKFLOWS = 50;
const CALIBRATION_IN_FLIGHT = 10;
/** In flight = this × the calibrated rate × the expiry (see the top). */
const IN_FLIGHT_FACTOR = 1.2;
const PAID_TIMEOUT_MS = 60_000;
const ADDRESS = { country: 'US', state: 'CA', city: 'Oakland', postalCode: '94607', line1: '1 Broadway' };

const orderPaidSchema = z.object({
  type: z.string(),
  data: z.object({ checkout_id: z.string().nullable() }).loose(),
});

/** Records when each checkout's first `order.paid` arrives; answers every request 200 at once. */
async function startPaidReceiver() {
  const waiters = new Map<string, (at: number) => void>();
  const received: { headers: Record<string, string>; body: string }[] = [];
  let recording = true;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      if (!recording) return;
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(
        Object.entries(req.headers).flatMap(([name, value]) =>
          typeof value === 'string' ? [[name, value]] : [],
        ),
      );
      received.push({ headers, body });
      const event = orderPaidSchema.safeParse(JSON.parse(body));
      const checkoutId =
        event.success && event.data.type === 'order.paid' ? event.data.data.checkout_id : null;
      if (checkoutId) waiters.get(checkoutId)?.(at);
      if (checkoutId) waiters.delete(checkoutId);
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    /** Register before confirming: resolves with the arrival time (performance.now()). */
    paidAt(checkoutId: string): Promise<number> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(checkoutId);
          reject(new Error(`B4: no order.paid for checkout ${checkoutId} in ${PAID_TIMEOUT_MS / 1000} s`));
        }, PAID_TIMEOUT_MS);
        waiters.set(checkoutId, (at) => {
          clearTimeout(timer);
          resolve(at);
        });
      });
    },
    stopRecording() {
      recording = false;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The marker the TypeScript SDK records for a completed local activity. */
const LOCAL_ACTIVITY_MARKER = 'core_local_activity';

export async function runB4(): Promise<BenchmarkResult[]> {
  const settings = settingsSchema.parse(process.env);
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const { db, temporal, taskQueue, api } = await startBenchStack('b4', cleanups);

    // ---- throughput ----
    const shop = await seller(db, api.baseUrl, 'Bench throughput');
    const calibrationExpiry = new Date(Date.now() - 1000);
    const calibrationIds = await seedOpenCheckouts(db, shop, CALIBRATION_WORKFLOWS, calibrationExpiry);
    // Set again right before each start; far ahead until then.
    const measuredIds = await seedOpenCheckouts(
      db,
      shop,
      settings.B4_WORKFLOWS,
      new Date(Date.now() + 3_600_000),
    );

    const seconds = async (work: () => Promise<unknown>) => {
      const started = performance.now();
      await work();
      return (performance.now() - started) / 1000;
    };
    // Started as the API starts a new checkout's workflow: with its expiry.
    const runCheckout = async (checkoutId: string, expiresAt: Date) => {
      const outcome = await temporal.workflow.execute<typeof checkoutWorkflow>('checkoutWorkflow', {
        workflowId: checkoutWorkflowId(checkoutId),
        taskQueue,
        args: [{ checkoutId, expiresAtMs: expiresAt.getTime() }],
      });
      if (outcome !== 'expired') throw new Error(`B4: checkout ${checkoutId} ended ${outcome}`);
    };
    const calibrationRate =
      CALIBRATION_WORKFLOWS /
      (await seconds(() =>
        inLanes(calibrationIds, CALIBRATION_IN_FLIGHT, (id) => runCheckout(id, calibrationExpiry)),
      ));
    const expirySeconds = settings.B4_EXPIRY_MS / 1000;
    const inFlight =
      settings.B4_IN_FLIGHT ?? Math.max(2, Math.ceil(IN_FLIGHT_FACTOR * calibrationRate * expirySeconds));

    // Closed loop: `inFlight` lanes, each starting its next workflow when the previous one ends.
    const runEmpty = (count: number) =>
      inLanes(
        Array.from({ length: count }, () => `bench-empty:${randomUUID()}`),
        inFlight,
        async (workflowId) => {
          await temporal.workflow.execute<typeof emptyWorkflow>('emptyWorkflow', {
            workflowId,
            taskQueue,
            args: [],
          });
        },
      );
    const runCheckouts = (ids: string[]) =>
      inLanes(ids, inFlight, async (checkoutId) => {
        const expiresAt = new Date(Date.now() + settings.B4_EXPIRY_MS);
        await db.checkout.update({ where: { id: checkoutId }, data: { expiresAt } });
        await runCheckout(checkoutId, expiresAt);
      });

    await runEmpty(inFlight);
    const emptySeconds = await seconds(() => runEmpty(settings.B4_WORKFLOWS));
    const checkoutSeconds = await seconds(() => runCheckouts(measuredIds));

    // Proof that each measured workflow took the path described above, from Temporal's own record.
    let timersFired = 0;
    let activities = 0;
    let localActivities = 0;
    // From each workflow's timer to its end: what expiring costs once the time is up.
    const expiryLagMs: number[] = [];
    for (const checkoutId of measuredIds) {
      const history = await temporal.workflow.getHandle(checkoutWorkflowId(checkoutId)).fetchHistory();
      const events = history.events ?? [];
      for (const event of events) {
        if (event.timerFiredEventAttributes) timersFired += 1;
        if (event.activityTaskCompletedEventAttributes) activities += 1;
        if (event.markerRecordedEventAttributes?.markerName === LOCAL_ACTIVITY_MARKER) localActivities += 1;
      }
      const fired = events.find((event) => event.timerFiredEventAttributes);
      const ended = events.find((event) => event.workflowExecutionCompletedEventAttributes);
      if (fired?.eventTime && ended?.eventTime) {
        expiryLagMs.push(epochMs(ended.eventTime) - epochMs(fired.eventTime));
      }
    }
    const expiryLag = latencySummary(expiryLagMs);
    if (timersFired < settings.B4_WORKFLOWS) {
      console.error(
        `B4: only ${timersFired} of ${settings.B4_WORKFLOWS} checkout workflows waited on their timer; the others started after their checkout's expiry: set B4_IN_FLIGHT below ${inFlight}`,
      );
    }
    const checkoutRate = settings.B4_WORKFLOWS / checkoutSeconds;
    // A lane finishes at most one workflow per expiry: near that rate, the timer is the limit.
    const bound = inFlight / expirySeconds;
    if (checkoutRate > 0.9 * bound) {
      console.error(
        `B4: ${checkoutRate.toFixed(1)} checkout workflows/s is near the ${bound.toFixed(1)}/s that ${inFlight} in flight with ${settings.B4_EXPIRY_MS} ms timers allow: set B4_IN_FLIGHT above ${inFlight}`,
      );
    }
    const emptyRate = settings.B4_WORKFLOWS / emptySeconds;

    // ---- latency ----
    await waitUntil('the outbox drained', async () => {
      return (await db.outboxEvent.count({ where: { dispatchedAt: null } })) === 0;
    });
    const receiver = await startPaidReceiver();
    cleanups.push(receiver.stop);
    const store = await seller(db, api.baseUrl, 'Bench latency');
    await store.polar.webhooks.createWebhookEndpoint({
      url: receiver.url,
      format: 'raw',
      secret: SECRET,
      events: ['order.paid'],
    });
    const lanes = settings.B4_CONCURRENCY;
    const checkouts: { id: string; clientSecret: string }[] = [];
    await inLanes(
      Array.from({ length: lanes + settings.B4_CHECKOUTS }, (_, index) => index),
      lanes,
      async () => {
        const { id, clientSecret } = await store.polar.checkouts.create({ products: [store.product.id] });
        checkouts.push({ id, clientSecret });
      },
    );
    // Each checkout's workflow has started and is waiting on its hour-long timer; its
    // `checkout.created` has gone through the dispatcher.
    await waitUntil('the outbox drained', async () => {
      return (await db.outboxEvent.count({ where: { dispatchedAt: null } })) === 0;
    });

    const buyer = new Polar({ serverURL: api.baseUrl });
    const confirmMs: number[] = [];
    const paidMs: number[] = [];
    const confirmAndWait = async (checkout: { id: string; clientSecret: string }, measured: boolean) => {
      const paid = receiver.paidAt(checkout.id);
      const sent = performance.now();
      await buyer.checkouts.clientConfirm({
        clientSecret: checkout.clientSecret,
        checkoutConfirmStripe: {
          customerEmail: `buyer-${checkout.id}@example.test`,
          customerBillingAddress: ADDRESS,
          confirmationTokenId: 'pm_card_visa',
        },
      });
      const confirmed = performance.now();
      const arrived = await paid;
      if (measured) {
        confirmMs.push(confirmed - sent);
        paidMs.push(arrived - confirmed);
      }
    };
    await inLanes(checkouts.slice(0, lanes), lanes, (checkout) => confirmAndWait(checkout, false));
    const measuredCheckouts = checkouts.slice(lanes);
    const latencySeconds = await seconds(() =>
      inLanes(measuredCheckouts, lanes, (checkout) => confirmAndWait(checkout, true)),
    );
    receiver.stopRecording();

    // Every delivery the receiver took for these checkouts must be a genuine, signed order.paid.
    const deliveries = receiver.received.map(({ body, headers }) => validateEvent(body, headers, SECRET));
    if (deliveries.some((event) => event.type !== 'order.paid')) {
      throw new Error('B4: the receiver got something other than order.paid');
    }
    if (deliveries.length !== checkouts.length) {
      throw new Error(`B4: ${deliveries.length} order.paid deliveries for ${checkouts.length} checkouts`);
    }

    const sample = receiver.received[0]!.body;
    const postMs: number[] = [];
    let posted = 0;
    const post = async (measured: boolean) => {
      posted += 1;
      const headers = webhookHeaders({
        id: `bench-${posted}`,
        timestampSeconds: Math.floor(Date.now() / 1000),
        body: sample,
        secret: SECRET,
        apiVersion: '2026-10',
      });
      const sent = performance.now();
      const response = await fetch(receiver.url, {
        method: 'POST',
        headers,
        body: sample,
        redirect: 'manual',
      });
      await response.text();
      if (measured) postMs.push(performance.now() - sent);
      if (response.status !== 200) throw new Error(`B4: the receiver answered ${response.status}`);
    };
    // The same warm-up as the confirmations: one round of every lane, unmeasured.
    await inLanes(
      Array.from({ length: lanes }, () => false),
      lanes,
      post,
    );
    await inLanes(
      Array.from({ length: settings.B4_CHECKOUTS }, () => true),
      lanes,
      post,
    );

    const paid = latencySummary(paidMs);
    const confirm = latencySummary(confirmMs);
    const bare = latencySummary(postMs);
    return [
      {
        benchmark: 'B4',
        description: `${settings.B4_WORKFLOWS} checkout workflows, ${inFlight} in flight (${settings.B4_IN_FLIGHT ? 'B4_IN_FLIGHT' : `1.2 × a calibrated ${calibrationRate.toFixed(1)}/s without timer × expiry`}; each lane starts its next when its last ends), each on its path to expiry as the API starts it: a ${settings.B4_EXPIRY_MS} ms timer until expires_at (set by one UPDATE right before the start, handed to the start), expireCheckout as a local activity; first start to last result. Baseline: as many empty workflows, as many in flight, on the same Temporal dev server and in-process worker (webhook dispatcher running). Nothing subtracted; the timers cap the figure at ${inFlight} / ${settings.B4_EXPIRY_MS} ms = ${bound.toFixed(1)}/s.`,
        figure: {
          name: 'checkout workflows to expiry',
          value: Math.round(checkoutRate * 10) / 10,
          unit: 'workflows/s',
          details: {
            workflows: settings.B4_WORKFLOWS,
            in_flight: inFlight,
            calibration_per_second: Math.round(calibrationRate * 10) / 10,
            seconds: Math.round(checkoutSeconds * 100) / 100,
            expiry_ms: settings.B4_EXPIRY_MS,
            bound_per_second: Math.round(bound * 10) / 10,
            timers_fired: timersFired,
            activities_completed: activities,
            local_activities_completed: localActivities,
            expiry_lag_p50_ms: expiryLag.p50,
            expiry_lag_max_ms: expiryLag.max,
          },
        },
        baseline: {
          name: 'empty workflows',
          value: Math.round(emptyRate * 10) / 10,
          unit: 'workflows/s',
          details: {
            workflows: settings.B4_WORKFLOWS,
            in_flight: inFlight,
            seconds: Math.round(emptySeconds * 100) / 100,
          },
        },
        ratio: Math.round((checkoutRate / emptyRate) * 1000) / 1000,
      },
      {
        benchmark: 'B4-latency',
        description: `${settings.B4_CHECKOUTS} checkouts confirmed through @polar-sh/sdk (sandbox card, ${lanes} in flight, each lane waiting for its order.paid before the next), from the confirm response to the arrival of that checkout's signed order.paid at a loopback receiver (API, worker and receiver in one process; the dispatcher polls the outbox every 200 ms), vs the round trip of a bare signed POST of the same body to the same receiver (${lanes} in flight)`,
        figure: {
          name: 'confirm → order.paid delivered',
          value: paid.p50,
          unit: 'ms (p50)',
          details: {
            p99_ms: paid.p99,
            max_ms: paid.max,
            checkouts: settings.B4_CHECKOUTS,
            per_second: Math.round((settings.B4_CHECKOUTS / latencySeconds) * 10) / 10,
            confirm_p50_ms: confirm.p50,
            confirm_p99_ms: confirm.p99,
          },
        },
        baseline: {
          name: 'bare signed POST round trip',
          value: bare.p50,
          unit: 'ms (p50)',
          details: { p99_ms: bare.p99, max_ms: bare.max, requests: settings.B4_CHECKOUTS },
        },
        ratio: Math.round((paid.p50 / bare.p50) * 10) / 10,
      },
    ];
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}
