import { Registry } from 'prom-client';
import { Runtime } from '@temporalio/worker';
import type { Db } from '../infra/db.js';
import { registerPoolMetrics, scrapeRegistry } from '../infra/metrics.js';
import { registerOperationalGauges } from '../domain/metrics/operational.js';

/**
 * The worker's scrape registry (served on `METRICS_PORT`): Node's process metrics, its pool, the
 * queue gauges and the work its activities counted (webhook attempts, conversions, renewal tries).
 */
export function createWorkerMetrics(db: Db): Registry {
  const own = new Registry();
  registerPoolMetrics(own, db.sql);
  registerOperationalGauges(own, db.sql);
  return scrapeRegistry(own);
}

/**
 * The Temporal SDK's own metrics (task latencies, slots, sticky cache, polls), served by its Rust
 * core's Prometheus exporter on `host:port`, which has no token: bind it where only the scraper
 * reaches. Must run before the process's first Temporal connection (the runtime is made once).
 */
export function installTemporalRuntimeMetrics(host: string, port: number): void {
  Runtime.install({
    telemetryOptions: {
      metrics: { prometheus: { bindAddress: `${host.includes(':') ? `[${host}]` : host}:${port}` } },
    },
  });
}
