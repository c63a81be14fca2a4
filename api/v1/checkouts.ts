import type { RequestHandler } from 'express';
import { z } from 'zod';
import {
  checkoutClientUpdateSchema,
  checkoutConfirmSchema,
  checkoutCreateSchema,
  checkoutExportQuerySchema,
  checkoutIdParamsSchema,
  checkoutListQuerySchema,
  checkoutOrderSummarySchema,
  checkoutPublicConfirmedSchema,
  checkoutPublicSchema,
  checkoutSchema,
  checkoutUpdateSchema,
  clientSecretParamsSchema,
} from '../../domain/checkouts/schemas.js';
import {
  confirmClientCheckout,
  embedOriginOf,
  getClientCheckout,
  updateClientCheckout,
} from '../../domain/checkouts/client.js';
import {
  createCheckout,
  exportCheckouts,
  getCheckout,
  listCheckouts,
  updateCheckout,
} from '../../domain/checkouts/seller.js';
import type { CheckoutsContext } from '../../domain/checkouts/service.js';
import { getClientCheckoutOrder } from '../../domain/checkouts/confirmation.js';
import { listResourceSchema } from '../../domain/platform/schemas.js';
import { streamCsv } from '../http/csv.js';
import type { OperationRegistry } from '../http/operations.js';

const common = { tag: 'checkouts', errors: ['NotPermitted', 'ResourceNotFound'] } as const;

export function registerCheckoutOperations(api: OperationRegistry, ctx: CheckoutsContext) {
  api.add(
    {
      ...common,
      method: 'get',
      path: '/checkouts/',
      operationId: 'checkouts:list',
      summary: 'List checkout sessions',
      query: checkoutListQuerySchema,
      response: listResourceSchema(checkoutSchema),
    },
    async ({ query, caller }) => listCheckouts(ctx, caller, query),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/checkouts/export',
      operationId: 'checkouts:export',
      summary: 'Export checkout sessions as CSV',
      extension:
        "Tollgate extension, not in Polar: the checkouts the list's filters and sorting keep, every page, as CSV (amounts in minor units and the total as a decimal, ISO timestamps).",
      query: checkoutExportQuerySchema,
      response: z.string(),
      mediaType: 'text/csv',
    },
    async ({ query, caller, res }) => streamCsv(res, exportCheckouts(ctx.db, caller, query), 'checkouts.csv'),
  );
  api.add(
    {
      ...common,
      method: 'post',
      path: '/checkouts/',
      operationId: 'checkouts:create',
      summary: 'Create a checkout session',
      body: checkoutCreateSchema,
      response: checkoutSchema,
    },
    async ({ body, caller }) => createCheckout(ctx, caller, body),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/checkouts/{id}',
      operationId: 'checkouts:get',
      summary: 'Get a checkout session',
      params: checkoutIdParamsSchema,
      response: checkoutSchema,
    },
    async ({ params, caller }) => getCheckout(ctx, caller, params.id),
  );
  api.add(
    {
      ...common,
      errors: [...common.errors, 'NotOpenCheckout', 'ExpiredCheckoutError'],
      method: 'patch',
      path: '/checkouts/{id}',
      operationId: 'checkouts:update',
      summary: 'Update a checkout session',
      params: checkoutIdParamsSchema,
      body: checkoutUpdateSchema,
      response: checkoutSchema,
    },
    async ({ params, body, caller }) => updateCheckout(ctx, caller, params.id, body),
  );
}

const clientCommon = {
  tag: 'checkouts',
  errors: ['ResourceNotFound', 'ExpiredCheckoutError'],
} as const;

/**
 * The buyer's calls, authorized by the client secret alone. Browsers may call them from our own
 * pages and from the checkout's `embed_origin` (an embedded checkout), nowhere else.
 */
export function registerCheckoutClientOperations(api: OperationRegistry, ctx: CheckoutsContext) {
  api.addPublic(
    {
      ...clientCommon,
      method: 'get',
      path: '/checkouts/client/{client_secret}',
      operationId: 'checkouts:client_get',
      summary: 'Get a checkout session by client secret',
      params: clientSecretParamsSchema,
      response: checkoutPublicSchema,
    },
    async ({ params }) => getClientCheckout(ctx, params.client_secret),
  );
  api.addPublic(
    {
      ...clientCommon,
      errors: [...clientCommon.errors, 'NotOpenCheckout'],
      method: 'patch',
      path: '/checkouts/client/{client_secret}',
      operationId: 'checkouts:client_update',
      summary: 'Update a checkout session by client secret',
      params: clientSecretParamsSchema,
      body: checkoutClientUpdateSchema,
      response: checkoutPublicSchema,
    },
    async ({ params, body }) => updateClientCheckout(ctx, params.client_secret, body),
  );
  api.addPublic(
    {
      ...clientCommon,
      errors: [...clientCommon.errors, 'NotOpenCheckout', 'PaymentError', 'TrialAlreadyRedeemed'],
      method: 'post',
      path: '/checkouts/client/{client_secret}/confirm',
      operationId: 'checkouts:client_confirm',
      summary: 'Confirm a checkout session by client secret',
      params: clientSecretParamsSchema,
      body: checkoutConfirmSchema,
      response: checkoutPublicConfirmedSchema,
      status: 200,
    },
    async ({ params, body }) => confirmClientCheckout(ctx, params.client_secret, body),
  );
  api.addPublic(
    {
      ...clientCommon,
      method: 'get',
      path: '/checkouts/client/{client_secret}/order',
      operationId: 'checkouts:client_get_order',
      summary: 'The order a succeeded checkout session made, for its confirmation page',
      extension:
        'Tollgate extension, not in Polar: the buyer sees their order number and lines without signing in.',
      params: clientSecretParamsSchema,
      response: checkoutOrderSummarySchema,
    },
    async ({ params }) => getClientCheckoutOrder(ctx.db, params.client_secret),
  );
}

/**
 * The client secret of a client call's path, or null when it cannot be one. CORS runs before the
 * route validates its parameters, so it checks them itself: a malformed secret (bad
 * percent-encoding, NUL, too long) must not reach the database, and the route answers it.
 */
function clientSecretFromPath(encoded: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(encoded);
  } catch {
    return null;
  }
  const parsed = clientSecretParamsSchema.safeParse({ client_secret: decoded });
  return parsed.success ? parsed.data.client_secret : null;
}

/** CORS for the client calls: our own origin always, a checkout's embed origin for that checkout. */
export function checkoutClientCors(ctx: Pick<CheckoutsContext, 'db' | 'publicUrl'>): RequestHandler {
  const ownOrigin = new URL(ctx.publicUrl).origin;
  return async (req, res, next) => {
    const origin = req.headers.origin;
    const encodedSecret = /^\/checkouts\/client\/([^/]+)/.exec(req.path)?.[1];
    if (!origin || !encodedSecret) return next();
    const secret = clientSecretFromPath(encodedSecret);
    const allowed =
      origin === ownOrigin || (secret !== null && origin === (await embedOriginOf(ctx.db, secret)));
    if (allowed) {
      res.vary('Origin');
      res.set({
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Methods': 'GET, PATCH, POST, OPTIONS',
        // Polar's current browser SDK sends the version it speaks with every call.
        'Access-Control-Allow-Headers': 'Content-Type, Polar-Version',
        'Access-Control-Expose-Headers': 'Polar-Version',
        'Access-Control-Max-Age': '600',
      });
    }
    if (req.method === 'OPTIONS') {
      res.status(allowed ? 204 : 403).end();
      return;
    }
    next();
  };
}
