// B7's measured worker: the deployment's worker (createTollgateWorker through createBenchWorker, the
// production workflow bundle) alone in a process of its own, with a workflow cache of
// B7_MAX_CACHED_WORKFLOWS. Started by bench/b7.ts with --expose-gc and `--require
// bench/b7-thread-probe.cjs`; prints `listening on <url>` once the worker polls its task queue.
//   GET /status  the worker's cache and in-flight activations, nothing collected (cheap to poll)
//   GET /memory  the same, plus RSS and V8 heaps after forced collections: each workflow thread's
//                (through the probe; tsx's loader thread is left out) first, then this main thread's
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BroadcastChannel } from 'node:worker_threads';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { z } from 'zod';
import { createDb } from '../infra/db.js';
import { temporalStarters } from '../temporal/starters.js';
import { taskQueues } from '../temporal/task-queues.js';
import { createBenchWorker } from './bench-worker.js';

const env = z
  .object({
    DATABASE_URL: z.string().min(1),
    TEMPORAL_ADDRESS: z.string().min(1),
    B7_TASK_QUEUE_PREFIX: z.string().min(1),
    B7_MAX_CACHED_WORKFLOWS: z.coerce.number().int().positive(),
    /** The production workflow bundle, built by the bench (as `npm run build` writes it for a deployment). */
    B7_WORKFLOW_BUNDLE: z.string().min(1),
  })
  .parse(process.env);

const collect = globalThis.gc;
if (!collect) throw new Error('b7-worker: run with --expose-gc');

/** How long the workflow threads have to answer a measurement. */
const THREAD_ANSWER_MS = 30_000;
const POLLING_TIMEOUT_MS = 60_000;

const threadHeapSchema = z.object({
  threadId: z.number(),
  contexts: z.number(),
  heapUsed: z.number(),
  heapTotal: z.number(),
  external: z.number(),
});
type ThreadHeap = z.infer<typeof threadHeapSchema>;
const probeAnswerSchema = threadHeapSchema.extend({ type: z.literal('measured'), id: z.number() });

const channel = new BroadcastChannel('b7-memory');
const answering = new Map<number, (heap: ThreadHeap) => void>();
channel.onmessage = (event) => {
  const answer = probeAnswerSchema.safeParse(event.data);
  if (answer.success) answering.get(answer.data.id)?.(answer.data);
};

let measurements = 0;
/** Each of the worker's `threadCount` workflow threads' heap, after its own forced collections. */
function measureWorkflowThreads(threadCount: number): Promise<ThreadHeap[]> {
  const id = (measurements += 1);
  return new Promise((resolve, reject) => {
    const answers = new Map<number, ThreadHeap>();
    const timer = setTimeout(() => {
      answering.delete(id);
      reject(new Error(`b7-worker: ${answers.size} of ${threadCount} workflow threads answered`));
    }, THREAD_ANSWER_MS);
    answering.set(id, (heap) => {
      // The workflow sandbox is a second context; a thread with only its own is not a workflow thread.
      if (heap.contexts < 2) return;
      answers.set(heap.threadId, heap);
      if (answers.size < threadCount) return;
      clearTimeout(timer);
      answering.delete(id);
      resolve([...answers.values()]);
    });
    channel.postMessage({ type: 'measure', id });
  });
}

const db = createDb(env.DATABASE_URL);
const connection = await NativeConnection.connect({ address: env.TEMPORAL_ADDRESS });
const clientConnection = await Connection.connect({ address: env.TEMPORAL_ADDRESS });
const temporal = new Client({ connection: clientConnection });
const worker = await createBenchWorker({
  connection,
  db,
  workflows: temporalStarters(temporal, taskQueues(env.B7_TASK_QUEUE_PREFIX).main),
  taskQueuePrefix: env.B7_TASK_QUEUE_PREFIX,
  publicUrl: 'http://127.0.0.1',
  workflowBundle: { codePath: env.B7_WORKFLOW_BUNDLE },
  maxCachedWorkflows: env.B7_MAX_CACHED_WORKFLOWS,
});
const run = worker.run();

function status() {
  const current = worker.getStatus();
  return {
    cachedWorkflows: current.numCachedWorkflows,
    inFlightActivations: current.numInFlightWorkflowActivations,
    pollerState: current.workflowPollerState,
    maxCachedWorkflows: worker.options.maxCachedWorkflows,
  };
}

async function memory() {
  const threadHeaps = await measureWorkflowThreads(worker.options.workflowThreadPoolSize);
  collect!();
  collect!();
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  return { ...status(), rss, heapUsed, heapTotal, external, arrayBuffers, threads: threadHeaps };
}

const server = createServer((req, res) => {
  const answer = req.url === '/memory' ? memory() : req.url === '/status' ? Promise.resolve(status()) : null;
  if (!answer) {
    res.writeHead(404).end();
    return;
  }
  answer.then(
    (body) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
    (error: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error)),
  );
});

const pollingBy = Date.now() + POLLING_TIMEOUT_MS;
while (worker.getStatus().workflowPollerState !== 'POLLING') {
  if (Date.now() > pollingBy) throw new Error('b7-worker: the worker did not start polling');
  await new Promise((resolve) => setTimeout(resolve, 50));
}
server.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});

// The Temporal runtime turns SIGTERM into the worker's shutdown (every cached run evicted); then
// run() settles and everything else closes.
let failed = false;
try {
  await run;
} catch (error) {
  failed = true;
  console.error('b7-worker:', error);
} finally {
  server.closeAllConnections();
  server.close();
  channel.close();
  await connection.close();
  await clientConnection.close();
  await db.$disconnect();
}
process.exit(failed ? 1 : 0);
