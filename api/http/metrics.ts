import type { RequestHandler } from 'express';
import { Counter, Histogram, Registry } from 'prom-client';
import type { Db } from '../../infra/db.js';
import { registerPoolMetrics, scrapeAuthorized, scrapeRegistry } from '../../infra/metrics.js';
import { registerOperationalGauges } from '../../domain/metrics/operational.js';

/**
 * The API's Prometheus metrics (docs/operations.md lists them). One registry per app, not
 * prom-client's global one, so that two apps in one process (tests) do not count each other.
 */
export type ApiMetrics = {
  registry: Registry;
  requests: Counter<'operation' | 'method' | 'status_class'>;
  duration: Histogram<'operation' | 'status_class'>;
};

/**
 * With `db`, also its pool's use and the queue gauges read at each scrape (domain/metrics/operational.ts).
 * The work counters (infra/metrics.ts) are the process's, shared by every registry made here.
 */
export function createApiMetrics(options: { db?: Db } = {}): ApiMetrics {
  const own = new Registry();
  const requests = new Counter({
    name: 'tollgate_http_requests_total',
    help: 'HTTP requests answered, by operation (OpenAPI operationId or a fixed group), method and status class.',
    labelNames: ['operation', 'method', 'status_class'] as const,
    registers: [own],
  });
  const duration = new Histogram({
    name: 'tollgate_http_request_duration_seconds',
    help: 'Time from a request arriving to its response being written, by operation and status class.',
    labelNames: ['operation', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [own],
  });
  if (options.db) {
    registerPoolMetrics(own, options.db.sql);
    registerOperationalGauges(own, options.db.sql);
  }
  return { registry: scrapeRegistry(own), requests, duration };
}

/**
 * The `operation` label. A payments API route is its operationId (set on `res.locals` by the
 * OperationRegistry); anything else falls in a fixed group by path, never the raw path, whose ids
 * would make one series per object.
 */
export function operationLabel(path: string, operationId: unknown): string {
  if (typeof operationId === 'string' && /^[A-Za-z0-9_:.]{1,100}$/.test(operationId)) return operationId;
  if (path === '/healthz' || path === '/readyz') return 'health';
  if (path === '/metrics') return 'metrics';
  if (path.startsWith('/api/auth/') || path === '/api/auth') return 'auth';
  if (path.startsWith('/v1/integrations/')) return 'integrations';
  // A /v1 path no operation matched (404, 405 before the route) or an OpenAPI document.
  if (path.startsWith('/v1/') || path === '/v1') return 'v1_other';
  if (path.startsWith('/api/')) return 'api_other';
  return 'web';
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** A method outside the usual ones is `other`: a client picks the method, so it must not grow the labels. */
export function methodLabel(method: string): string {
  return METHODS.has(method) ? method : 'other';
}

export function statusClass(status: number): string {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'other';
}

/**
 * Counts every request when its response finishes (or the client goes away first). Each label
 * set's counter and histogram children are looked up once and kept: the labels are bounded (the
 * registry's operations × methods × status classes), and a kept child skips prom-client's
 * per-call hashing of the label values, which is most of what counting costs a request.
 */
export function recordRequests(metrics: ApiMetrics): RequestHandler {
  const children = new Map<
    string,
    {
      requests: ReturnType<ApiMetrics['requests']['labels']>;
      duration: ReturnType<ApiMetrics['duration']['labels']>;
    }
  >();
  const childrenOf = (operation: string, method: string, status: string) => {
    const key = `${operation} ${method} ${status}`;
    let found = children.get(key);
    if (!found) {
      found = {
        requests: metrics.requests.labels({ operation, method, status_class: status }),
        duration: metrics.duration.labels({ operation, status_class: status }),
      };
      children.set(key, found);
    }
    return found;
  };
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    let recorded = false;
    const record = () => {
      if (recorded) return;
      recorded = true;
      // req.originalUrl: routers mounted at a prefix rewrite req.path.
      const path = req.originalUrl.split('?')[0] ?? '';
      const operation = operationLabel(path, res.locals['operationId']);
      const status = statusClass(res.statusCode);
      const counted = childrenOf(operation, methodLabel(req.method), status);
      counted.requests.inc();
      counted.duration.observe(Number(process.hrtime.bigint() - started) / 1e9);
    };
    res.on('finish', record);
    res.on('close', record);
    next();
  };
}

/**
 * `GET /metrics` in Prometheus' text format. With a token, a scrape without `Authorization: Bearer
 * <token>` is a 401 and learns nothing; without one the endpoint is open, for a listener that only
 * the scraper's network reaches.
 */
export function metricsHandler(metrics: ApiMetrics, token: string | undefined): RequestHandler {
  return async (req, res) => {
    if (!scrapeAuthorized(req.get('authorization'), token)) {
      res
        .set('WWW-Authenticate', 'Bearer realm="metrics"')
        .status(401)
        .type('text/plain')
        .send('unauthorized\n');
      return;
    }
    const body = await metrics.registry.metrics();
    res.set('Cache-Control', 'no-store').type(metrics.registry.contentType).send(body);
  };
}
