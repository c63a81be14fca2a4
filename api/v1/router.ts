import express, { Router } from 'express';
import type { Db } from '../../infra/db.js';
import type { Auth } from '../auth/auth.js';
import { authenticate } from '../http/authenticate.js';
import { notFoundHandler } from '../http/errors.js';
import { createAccessTokensRouter } from './organization-access-tokens.js';
import { createOrganizationsRouter } from './organizations.js';

export type V1Deps = { db: Db; auth: Auth };

/** Polar-compatible payments API (snake_case); every route below requires an authenticated caller. */
export function createV1Router(deps: V1Deps): Router {
  const router = Router();
  router.use(express.json({ limit: '1mb' }));
  router.use(authenticate(deps.db, deps.auth));
  router.use('/organizations', createOrganizationsRouter(deps));
  router.use('/organization-access-tokens', createAccessTokensRouter(deps));
  router.use(notFoundHandler);
  return router;
}
