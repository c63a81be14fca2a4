import {
  checkoutLinkCreateSchema,
  checkoutLinkIdParamsSchema,
  checkoutLinkListQuerySchema,
  checkoutLinkSchema,
  checkoutLinkStatsSchema,
  checkoutLinkUpdateSchema,
} from '../../domain/checkout-links/schemas.js';
import {
  createCheckoutLink,
  deleteCheckoutLink,
  findCheckoutLinkFor,
  getCheckoutLinkStats,
  listCheckoutLinks,
  updateCheckoutLink,
  type CheckoutLinksContext,
} from '../../domain/checkout-links/service.js';
import { checkoutLinkView } from '../../domain/checkout-links/views.js';
import { listResourceSchema } from '../../domain/platform/schemas.js';
import type { OperationRegistry } from '../http/operations.js';

const common = { tag: 'checkout_links', errors: ['NotPermitted', 'ResourceNotFound'] } as const;

export function registerCheckoutLinkOperations(api: OperationRegistry, ctx: CheckoutLinksContext) {
  api.add(
    {
      ...common,
      method: 'get',
      path: '/checkout-links/',
      operationId: 'checkout-links:list',
      summary: 'List checkout links',
      query: checkoutLinkListQuerySchema,
      response: listResourceSchema(checkoutLinkSchema),
    },
    async ({ query, caller }) => listCheckoutLinks(ctx, caller, query),
  );
  api.add(
    {
      ...common,
      method: 'post',
      path: '/checkout-links/',
      operationId: 'checkout-links:create',
      summary: 'Create a checkout link',
      body: checkoutLinkCreateSchema,
      response: checkoutLinkSchema,
    },
    async ({ body, caller }) => createCheckoutLink(ctx, caller, body),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/checkout-links/{id}',
      operationId: 'checkout-links:get',
      summary: 'Get a checkout link',
      params: checkoutLinkIdParamsSchema,
      response: checkoutLinkSchema,
    },
    async ({ params, caller }) =>
      checkoutLinkView(await findCheckoutLinkFor(ctx.db, caller, params.id), ctx.publicUrl),
  );
  api.add(
    {
      ...common,
      method: 'patch',
      path: '/checkout-links/{id}',
      operationId: 'checkout-links:update',
      summary: 'Update a checkout link',
      params: checkoutLinkIdParamsSchema,
      body: checkoutLinkUpdateSchema,
      response: checkoutLinkSchema,
    },
    async ({ params, body, caller }) => updateCheckoutLink(ctx, caller, params.id, body),
  );
  api.add(
    {
      ...common,
      method: 'delete',
      path: '/checkout-links/{id}',
      operationId: 'checkout-links:delete',
      summary: 'Delete a checkout link',
      params: checkoutLinkIdParamsSchema,
      status: 204,
    },
    async ({ params, caller }) => {
      await deleteCheckoutLink(ctx.db, caller, params.id);
    },
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/checkout-links/{id}/stats',
      operationId: 'checkout-links:stats',
      summary: 'Visits, conversions and revenue of a checkout link',
      extension:
        'Tollgate extension, not in Polar: the checkouts opened from the link (visits), how many were paid (conversions) and the conversion rate, and the net revenue of their orders less refunds, per currency.',
      params: checkoutLinkIdParamsSchema,
      response: checkoutLinkStatsSchema,
    },
    async ({ params, caller }) => getCheckoutLinkStats(ctx.db, caller, params.id),
  );
}
