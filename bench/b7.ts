// B7: worker memory per cached open checkout workflow (10,000 open checkouts), vs the idle worker;
// the goal is at most 1 MB each.
//
// The services of bench/stack.ts (PostgreSQL with a fresh database, a Temporal dev server), and an
// API in this process only to create the seller's product as a seller does. The measured worker is
// the deployment's (createTollgateWorker with the production workflow bundle, built here and handed
// over as a file as `npm run build` hands it to a deployment) in a process of its own
// (bench/b7-worker.ts), the only worker on its task queue, so that its memory is its own. Its
// workflow cache is set to hold every open workflow (maxCachedWorkflows = 1.2 × N).
//
// Method. The worker answers GET /memory with its RSS and V8 heaps after forced collections (it
// runs with --expose-gc). The workflows run in the SDK's workflow thread, whose heap
// process.memoryUsage() in the main thread does not count: bench/b7-thread-probe.cjs, preloaded into
// every thread, collects twice there and reports it (tsx's loader thread, which a deployment does
// not have, is left out); then the main thread collects twice and reads process.memoryUsage().
// Each reading is the median of three, a second apart, after a 5 s settle.
// - Baseline: the idle worker: started, polling, no workflow in its cache (checked).
// - Figure: N open checkouts seeded with an expiry 2 hours ahead, then N `checkout:<id>` workflows
//   started as the API starts them (CheckoutWorkflows.start with the checkout's expiry, the
//   deployment's search attributes and memo), B7_IN_FLIGHT starts at a time. Each runs its first
//   workflow task and waits on its expiry timer. Read once the worker reports N runs in its cache
//   and no activation in flight, Temporal's visibility counts N running, and a sample of histories
//   shows a completed first task, a timer started and no end.
// Per workflow = (figure − baseline) / N, for RSS (the headline: everything the process holds,
// Temporal Core's Rust-side cache included) and for the V8 heaps (main thread + workflow threads).
// MB = 10^6 bytes. Ratio = RSS per workflow / the 1 MB goal: lower is better, at most 1 meets it.
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { checkoutWorkflowId } from '../domain/checkouts/rules.js';
import { bundleWorkflows } from '../temporal/bundle.js';
import { operatorContext } from '../temporal/entity-directory.js';
import { temporalStarters } from '../temporal/starters.js';
import { startServerProcess, type BenchmarkResult } from './lib.js';
import { inLanes, seedOpenCheckouts, seller, startApi, startBenchServices, waitUntil } from './stack.js';

const settingsSchema = z.object({
  /** Open checkout workflows held in the worker's cache at the figure. */
  B7_WORKFLOWS: z.coerce.number().int().positive().default(10_000),
  /** Workflow starts in flight at once while filling the cache. */
  B7_IN_FLIGHT: z.coerce.number().int().positive().default(50),
});

const GOAL_MB = 1;
const MB = 1_000_000;
/** The cache holds every open workflow, with room to spare: none is ever evicted for space. */
const CACHE_HEADROOM = 1.2;
/** Far beyond the run: no timer fires while the bench measures. */
const EXPIRY_MS = 2 * 60 * 60 * 1000;
/** Before each reading, for what the worker was doing (polls, acknowledgements) to quiet down. */
const SETTLE_MS = 5000;
const SAMPLES = 3;
const SAMPLE_INTERVAL_MS = 1000;
/** Histories read to confirm what the counts say. */
const HISTORY_SAMPLE = 20;
const FIRST_TASKS_TIMEOUT_MS = 20 * 60_000;

const statusSchema = z.object({
  cachedWorkflows: z.number(),
  inFlightActivations: z.number(),
  pollerState: z.string(),
  maxCachedWorkflows: z.number(),
});
const memorySchema = statusSchema.extend({
  rss: z.number(),
  heapUsed: z.number(),
  heapTotal: z.number(),
  external: z.number(),
  arrayBuffers: z.number(),
  threads: z.array(z.object({ threadId: z.number(), heapUsed: z.number(), heapTotal: z.number() })),
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const megabytes = (bytes: number, decimals = 1) => Number((bytes / MB).toFixed(decimals));

export async function runB7(): Promise<BenchmarkResult> {
  const settings = settingsSchema.parse(process.env);
  const count = settings.B7_WORKFLOWS;
  const began = performance.now();
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const { databaseUrl, temporalAddress, db, temporal, taskQueuePrefix, taskQueue } =
      await startBenchServices('b7', cleanups);
    const api = await startApi(db, temporal, taskQueue, temporalStarters(temporal, taskQueue));
    cleanups.push(api.stop);
    const shop = await seller(db, api.baseUrl, 'Bench worker memory');
    const checkoutIds = await seedOpenCheckouts(db, shop, count, new Date(Date.now() + EXPIRY_MS));
    // As a deployment's API starts them: with the search attributes and memo operators see.
    const starters = temporalStarters(temporal, taskQueue, operatorContext(db, api.baseUrl));

    const bundlePath = path.join(os.tmpdir(), `tollgate-bench-b7-${randomUUID()}.js`);
    await writeFile(bundlePath, (await bundleWorkflows()).code);
    cleanups.push(() => rm(bundlePath, { force: true }));
    const maxCachedWorkflows = Math.ceil(count * CACHE_HEADROOM);
    const worker = await startServerProcess(
      'bench/b7-worker.ts',
      [],
      {
        DATABASE_URL: databaseUrl,
        TEMPORAL_ADDRESS: temporalAddress,
        B7_TASK_QUEUE_PREFIX: taskQueuePrefix,
        B7_MAX_CACHED_WORKFLOWS: String(maxCachedWorkflows),
        B7_WORKFLOW_BUNDLE: bundlePath,
      },
      ['--expose-gc', '--require', fileURLToPath(new URL('./b7-thread-probe.cjs', import.meta.url))],
    );
    cleanups.push(worker.stop);

    const ask = async <T>(route: string, schema: z.ZodType<T>): Promise<T> => {
      const response = await fetch(`${worker.url}${route}`);
      if (!response.ok)
        throw new Error(`B7: the worker answered ${response.status}: ${await response.text()}`);
      return schema.parse(await response.json());
    };
    const measure = async () => {
      await sleep(SETTLE_MS);
      const samples: z.infer<typeof memorySchema>[] = [];
      for (let sample = 0; sample < SAMPLES; sample += 1) {
        if (sample > 0) await sleep(SAMPLE_INTERVAL_MS);
        samples.push(await ask('/memory', memorySchema));
      }
      const threadHeap = (sample: (typeof samples)[number]) =>
        sample.threads.reduce((sum, thread) => sum + thread.heapUsed, 0);
      const rss = samples.map((sample) => sample.rss);
      return {
        rss: median(rss),
        rssSpread: Math.max(...rss) - Math.min(...rss),
        mainHeap: median(samples.map((sample) => sample.heapUsed)),
        threadHeap: median(samples.map(threadHeap)),
        heap: median(samples.map((sample) => sample.heapUsed + threadHeap(sample))),
        threads: samples.at(-1)!.threads.length,
        cachedWorkflows: samples.at(-1)!.cachedWorkflows,
        maxCachedWorkflows: samples.at(-1)!.maxCachedWorkflows,
      };
    };

    // ---- baseline: the idle worker ----
    const idle = await measure();
    if (idle.cachedWorkflows !== 0) {
      throw new Error(`B7: the idle worker holds ${idle.cachedWorkflows} workflows in its cache`);
    }
    if (idle.maxCachedWorkflows !== maxCachedWorkflows) {
      throw new Error(`B7: the worker's cache holds ${idle.maxCachedWorkflows}, not ${maxCachedWorkflows}`);
    }

    // ---- figure: N open checkout workflows in the cache ----
    const startsBegan = performance.now();
    await inLanes(checkoutIds, settings.B7_IN_FLIGHT, async (checkoutId) => {
      await starters.checkouts.start(checkoutId, { expiresAt: new Date(Date.now() + EXPIRY_MS) });
    });
    const startSeconds = (performance.now() - startsBegan) / 1000;
    await waitUntil(
      `${count} workflows cached in the worker with no activation in flight`,
      async () => {
        const status = await ask('/status', statusSchema);
        return status.cachedWorkflows === count && status.inFlightActivations === 0;
      },
      FIRST_TASKS_TIMEOUT_MS,
    );
    const firstTasksSeconds = (performance.now() - startsBegan) / 1000;
    const runningQuery = `WorkflowType = "checkoutWorkflow" AND ExecutionStatus = "Running"`;
    let running = 0;
    // Visibility is eventually consistent: it may trail the worker by a moment.
    await waitUntil(`${count} checkout workflows running in visibility`, async () => {
      running = (await temporal.workflow.count(runningQuery)).count;
      return running === count;
    });
    let sampledWaiting = 0;
    const sampled = Array.from(
      { length: Math.min(HISTORY_SAMPLE, count) },
      (_, index) => checkoutIds[Math.floor((index * count) / Math.min(HISTORY_SAMPLE, count))]!,
    );
    for (const checkoutId of sampled) {
      const history = await temporal.workflow.getHandle(checkoutWorkflowId(checkoutId)).fetchHistory();
      const events = history.events ?? [];
      const has = (attribute: keyof (typeof events)[number]) => events.some((event) => event[attribute]);
      if (
        has('workflowTaskCompletedEventAttributes') &&
        has('timerStartedEventAttributes') &&
        !has('workflowExecutionCompletedEventAttributes') &&
        !has('workflowExecutionFailedEventAttributes')
      ) {
        sampledWaiting += 1;
      }
    }
    if (sampledWaiting !== sampled.length) {
      throw new Error(
        `B7: ${sampled.length - sampledWaiting} of ${sampled.length} sampled workflows are not waiting on their timer`,
      );
    }
    const loaded = await measure();
    if (loaded.cachedWorkflows !== count) {
      throw new Error(`B7: ${loaded.cachedWorkflows} workflows in the cache at the figure, not ${count}`);
    }

    const rssPerWorkflow = (loaded.rss - idle.rss) / count / MB;
    const heapPerWorkflow = (loaded.heap - idle.heap) / count / MB;
    const round3 = (value: number) => Math.round(value * 1000) / 1000;
    return {
      benchmark: 'B7',
      description: `Memory of the deployment's worker (own process, production bundle, maxCachedWorkflows ${maxCachedWorkflows}) per cached open checkout workflow: ${count} checkout workflows started as the API starts them (expiry 2 h ahead, ${settings.B7_IN_FLIGHT} starts in flight), each past its first task and waiting on its timer (worker cache count, visibility and ${sampled.length} sampled histories checked), vs the same worker idle (polling, nothing cached). Both read after forced GC in the main and workflow threads, median of ${SAMPLES}. Figure = (RSS loaded − RSS idle) / ${count}, in MB (10^6 bytes); details give the same for the V8 heaps. Ratio = RSS per workflow / the ${GOAL_MB} MB goal: lower is better, ≤ 1 meets it`,
      figure: {
        name: 'worker RSS per cached open checkout workflow',
        value: round3(rssPerWorkflow),
        unit: 'MB',
        details: {
          workflows: count,
          heap_per_workflow_mb: round3(heapPerWorkflow),
          rss_mb: megabytes(loaded.rss),
          heap_mb: megabytes(loaded.heap),
          main_heap_mb: megabytes(loaded.mainHeap),
          workflow_thread_heap_mb: megabytes(loaded.threadHeap),
          rss_sample_spread_mb: megabytes(loaded.rssSpread),
          cached_workflows: loaded.cachedWorkflows,
          running_in_visibility: running,
          sampled_histories_waiting: sampledWaiting,
          start_seconds: Math.round(startSeconds * 10) / 10,
          first_tasks_seconds: Math.round(firstTasksSeconds * 10) / 10,
          max_cached_workflows: maxCachedWorkflows,
          starts_in_flight: settings.B7_IN_FLIGHT,
          run_seconds: Math.round((performance.now() - began) / 1000),
        },
      },
      baseline: {
        name: 'idle worker RSS',
        value: megabytes(idle.rss),
        unit: 'MB',
        details: {
          heap_mb: megabytes(idle.heap),
          main_heap_mb: megabytes(idle.mainHeap),
          workflow_thread_heap_mb: megabytes(idle.threadHeap),
          workflow_threads: idle.threads,
          rss_sample_spread_mb: megabytes(idle.rssSpread),
        },
      },
      ratio: round3(rssPerWorkflow / GOAL_MB),
    };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}
