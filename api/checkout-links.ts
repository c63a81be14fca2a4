import { Router } from 'express';
import { z } from 'zod';
import { findLiveCheckoutLinkBySecret } from '../domain/checkout-links/repository.js';
import type { Db } from '../infra/db.js';
import { AppError } from './http/errors.js';

const paramsSchema = z.object({ clientSecret: z.string().regex(/^tollgate_cl_[A-Za-z0-9_-]{32}$/) });

/**
 * A checkout link's public URL. Starting a checkout from it belongs to the checkout feature, which
 * is not built yet: a live link answers 501 until then, an unknown or deleted one 404.
 */
export function createCheckoutLinksRouter({ db }: { db: Db }): Router {
  const router = Router();
  router.get('/:clientSecret', async (req, res) => {
    const parsed = paramsSchema.safeParse(req.params);
    const link = parsed.success ? await findLiveCheckoutLinkBySecret(db, parsed.data.clientSecret) : null;
    if (!link) throw new AppError('ResourceNotFound', 'Checkout link not found');
    res.set('Cache-Control', 'no-store');
    throw new AppError('NotImplemented', 'Checkouts cannot be started from links yet.');
  });
  return router;
}
