import { Router } from 'express';
import { checkReadiness, type ReadinessDeps } from '../temporal/readiness.js';
import type { PublicSettings } from '../domain/system/schemas.js';

export function createHealthRouter(deps: ReadinessDeps & { settings: PublicSettings }): Router {
  const router = Router();
  // Liveness: the process answers. It must not depend on PostgreSQL or Temporal, or an outage
  // of those would make an orchestrator restart healthy API processes.
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const report = await checkReadiness(deps);
    res
      .status(report.status === 'ok' ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json(report);
  });
  router.get('/api/settings', (_req, res) => {
    res.json(deps.settings);
  });
  return router;
}
