// The signed-in customer's subscriptions (Polar's portal `subscriptions`): read, change plan, cancel
// at the period end, resume, and our extensions (a plan change's bill before confirming it, a
// failed renewal tried again now, the next renewal's estimate).
import { z } from 'zod';
import type { PortalContext } from '../../../domain/customer-portal/context.js';
import {
  customerSubscriptionListQuerySchema,
  customerSubscriptionSchema,
  customerSubscriptionUpdateSchema,
} from '../../../domain/customer-portal/schemas.js';
import {
  cancelPortalSubscription,
  getPortalSubscription,
  listPortalSubscriptions,
  retryPortalSubscriptionPayment,
  updatePortalSubscription,
} from '../../../domain/customer-portal/subscriptions.js';
import { idParamsSchema, listResourceSchema } from '../../../domain/platform/schemas.js';
import { previewCustomerSubscriptionChange } from '../../../domain/subscriptions/customer-changes.js';
import { prorationPreviewSchema, upcomingInvoiceSchema } from '../../../domain/subscriptions/schemas.js';
import {
  getCustomerUpcomingInvoice,
  type UpcomingInvoiceContext,
} from '../../../domain/subscriptions/upcoming-invoice.js';
import type { OperationRegistry } from '../../http/operations.js';
import { PORTAL_TAG as tag } from './tag.js';

export function registerPortalSubscriptionOperations(api: OperationRegistry, ctx: PortalContext) {
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/subscriptions/',
      operationId: 'customer_portal:subscriptions:list',
      summary: "List the customer's subscriptions",
      tag,
      query: customerSubscriptionListQuerySchema,
      response: listResourceSchema(customerSubscriptionSchema),
    },
    ({ customer, query }) => listPortalSubscriptions(ctx, customer, query),
  );
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/subscriptions/{id}',
      operationId: 'customer_portal:subscriptions:get',
      summary: 'Get a subscription',
      tag,
      params: idParamsSchema,
      response: customerSubscriptionSchema,
      errors: ['ResourceNotFound'],
    },
    ({ customer, params }) => getPortalSubscription(ctx, customer, params.id),
  );
  api.addForCustomer(
    {
      method: 'patch',
      path: '/customer-portal/subscriptions/{id}',
      operationId: 'customer_portal:subscriptions:update',
      summary: 'Change plan, cancel at the period end, or resume',
      tag,
      params: idParamsSchema,
      body: customerSubscriptionUpdateSchema,
      response: customerSubscriptionSchema,
      errors: ['ResourceNotFound', 'NotPermitted', 'AlreadyCanceledSubscription'],
    },
    ({ customer, params, body }) => updatePortalSubscription(ctx, customer, params.id, body),
  );
  api.addForCustomer(
    {
      method: 'post',
      path: '/customer-portal/subscriptions/{id}/proration-preview',
      operationId: 'customer_portal:subscriptions:proration_preview',
      summary: 'Preview what a plan change would bill',
      extension:
        "Tollgate extension, not in Polar: the customer sees the bill of a plan change (at the seller's proration default) before confirming it.",
      tag,
      params: idParamsSchema,
      body: z.strictObject({ product_id: z.uuid({ message: 'Not a valid product id.' }) }),
      status: 200,
      response: prorationPreviewSchema,
      errors: ['ResourceNotFound', 'NotPermitted', 'AlreadyCanceledSubscription'],
    },
    ({ customer, params, body }) =>
      previewCustomerSubscriptionChange(ctx.subscriptions, customer, params.id, body.product_id),
  );
  api.addForCustomer(
    {
      method: 'post',
      path: '/customer-portal/subscriptions/{id}/retry-payment',
      operationId: 'customer_portal:subscriptions:retry_payment',
      summary: 'Try the failed renewal again now',
      extension:
        'Tollgate extension, not in Polar: a plan in dunning (past_due) is charged again at once instead of at its next scheduled try; at most once an hour, as each failed try counts.',
      tag,
      params: idParamsSchema,
      status: 202,
      response: customerSubscriptionSchema,
      errors: ['ResourceNotFound', 'Conflict', 'TooManyRequests'],
    },
    ({ customer, params }) => retryPortalSubscriptionPayment(ctx, customer, params.id),
  );
  api.addForCustomer(
    {
      method: 'delete',
      path: '/customer-portal/subscriptions/{id}',
      operationId: 'customer_portal:subscriptions:cancel',
      summary: 'Cancel at the end of the period',
      tag,
      params: idParamsSchema,
      status: 200,
      response: customerSubscriptionSchema,
      errors: ['ResourceNotFound', 'AlreadyCanceledSubscription'],
    },
    ({ customer, params }) => cancelPortalSubscription(ctx, customer, params.id),
  );
}

/**
 * The buyer's estimate of their own plan's next renewal. Its own function: the router registers it
 * after the orders, where the OpenAPI document has always listed it.
 */
export function registerPortalUpcomingInvoiceOperations(api: OperationRegistry, ctx: UpcomingInvoiceContext) {
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/subscriptions/{id}/upcoming-invoice',
      operationId: 'customer_portal:subscriptions:upcoming_invoice',
      summary: 'Estimate the next renewal order of a subscription',
      extension:
        "Tollgate extension, not in Polar: the customer's own plan's next renewal order, priced now exactly as the renewal will price it (fees, usage less credits, discount, pending proration lines, tax), for the portal's usage page.",
      tag,
      params: idParamsSchema,
      response: upcomingInvoiceSchema,
      errors: ['ResourceNotFound'],
    },
    ({ customer, params }) => getCustomerUpcomingInvoice(ctx, customer, params.id),
  );
}
