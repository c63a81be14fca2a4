// `GET /api/operators/stuck-work`: the operators' page (platform admins, Better Auth's admin role).
import { Router } from 'express';
import { fromNodeHeaders } from 'better-auth/node';
import { AppError } from '../../domain/platform/errors.js';
import { hasRole } from '../../domain/users/rules.js';
import { readStuckWork } from '../../domain/operators/stuck-work-service.js';
import { stuckWorkReportSchema } from '../../domain/operators/schemas.js';
import type { OperatorWorkflows } from '../../domain/operators/stuck-work-service.js';
import type { Db } from '../../infra/db.js';
import type { Auth } from '../auth/auth.js';

export function createStuckWorkRouter(deps: {
  db: Db;
  auth: Auth;
  publicUrl: string;
  workflows: { operators: Pick<OperatorWorkflows, 'workflowIds'> };
}): Router {
  const router = Router();
  router.get('/', async (req, res) => {
    const session = await deps.auth.api.getSession({ headers: fromNodeHeaders(req.headers) });
    if (!session) throw new AppError('Unauthorized');
    // Every organization's work is listed: only the deployment's administrators see it.
    if (!hasRole(session.user.role, 'admin')) throw new AppError('NotPermitted');
    const report = await readStuckWork({
      db: deps.db,
      publicUrl: deps.publicUrl,
      workflowIds: deps.workflows.operators.workflowIds,
    });
    res.set('Cache-Control', 'no-store').json(stuckWorkReportSchema.parse(report));
  });
  return router;
}
