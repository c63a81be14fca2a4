import { Router, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { findLiveCheckoutLinkBySecret } from '../domain/checkout-links/repository.js';
import { checkoutLinkQuerySchema } from '../domain/checkouts/schemas.js';
import { createCheckoutFromLink } from '../domain/checkouts/link-visits.js';
import type { CheckoutsContext } from '../domain/checkouts/service.js';
import { AppError, InvalidInputError } from '../domain/platform/errors.js';

const paramsSchema = z.object({ clientSecret: z.string().regex(/^tollgate_cl_[A-Za-z0-9_-]{32}$/) });

/**
 * A checkout link's public URL: every visit starts a fresh checkout from the link and redirects
 * the buyer to its hosted page. An unknown or deleted link is a 404. The query may prefill the
 * checkout and ask for the embedded page (`embed=true&embed_origin=`, as Polar's embed script
 * appends); a value that does not fit is ignored, never an error. Every visit creates a checkout,
 * so visits draw from the buyer's per-address budget (`rateLimit`). A browser that cannot be sent
 * to a checkout lands on a page saying why (`/checkout/unavailable`); other clients get the error.
 */
export function createCheckoutLinksRouter(ctx: CheckoutsContext, rateLimit: RequestHandler): Router {
  const router = Router();
  router.get('/:clientSecret', rateLimit, async (req, res) => {
    const parsed = paramsSchema.safeParse(req.params);
    const link = parsed.success ? await findLiveCheckoutLinkBySecret(ctx.db, parsed.data.clientSecret) : null;
    if (!link) {
      if (wantsPage(req)) return showUnavailable(res, 'not_found');
      throw new AppError('ResourceNotFound', 'Checkout link not found');
    }
    const prefill = checkoutLinkQuerySchema.parse(req.query);
    const created = await createCheckoutFromLink(
      ctx,
      {
        id: link.id,
        organizationId: link.organizationId,
        productIds: link.products.map(({ product }) => product.id),
        discountId: link.discount && !link.discount.deletedAt ? link.discountId : null,
        allowDiscountCodes: link.allowDiscountCodes,
        requireBillingAddress: link.requireBillingAddress,
        trialInterval: link.trialInterval,
        trialIntervalCount: link.trialIntervalCount,
        seats: link.seats,
        successUrl: link.successUrl,
        returnUrl: link.returnUrl,
        paymentProcessor: link.paymentProcessor,
        metadata: link.metadata,
      },
      prefill,
    ).catch((error: unknown) => {
      if (!wantsPage(req)) throw error;
      if (error instanceof AppError && error.errorName === 'ResourceNotFound') {
        return { unavailable: 'not_found' } as const;
      }
      // What no prefill explains: the link sells something a checkout cannot (a recurring product).
      if (error instanceof InvalidInputError) return { unavailable: 'not_sellable' } as const;
      throw error;
    });
    if ('unavailable' in created) return showUnavailable(res, created.unavailable);
    // The hosted page reads `embed` from its own URL (web/routes/checkout.$clientSecret.index.tsx).
    const { url } = created;
    res.set('Cache-Control', 'no-store').redirect(303, prefill.embed ? `${url}?embed=true` : url);
  });
  return router;
}

/** A browser following the link (it prefers HTML), rather than a script reading the answer. */
function wantsPage(req: Request): boolean {
  return req.accepts(['json', 'html']) === 'html';
}

function showUnavailable(res: Response, reason: 'not_found' | 'not_sellable'): void {
  res.set('Cache-Control', 'no-store').redirect(303, `/checkout/unavailable?reason=${reason}`);
}
