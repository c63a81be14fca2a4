import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { requireTestEnv } from '../test/env.js';
import { TEMPORAL_SDK_METRICS } from '../observability/temporal-sdk-metrics.js';
import { parseScrape } from '../test/prometheus.js';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("the Temporal SDK's Prometheus exporter (TEMPORAL_METRICS_PORT)", () => {
  it("serves the worker runtime's own metrics in Prometheus' format", async () => {
    const root = path.resolve(import.meta.dirname, '..');
    const port = await freePort();
    const text = await new Promise<string>((resolve, reject) => {
      execFile(
        path.join(root, 'node_modules', '.bin', 'tsx'),
        [
          'test/temporal-runtime-metrics.ts',
          requireTestEnv('temporalAddress'),
          String(port),
          requireTestEnv('workflowBundle'),
        ],
        { cwd: root, timeout: 60_000 },
        (error, stdout, stderr) =>
          error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
      );
    });
    const scraped = parseScrape(text);
    const names = [...scraped.families.keys()];
    expect(names.filter((name) => name.startsWith('temporal_')).length).toBeGreaterThan(3);
    expect(names).toContain('temporal_num_pollers');
    expect(names.some((name) => name.startsWith('temporal_worker_task_slots'))).toBe(true);
    // Every series the dashboard and alert rules may read (a histogram's as its three series).
    const series = new Set(
      names.flatMap((name) =>
        scraped.families.get(name)?.type === 'HISTOGRAM'
          ? [`${name}_bucket`, `${name}_sum`, `${name}_count`]
          : [name],
      ),
    );
    expect(TEMPORAL_SDK_METRICS.filter((name) => !series.has(name))).toEqual([]);
  }, 90_000);
});
