import { register } from 'node:module';

/**
 * Starts tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set, then loads the process's entry module:
 * the instrumentations must be in place before express, pg and undici are imported. ESM imports
 * are patched through import-in-the-middle's loader hook, registered first; CommonJS ones through
 * require-in-the-middle, which the instrumentations install themselves.
 */
export async function runTraced(options: {
  endpoint: string | undefined;
  serviceName: string;
  version: string;
  /** `() => import('./server.js')`: the entry's own relative import, which tsx resolves in dev. */
  load: () => Promise<unknown>;
}): Promise<void> {
  if (options.endpoint) {
    register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
    const { startTracing } = await import('./tracing.js');
    startTracing({ endpoint: options.endpoint, serviceName: options.serviceName, version: options.version });
  }
  await options.load();
}
