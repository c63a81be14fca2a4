import { Router } from 'express';
import { isAPIError } from 'better-auth/api';
import { z } from 'zod';
import {
  organizationCreateSchema,
  organizationIdParamsSchema,
  organizationSortFields,
  organizationUpdateSchema,
} from '../../domain/organizations/schemas.js';
import {
  createOrganization,
  getOrganization,
  listOrganizations,
  OrganizationError,
  updateOrganization,
  type CreateOrganizationForUser,
} from '../../domain/organizations/service.js';
import { pageQuerySchema, sortingSchema } from '../../domain/platform/schemas.js';
import type { Db } from '../../infra/db.js';
import type { Auth } from '../auth/auth.js';
import { callerOf } from '../http/authenticate.js';
import { AppError, ValidationFailed } from '../http/errors.js';
import { parseBody, parsePath, parseQuery } from '../http/validation.js';

const listQuerySchema = pageQuerySchema.extend({
  slug: z.string().min(1).optional(),
  sorting: sortingSchema(organizationSortFields),
});

function toHttpError(error: unknown): unknown {
  if (error instanceof OrganizationError) {
    switch (error.reason) {
      case 'not_found':
        return new AppError('ResourceNotFound', error.message);
      case 'not_permitted':
      case 'no_owner':
        return new AppError('NotPermitted', error.message);
      case 'slug_taken':
        return new ValidationFailed([{ loc: ['body', 'slug'], msg: error.message, type: 'value_error' }]);
    }
  }
  // Better Auth's own refusals while creating (organization limit, creation not allowed).
  if (isAPIError(error)) {
    const message = typeof error.body?.message === 'string' ? error.body.message : error.message;
    return error.statusCode === 403
      ? new AppError('NotPermitted', message)
      : new ValidationFailed([{ loc: ['body'], msg: message, type: 'value_error' }]);
  }
  return error;
}

export function createOrganizationsRouter({ db, auth }: { db: Db; auth: Auth }): Router {
  const router = Router();
  const createForUser: CreateOrganizationForUser = async ({ name, slug, userId }) => {
    const created = await auth.api.createOrganization({ body: { name, slug, userId } });
    if (!created) throw new Error('Better Auth created no organization');
    return { id: created.id };
  };

  router.get('/', async (req, res) => {
    const query = parseQuery(listQuerySchema, req);
    res.json(await listOrganizations(db, callerOf(res), query));
  });

  router.post('/', async (req, res) => {
    const input = parseBody(organizationCreateSchema, req);
    const organization = await createOrganization(db, callerOf(res), input, createForUser).catch(
      (error: unknown) => {
        throw toHttpError(error);
      },
    );
    res.status(201).json(organization);
  });

  router.get('/:id', async (req, res) => {
    const { id } = parsePath(organizationIdParamsSchema, req);
    const organization = await getOrganization(db, callerOf(res), id).catch((error: unknown) => {
      throw toHttpError(error);
    });
    res.json(organization);
  });

  router.patch('/:id', async (req, res) => {
    const { id } = parsePath(organizationIdParamsSchema, req);
    const input = parseBody(organizationUpdateSchema, req);
    const organization = await updateOrganization(db, callerOf(res), id, input).catch((error: unknown) => {
      throw toHttpError(error);
    });
    res.json(organization);
  });

  return router;
}
