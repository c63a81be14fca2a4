// Run by temporal/metrics.int.test.ts in a process of its own (the SDK's runtime is made once per
// process): installs the Temporal runtime's Prometheus exporter as the worker does, runs a worker
// on a fresh task queue for a moment, and prints what the exporter serves.
import { randomUUID } from 'node:crypto';
import { NativeConnection, Worker } from '@temporalio/worker';
import { installTemporalRuntimeMetrics } from '../temporal/metrics.js';

const [address, port, bundle] = process.argv.slice(2) as [string, string, string];
installTemporalRuntimeMetrics('127.0.0.1', Number(port));
const connection = await NativeConnection.connect({ address });
const worker = await Worker.create({
  connection,
  namespace: 'default',
  taskQueue: `runtime-metrics-${randomUUID()}`,
  workflowBundle: { codePath: bundle },
  activities: {},
});
let text = '';
await worker.runUntil(async () => {
  // The pollers start, and the slots and requests are counted, within the first poll.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
});
await connection.close();
process.stdout.write(text);
