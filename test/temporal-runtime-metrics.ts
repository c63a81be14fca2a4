// Run by temporal/metrics.int.test.ts in a process of its own (the SDK's runtime is made once per
// process): installs the Temporal runtime's Prometheus exporter as the worker does, runs a worker
// on a fresh task queue through one workflow whose first activity fails once (so the task
// latencies and the failure counter exist), and prints what the exporter serves.
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { installTemporalRuntimeMetrics } from '../temporal/metrics.js';

const [address, port, bundle] = process.argv.slice(2) as [string, string, string];
installTemporalRuntimeMetrics('127.0.0.1', Number(port));
const connection = await NativeConnection.connect({ address });
const taskQueue = `runtime-metrics-${randomUUID()}`;
let purges = 0;
const worker = await Worker.create({
  connection,
  namespace: 'default',
  taskQueue,
  workflowBundle: { codePath: bundle },
  // The housekeeping workflow's activities, answered without a database; the first fails once.
  activities: {
    purgeExpiredIdempotencyKeys: async () => {
      purges += 1;
      if (purges === 1) throw new Error('the first try fails, as a flaky step would');
      return { deleted: 0 };
    },
    purgeIdleRateLimitCounters: async () => ({ deleted: 0 }),
  },
});
const clientConnection = await Connection.connect({ address });
const client = new Client({ connection: clientConnection, namespace: 'default' });
let text = '';
await worker.runUntil(async () => {
  await client.workflow.execute('housekeepingWorkflow', {
    taskQueue,
    workflowId: `housekeeping:${randomUUID()}`,
  });
  // The exporter reads the core's meters as they are; give the last task's figures a moment.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
});
await clientConnection.close();
await connection.close();
process.stdout.write(text);
