import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type pg from 'pg';

/**
 * Counters of work done, recorded where the work happens (the ingest path, webhook attempts,
 * checkouts, renewal tries) and served by each process's `/metrics` (docs/operations.md). They are
 * per process, as Prometheus expects: the API counts what its requests did, the worker what its
 * activities did, and a query sums the instances. Their registry is not prom-client's global one;
 * a process's scrape registry merges it (`Registry.merge`), so the same counters appear once there.
 * Labels are small fixed sets, never an id.
 */
export const workMetrics = new Registry();

export const eventsIngested = new Counter({
  name: 'tollgate_events_ingested_total',
  help: 'Usage events accepted by POST /v1/events/ingest: inserted, or a duplicate of an external_id already ingested.',
  labelNames: ['outcome'] as const,
  registers: [workMetrics],
});

export const eventsRejected = new Counter({
  name: 'tollgate_events_rejected_total',
  help: 'Usage events of ingest requests refused whole (an unknown customer, another organization, a bad timestamp).',
  registers: [workMetrics],
});

export const webhookAttempts = new Counter({
  name: 'tollgate_webhook_deliveries_total',
  help: "HTTP attempts to deliver a webhook event, by the endpoint's format, outcome and whether it was the first attempt of its round.",
  labelNames: ['format', 'outcome', 'attempt'] as const,
  registers: [workMetrics],
});

export const webhookDeliveryLag = new Histogram({
  name: 'tollgate_webhook_delivery_lag_seconds',
  help: "From a webhook event's dispatch to the attempt that delivered it (2xx), by the endpoint's format.",
  labelNames: ['format'] as const,
  buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 21600, 86400],
  registers: [workMetrics],
});

export const checkoutsSucceeded = new Counter({
  name: 'tollgate_checkouts_succeeded_total',
  help: 'Checkouts that became orders (a conversion), by whether the product is a plan.',
  labelNames: ['kind'] as const,
  registers: [workMetrics],
});

export const renewalTries = new Counter({
  name: 'tollgate_renewal_payment_tries_total',
  help: "Tries to collect a subscription's order: the first of a period (the renewal) or a later one (dunning), by outcome.",
  labelNames: ['try', 'outcome'] as const,
  registers: [workMetrics],
});

/** The labels' fixed sets: a value from outside (a stored string) falls back to `other`. */
export function boundedLabel<T extends string>(value: string, allowed: readonly T[]): T | 'other' {
  return (allowed as readonly string[]).includes(value) ? (value as T) : 'other';
}

/** A process's scrape registry: its own metrics, prom-client's process defaults and the work counters. */
export function scrapeRegistry(own: Registry): Registry {
  // Process memory, CPU, event-loop lag, GC: prom-client's defaults, prefixed like ours.
  collectDefaultMetrics({ register: own, prefix: 'tollgate_' });
  return Registry.merge([own, workMetrics]);
}

/**
 * The node-postgres pool beside Prisma (`db.sql`, which Prisma's adapter uses too): connections
 * open, idle, and queries queued for a connection, read at each scrape.
 */
export function registerPoolMetrics(registry: Registry, pool: pg.Pool): void {
  new Gauge({
    name: 'tollgate_db_pool_connections',
    help: 'Connections of the PostgreSQL pool, by state (in_use, idle) and the most it opens (max).',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'max' }, pool.options.max ?? 10);
    },
  });
  new Gauge({
    name: 'tollgate_db_pool_waiting',
    help: 'Queries waiting for a connection of the PostgreSQL pool (all connections busy).',
    registers: [registry],
    collect() {
      this.set(pool.waitingCount);
    },
  });
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Without a token every scrape may read; with one, only `Authorization: Bearer <token>`. */
export function scrapeAuthorized(authorization: string | undefined, token: string | undefined): boolean {
  if (token === undefined) return true;
  const match = /^Bearer (.+)$/i.exec(authorization ?? '');
  return match !== null && sameSecret(match[1]!, token);
}

/**
 * A listener of its own serving `GET /metrics` (the worker's, on `METRICS_PORT`): the process has
 * no HTTP server otherwise. Port 0 picks a free one (tests); `port` of the answer is the one bound.
 */
export async function startMetricsServer(options: {
  registry: Registry;
  port: number;
  host: string;
  token?: string;
}): Promise<{ port: number; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
      return;
    }
    if (!scrapeAuthorized(req.headers.authorization, options.token)) {
      res
        .writeHead(401, { 'Content-Type': 'text/plain', 'WWW-Authenticate': 'Bearer realm="metrics"' })
        .end('unauthorized\n');
      return;
    }
    options.registry.metrics().then(
      (body) => {
        res.writeHead(200, { 'Content-Type': options.registry.contentType, 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      () => res.writeHead(500, { 'Content-Type': 'text/plain' }).end('metrics unavailable\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
