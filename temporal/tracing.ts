// Temporal's side of tracing (docs/operations.md, "Traces"): the context of the request that starts
// or signals a workflow travels in its headers, the workflow's spans continue it (its interceptors,
// bundled in), and each activity's span continues the workflow's, so one trace runs from the HTTP
// request through every step. Off with tracing off: nothing here is installed.
import { createRequire } from 'node:module';
import {
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
  makeWorkflowExporter,
  type OpenTelemetrySinks,
} from '@temporalio/interceptors-opentelemetry';
import type { WorkflowClientInterceptor } from '@temporalio/client';
import type { InjectedSinks, WorkerInterceptors } from '@temporalio/worker';
import type { Tracing } from '../infra/trace-context.js';

/** The workflow interceptors' module, bundled into the traced workflow bundle. */
export function workflowTracingInterceptorsPath(): string {
  return createRequire(import.meta.url).resolve(
    '@temporalio/interceptors-opentelemetry/lib/workflow-interceptors',
  );
}

/** A client's workflow interceptors: a start or signal carries the active span's context. */
export function clientTracingInterceptors(tracing: Tracing | null): WorkflowClientInterceptor[] {
  return tracing ? [new OpenTelemetryWorkflowClientInterceptor()] : [];
}

/**
 * The worker's part: activity spans under the workflow's, log attributes, and the sink the
 * workflows' spans leave the sandbox through (exported by the process's span processor).
 */
export function workerTracing(
  tracing: Tracing,
  interceptors: WorkerInterceptors | undefined,
): { interceptors: WorkerInterceptors; sinks: InjectedSinks<OpenTelemetrySinks> } {
  return {
    interceptors: {
      ...interceptors,
      activity: [
        (ctx) => ({
          inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
          outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
        ...(interceptors?.activity ?? []),
      ],
      workflowModules: [workflowTracingInterceptorsPath(), ...(interceptors?.workflowModules ?? [])],
    },
    sinks: { exporter: makeWorkflowExporter(tracing.spanProcessor, tracing.resource) },
  };
}
