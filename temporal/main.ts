// Worker process entry: `node dist/temporal/main.js` (production) or via tsx (dev). Tracing first
// (off unless OTEL_EXPORTER_OTLP_ENDPOINT), then the worker (temporal/run-worker.ts).
import { loadConfigOrExit } from '../config/config.js';
import { runTraced } from '../infra/traced-entry.js';
import { readPackageVersion } from '../infra/version.js';

const config = loadConfigOrExit();
await runTraced({
  endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
  serviceName: config.OTEL_SERVICE_NAME ?? 'tollgate-worker',
  version: readPackageVersion(),
  load: () => import('./run-worker.js'),
});
