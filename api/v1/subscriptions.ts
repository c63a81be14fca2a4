import { once } from 'node:events';
import { z } from 'zod';
import { listResourceSchema } from '../../domain/platform/schemas.js';
import {
  subscriptionIdParamsSchema,
  subscriptionListQuerySchema,
  subscriptionSchema,
  subscriptionCreateSchema,
  subscriptionUpdateSchema,
  prorationPreviewRequestSchema,
  prorationPreviewSchema,
  subscriptionPaymentAttemptListSchema,
  subscriptionPaymentAttemptQuerySchema,
  upcomingInvoiceSchema,
} from '../../domain/subscriptions/schemas.js';
import { getUpcomingInvoice } from '../../domain/subscriptions/upcoming-invoice.js';
import {
  exportSubscriptions,
  getSubscription,
  listSubscriptionPaymentAttempts,
  listSubscriptions,
  previewSubscriptionChange,
  revokeSubscription,
  updateSubscription,
  type SubscriptionChangeContext,
} from '../../domain/subscriptions/service.js';
import { createSubscription, type SubscriptionCreationContext } from '../../domain/subscriptions/creation.js';
import type { OperationRegistry } from '../http/operations.js';

const common = { tag: 'subscriptions', errors: ['NotPermitted', 'ResourceNotFound'] } as const;

export function registerSubscriptionOperations(api: OperationRegistry, ctx: SubscriptionChangeContext) {
  api.add(
    {
      ...common,
      method: 'get',
      path: '/subscriptions/',
      operationId: 'subscriptions:list',
      summary: 'List subscriptions',
      query: subscriptionListQuerySchema,
      response: listResourceSchema(subscriptionSchema),
    },
    async ({ query, caller }) => listSubscriptions(ctx, caller, query),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/subscriptions/export',
      operationId: 'subscriptions:export',
      summary: 'Export subscriptions as CSV',
      query: subscriptionListQuerySchema.pick({ organization_id: true }),
      response: z.string(),
      mediaType: 'text/csv',
    },
    async ({ query, caller, res }) => {
      const lines = exportSubscriptions(ctx, caller, query);
      // The first line is produced before anything is sent, so a refused caller still gets JSON.
      const header = await lines.next();
      res.status(200);
      res.set({
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': 'attachment; filename="subscriptions.csv"',
      });
      if (!header.done) res.write(header.value);
      for await (const line of lines) {
        // A slow reader makes the export wait instead of buffering every row in memory.
        if (!res.write(line)) await once(res, 'drain');
      }
      res.end();
    },
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/subscriptions/{id}',
      operationId: 'subscriptions:get',
      summary: 'Get a subscription',
      params: subscriptionIdParamsSchema,
      response: subscriptionSchema,
    },
    async ({ params, caller }) => getSubscription(ctx, caller, params.id),
  );
  api.add(
    {
      ...common,
      errors: [...common.errors, 'AlreadyCanceledSubscription', 'BadRequest', 'ResourceUnavailable'],
      method: 'patch',
      path: '/subscriptions/{id}',
      operationId: 'subscriptions:update',
      summary: 'Cancel at period end, resume, revoke, or change the product or discount of a subscription',
      params: subscriptionIdParamsSchema,
      body: subscriptionUpdateSchema,
      response: subscriptionSchema,
    },
    async ({ params, body, caller }) => updateSubscription(ctx, caller, params.id, body),
  );
  api.add(
    {
      ...common,
      errors: [...common.errors, 'AlreadyCanceledSubscription'],
      method: 'delete',
      path: '/subscriptions/{id}',
      operationId: 'subscriptions:revoke',
      summary: 'Revoke a subscription now',
      params: subscriptionIdParamsSchema,
      response: subscriptionSchema,
      status: 200,
    },
    async ({ params, caller }) => revokeSubscription(ctx, caller, params.id),
  );
  api.add(
    {
      ...common,
      errors: [...common.errors, 'AlreadyCanceledSubscription'],
      method: 'post',
      path: '/subscriptions/{id}/proration-preview',
      operationId: 'subscriptions:proration_preview',
      summary: 'Preview what a plan change would bill',
      extension:
        'Tollgate extension, not in Polar: the proration lines, the amount due now and the amount carried to the next renewal of a PATCH {product_id}, without making it.',
      params: subscriptionIdParamsSchema,
      body: prorationPreviewRequestSchema,
      response: prorationPreviewSchema,
      status: 200,
    },
    async ({ params, body, caller }) => previewSubscriptionChange(ctx, caller, params.id, body),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/subscriptions/{id}/payment-attempts',
      operationId: 'subscriptions:payment_attempts',
      summary: "List the tries to collect a subscription's orders",
      extension:
        'Tollgate extension, not in Polar: every off-session try to collect the orders of a subscription (renewals, plan changes billed now), paid or declined with its reason, newest first, and when the next try of a failing order is due.',
      params: subscriptionIdParamsSchema,
      query: subscriptionPaymentAttemptQuerySchema,
      response: subscriptionPaymentAttemptListSchema,
    },
    async ({ params, query, caller }) => listSubscriptionPaymentAttempts(ctx, caller, params.id, query),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/subscriptions/{id}/upcoming-invoice',
      operationId: 'subscriptions:upcoming_invoice',
      summary: "Estimate the subscription's next renewal order",
      extension:
        "Tollgate extension, not in Polar: the order the renewal at the end of the current period will make, priced now exactly as the renewal prices it (the next period's fees less the discount as it will apply, the current period's metered usage less its credits, rounded and capped, the pending proration lines, the tax), without making it. Usage that arrives before the period ends is added to it.",
      params: subscriptionIdParamsSchema,
      response: upcomingInvoiceSchema,
    },
    async ({ params, caller }) => getUpcomingInvoice(ctx, caller, params.id),
  );
}

export function registerSubscriptionCreateOperation(
  api: OperationRegistry,
  ctx: SubscriptionCreationContext,
) {
  api.add(
    {
      ...common,
      method: 'post',
      path: '/subscriptions/',
      operationId: 'subscriptions:create',
      summary: 'Subscribe a customer to a free plan',
      body: subscriptionCreateSchema,
      response: subscriptionSchema,
      status: 201,
    },
    async ({ body, caller }) => createSubscription(ctx, caller, body),
  );
}
