// The observability profile of docker-compose.yml (docs/operations.md, "The observability
// profile") has no runtime of its own in the tests: this file checks what would break it silently —
// a PromQL typo, a metric renamed in the code but not in a rule or panel, a port or a mount that
// no longer matches the compose file.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parser } from '@prometheus-io/lezer-promql';
import { Histogram, Summary, type Registry } from 'prom-client';
import { parse } from 'yaml';
import { createApiMetrics } from '../api/http/metrics.js';
import type { Db } from '../infra/db.js';
import { createWorkerMetrics } from '../temporal/metrics.js';
import { TEMPORAL_SDK_METRICS } from './temporal-sdk-metrics.js';

const projectRoot = path.resolve(import.meta.dirname, '..');
const read = (file: string) => readFileSync(path.join(projectRoot, file), 'utf8');
const readYaml = (file: string): unknown => parse(read(file));

/** Series Prometheus writes itself for every target. */
const PROMETHEUS_SERIES = ['up'];

/** The series names a registry serves: a histogram is its buckets, sum and count; a summary its quantiles, sum and count. */
function seriesNames(registry: Registry): string[] {
  return registry.getMetricsAsArray().flatMap((metric) => {
    const { name } = metric;
    if (metric instanceof Histogram) return [`${name}_bucket`, `${name}_sum`, `${name}_count`];
    if (metric instanceof Summary) return [name, `${name}_sum`, `${name}_count`];
    return [name];
  });
}

// Registering gauges reads nothing: the pool and the SQL client are only used when scraped.
const unconnectedDb = { sql: {} } as unknown as Db;
const servedByTollgate = new Set([
  ...seriesNames(createApiMetrics({ db: unconnectedDb }).registry),
  ...seriesNames(createWorkerMetrics(unconnectedDb)),
]);
const knownMetrics = new Set([...servedByTollgate, ...TEMPORAL_SDK_METRICS, ...PROMETHEUS_SERIES]);

/** Prometheus' own grammar: the syntax errors of an expression and the metric names it selects. */
function analysePromql(expr: string): { errors: string[]; metrics: string[] } {
  const errors: string[] = [];
  const metrics: string[] = [];
  parser.parse(expr).iterate({
    enter(node) {
      if (node.type.isError)
        errors.push(`syntax error at ${node.from}: ${expr.slice(node.from, node.from + 20)}`);
      if (node.name === 'Identifier' && node.node.parent?.name === 'VectorSelector') {
        metrics.push(expr.slice(node.from, node.to));
      }
    },
  });
  return { errors, metrics };
}

/** Grafana replaces its interval variables before Prometheus sees a query. */
function withGrafanaVariables(expr: string): string {
  return expr.replace(/\$__(rate_interval|interval|range)\b/g, '5m');
}

type Compose = {
  services: Record<
    string,
    {
      image?: string;
      profiles?: string[];
      environment?: Record<string, string> | string;
      volumes?: string[];
      secrets?: string[];
    }
  >;
  secrets: Record<string, { environment?: string; file?: string }>;
};
type AlertRule = {
  alert: string;
  expr: string;
  for?: string;
  labels?: { severity?: string };
  annotations?: { summary?: string; description?: string };
};
type ScrapeConfig = {
  job_name: string;
  authorization?: { type: string; credentials_file: string };
  dns_sd_configs?: { names: string[]; port: number }[];
};
type Panel = {
  id: number;
  type: string;
  title: string;
  datasource?: { uid: string };
  targets?: { expr: string; datasource?: { uid: string } }[];
};

const compose = readYaml('docker-compose.yml') as Compose;
const alertRules = (
  readYaml('observability/prometheus/alerts.yml') as { groups: { rules: AlertRule[] }[] }
).groups.flatMap((group) => group.rules);
const prometheus = readYaml('observability/prometheus/prometheus.yml') as {
  rule_files: string[];
  scrape_configs: ScrapeConfig[];
};
const dashboard = JSON.parse(read('observability/grafana/dashboards/tollgate.json')) as {
  uid: string;
  schemaVersion: number;
  panels: Panel[];
};
const datasources = (
  readYaml('observability/grafana/provisioning/datasources/datasources.yml') as {
    datasources: { uid: string; type: string }[];
  }
).datasources;
const panelQueries = dashboard.panels.flatMap((panel) =>
  (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: withGrafanaVariables(target.expr) })),
);

const OBSERVABILITY_SERVICES = ['prometheus', 'grafana', 'otel-collector', 'jaeger'];

/** A compose value with `${VAR:-default}` as plain `docker compose up` sees it. */
function composeDefault(value: string | undefined): string | undefined {
  return value?.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');
}

function environmentOf(service: string): Record<string, string> {
  const environment = compose.services[service]?.environment;
  if (typeof environment !== 'object') throw new Error(`${service} has no environment map`);
  return environment;
}

function scrapeConfig(job: string): ScrapeConfig {
  const config = prometheus.scrape_configs.find((scrape) => scrape.job_name === job);
  if (!config) throw new Error(`no scrape job ${job}`);
  return config;
}

describe('the PromQL checker', () => {
  it('finds syntax errors and the metric names an expression selects', () => {
    expect(analysePromql('sum(rate(tollgate_http_requests_total[5m])').errors).not.toEqual([]);
    expect(
      analysePromql('histogram_quantile(0.99, sum by (le) (rate(a_bucket{x="y"}[5m]))) > on () b offset 1h'),
    ).toEqual({ errors: [], metrics: ['a_bucket', 'b'] });
  });

  it('knows the names Tollgate serves, with the prefix of the process metrics and the series of a histogram', () => {
    expect([...servedByTollgate]).toEqual(
      expect.arrayContaining([
        'tollgate_http_requests_total',
        'tollgate_http_request_duration_seconds_bucket',
        'tollgate_outbox_backlog',
        'tollgate_webhook_deliveries_total',
        'tollgate_db_pool_waiting',
        'tollgate_nodejs_eventloop_lag_p99_seconds',
        'tollgate_process_resident_memory_bytes',
      ]),
    );
  });
});

describe('the alert rules (observability/prometheus/alerts.yml)', () => {
  it.each(alertRules)('$alert parses and selects only served metrics', (rule) => {
    const { errors, metrics } = analysePromql(rule.expr);
    expect(errors).toEqual([]);
    expect(metrics.length).toBeGreaterThan(0);
    expect(metrics.filter((name) => !knownMetrics.has(name))).toEqual([]);
  });

  it('each waits a while, has a severity and says what is wrong and what to do', () => {
    const incomplete = alertRules.filter(
      (rule) =>
        !/^\d+[smh]$/.test(rule.for ?? '') ||
        !['critical', 'warning', 'info'].includes(rule.labels?.severity ?? '') ||
        !rule.annotations?.summary ||
        !rule.annotations.description,
    );
    expect(incomplete.map((rule) => rule.alert)).toEqual([]);
    expect(new Set(alertRules.map((rule) => rule.alert)).size).toBe(alertRules.length);
  });

  it('are the file Prometheus loads', () => {
    const mounted = compose.services['prometheus']?.volumes ?? [];
    expect(mounted).toContain(`./observability/prometheus/alerts.yml:${prometheus.rule_files[0]}:ro`);
  });
});

describe('the dashboard (observability/grafana/dashboards/tollgate.json)', () => {
  it.each(panelQueries)('$panel: $expr parses and selects only served metrics', ({ expr }) => {
    const { errors, metrics } = analysePromql(expr);
    expect(errors).toEqual([]);
    expect(metrics.filter((name) => !knownMetrics.has(name))).toEqual([]);
  });

  it('has a uid, a schema version and unique panel ids', () => {
    expect(dashboard.uid).toBe('tollgate');
    expect(dashboard.schemaVersion).toBeGreaterThan(0);
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('names only provisioned data sources, by uid', () => {
    const uids = new Set(datasources.map((datasource) => datasource.uid));
    // Rows only group panels: they hold no query.
    const panels = dashboard.panels.filter((panel) => panel.type !== 'row');
    expect(panels.filter((panel) => !uids.has(panel.datasource?.uid ?? ''))).toEqual([]);
    const targets = panels.flatMap((panel) => panel.targets ?? []);
    expect(targets.filter((target) => !uids.has(target.datasource?.uid ?? ''))).toEqual([]);
    expect(datasources.map((datasource) => datasource.type).sort()).toEqual(['jaeger', 'prometheus']);
  });
});

describe('the compose profile', () => {
  it('adds its services under the observability profile only, with pinned images', () => {
    for (const service of OBSERVABILITY_SERVICES) {
      expect({ service, profiles: compose.services[service]?.profiles }).toEqual({
        service,
        profiles: ['observability'],
      });
      expect(compose.services[service]?.image).toMatch(/^[a-z0-9./-]+:v?\d+\.\d+\.\d+$/);
    }
    // Plain `docker compose up` starts every other service, as before.
    const profiled = Object.entries(compose.services).filter(([, service]) => service.profiles !== undefined);
    expect(profiled.map(([name]) => name).sort()).toEqual([...OBSERVABILITY_SERVICES].sort());
  });

  it('mounts only files and folders that exist', () => {
    const missing = Object.values(compose.services)
      .flatMap((service) => service.volumes ?? [])
      .map((volume) => volume.split(':')[0] ?? '')
      .filter((source) => source.startsWith('./') && !existsSync(path.join(projectRoot, source)));
    expect(missing).toEqual([]);
  });

  it("scrapes the ports the compose file gives the api and the worker, by the services' names", () => {
    const api = environmentOf('api');
    const worker = environmentOf('worker');
    expect(scrapeConfig('tollgate-api').dns_sd_configs).toEqual([
      { names: ['api'], type: 'A', port: Number(composeDefault(api['PORT'])) },
    ]);
    expect(scrapeConfig('tollgate-worker').dns_sd_configs).toEqual([
      { names: ['worker'], type: 'A', port: Number(composeDefault(worker['METRICS_PORT'])) },
    ]);
    expect(scrapeConfig('temporal-sdk').dns_sd_configs).toEqual([
      { names: ['worker'], type: 'A', port: Number(composeDefault(worker['TEMPORAL_METRICS_PORT'])) },
    ]);
  });

  it('sends METRICS_TOKEN to the api and the worker, from a secret, and none to the SDK exporter', () => {
    expect(compose.secrets['metrics_token']).toEqual({ environment: 'METRICS_TOKEN' });
    expect(compose.services['prometheus']?.secrets).toEqual(['metrics_token']);
    const bearer = { type: 'Bearer', credentials_file: '/run/secrets/metrics_token' };
    expect(scrapeConfig('tollgate-api').authorization).toEqual(bearer);
    expect(scrapeConfig('tollgate-worker').authorization).toEqual(bearer);
    expect(scrapeConfig('temporal-sdk').authorization).toBeUndefined();
  });

  it('sends traces from the collector to Jaeger over OTLP/gRPC', () => {
    const collector = readYaml('observability/otel-collector.yml') as {
      receivers: { otlp: { protocols: { http: { endpoint: string } } } };
      exporters: Record<string, { endpoint: string }>;
    };
    expect(collector.receivers.otlp.protocols.http.endpoint).toBe('0.0.0.0:4318');
    expect(collector.exporters['otlp/jaeger']?.endpoint).toBe('jaeger:4317');
  });
});
