import express, { Router } from 'express';
import { notFoundHandler } from '../http/errors.js';

export type V1Deps = Record<string, never>;

/** Polar-compatible payments API (snake_case). Resources mount here as they are built. */
export function createV1Router(_deps: V1Deps): Router {
  const router = Router();
  router.use(express.json({ limit: '1mb' }));
  router.use(notFoundHandler);
  return router;
}
