import { Router } from 'express';
import { z } from 'zod';
import { accessTokenCreateSchema, accessTokenIdParamsSchema } from '../../domain/access-tokens/schemas.js';
import {
  AccessTokenError,
  createAccessTokenForCaller,
  deleteAccessTokenForCaller,
  listAccessTokensForCaller,
} from '../../domain/access-tokens/service.js';
import { pageQuerySchema } from '../../domain/platform/schemas.js';
import type { Db } from '../../infra/db.js';
import { callerOf } from '../http/authenticate.js';
import { AppError } from '../http/errors.js';
import { parseBody, parsePath, parseQuery } from '../http/validation.js';

const listQuerySchema = pageQuerySchema.extend({ organization_id: z.uuid().optional() });

function toHttpError(error: unknown): unknown {
  if (!(error instanceof AccessTokenError)) return error;
  return new AppError(error.reason === 'not_found' ? 'ResourceNotFound' : 'NotPermitted', error.message);
}

export function createAccessTokensRouter({ db }: { db: Db }): Router {
  const router = Router();
  const rethrow = (error: unknown): never => {
    throw toHttpError(error);
  };

  router.post('/', async (req, res) => {
    const input = parseBody(accessTokenCreateSchema, req);
    res
      .status(201)
      .set('Cache-Control', 'no-store')
      .json(await createAccessTokenForCaller(db, callerOf(res), input).catch(rethrow));
  });

  router.get('/', async (req, res) => {
    const query = parseQuery(listQuerySchema, req);
    res.json(await listAccessTokensForCaller(db, callerOf(res), query).catch(rethrow));
  });

  router.delete('/:id', async (req, res) => {
    const { id } = parsePath(accessTokenIdParamsSchema, req);
    await deleteAccessTokenForCaller(db, callerOf(res), id).catch(rethrow);
    res.status(204).end();
  });

  return router;
}
