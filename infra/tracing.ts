// OpenTelemetry tracing (docs/operations.md, "Traces"): off unless OTEL_EXPORTER_OTLP_ENDPOINT is
// set. Started by the processes' entry files (api/main.ts, temporal/main.ts) before the
// application's modules load, so the instrumentations patch them as they are imported.
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations, type Instrumentation } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { PrismaInstrumentation } from '@prisma/instrumentation';
import { setProcessTracing, type Tracing } from './trace-context.js';

export type { Tracing };

/** Paths a scraper or a load balancer calls every few seconds: a span each would drown the traces. */
const UNTRACED_PATHS = new Set(['/metrics', '/healthz', '/readyz']);

/** HTTP in and out, node-postgres, fetch (undici: Stripe's SDK, webhooks), Prisma's own spans. */
export function tracingInstrumentations(): Instrumentation[] {
  return [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.has((request.url ?? '').split('?')[0] ?? ''),
    }),
    new UndiciInstrumentation(),
    // A statement's text, never its values: parameters carry buyers' emails and addresses.
    new PgInstrumentation({ enhancedDatabaseReporting: false }),
    new PrismaInstrumentation(),
  ];
}

/**
 * The process's tracer provider, registered globally (W3C trace context, AsyncLocalStorage), with
 * the instrumentations enabled. `spanProcessor` defaults to a batch of OTLP/HTTP JSON exports to
 * `${endpoint}/v1/traces`, as OTEL_EXPORTER_OTLP_ENDPOINT is defined by OpenTelemetry.
 */
export function startTracing(options: {
  endpoint: string;
  serviceName: string;
  version: string;
  spanProcessor?: SpanProcessor;
}): Tracing {
  const resource = new Resource({
    [ATTR_SERVICE_NAME]: options.serviceName,
    [ATTR_SERVICE_VERSION]: options.version,
  });
  const spanProcessor =
    options.spanProcessor ??
    new BatchSpanProcessor(
      new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/+$/, '')}/v1/traces` }),
    );
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  provider.register();
  const instrumentations = tracingInstrumentations();
  const unregister = registerInstrumentations({ instrumentations, tracerProvider: provider });
  const tracing: Tracing = {
    resource,
    spanProcessor,
    instrumentations,
    async shutdown() {
      unregister();
      await provider.shutdown();
    },
  };
  setProcessTracing(tracing);
  return tracing;
}
