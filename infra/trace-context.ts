// What the rest of the process needs of tracing, without loading the SDK when tracing is off:
// the active span's ids for log lines, and the process's tracing if its entry started one.
import { trace } from '@opentelemetry/api';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import type { Resource } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';

export type Tracing = {
  resource: Resource;
  /** Where spans go; the worker hands it to the workflows' span sink too. */
  spanProcessor: SpanProcessor;
  instrumentations: Instrumentation[];
  /** Sends what is buffered, then stops (a process's shutdown). */
  shutdown(): Promise<void>;
};

let current: Tracing | null = null;

/** Set by `startTracing` (infra/tracing.ts). */
export function setProcessTracing(tracing: Tracing | null): void {
  current = tracing;
}

/** The tracing this process's entry started, or null: tracing is off. */
export function processTracing(): Tracing | null {
  return current;
}

/** The active span's ids for a log line (`trace_id`, `span_id`), or nothing outside a trace. */
export function traceFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan()?.spanContext();
  if (!span || !trace.isSpanContextValid(span)) return {};
  return { trace_id: span.traceId, span_id: span.spanId };
}
