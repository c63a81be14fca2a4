import { Router } from 'express';
import { organizationIdParamsSchema } from '../../domain/organizations/schemas.js';
import { getOrganizationForCaller } from '../../domain/organizations/service.js';
import type { Db } from '../../infra/db.js';
import { callerOf } from '../http/authenticate.js';
import { AppError } from '../http/errors.js';
import { parsePath } from '../http/validation.js';

export function createOrganizationsRouter({ db }: { db: Db }): Router {
  const router = Router();
  router.get('/:id', async (req, res) => {
    const { id } = parsePath(organizationIdParamsSchema, req);
    const organization = await getOrganizationForCaller(db, callerOf(res), id);
    if (!organization) throw new AppError('ResourceNotFound', 'Organization not found');
    res.json(organization);
  });
  return router;
}
