import { z } from 'zod';
import {
  orderExportQuerySchema,
  orderIdParamsSchema,
  orderInvoiceSchema,
  orderCreateSchema,
  orderFinalizeSchema,
  orderListQuerySchema,
  orderReceiptSchema,
  orderSchema,
  orderTimelineSchema,
  orderUpdateSchema,
} from '../../domain/orders/schemas.js';
import { createDraftOrder, finalizeDraftOrder, type DraftOrderContext } from '../../domain/orders/drafts.js';
import {
  exportOrders,
  generateInvoice,
  getOrder,
  listOrders,
  orderInvoiceUrl,
  orderReceiptUrl,
  updateOrder,
  type InvoiceContext,
} from '../../domain/orders/service.js';
import { getOrderTimeline } from '../../domain/orders/timeline.js';
import { listResourceSchema } from '../../domain/platform/schemas.js';
import { streamCsv } from '../http/csv.js';
import type { OperationRegistry } from '../http/operations.js';

const common = { tag: 'orders', errors: ['NotPermitted', 'ResourceNotFound'] } as const;

export function registerOrderOperations(
  api: OperationRegistry,
  ctx: InvoiceContext & Pick<DraftOrderContext, 'tax' | 'workflows'>,
) {
  api.add(
    {
      ...common,
      method: 'get',
      path: '/orders/',
      operationId: 'orders:list',
      summary: 'List orders',
      query: orderListQuerySchema,
      response: listResourceSchema(orderSchema),
    },
    async ({ query, caller }) => listOrders(ctx.db, caller, query),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/orders/export',
      operationId: 'orders:export',
      summary: 'Export orders as CSV',
      extension:
        "Tollgate extension, not in Polar: the orders the list's filters and sorting keep, every page, as CSV (amounts in minor units and as decimals, ISO timestamps).",
      query: orderExportQuerySchema,
      response: z.string(),
      mediaType: 'text/csv',
    },
    async ({ query, caller, res }) => streamCsv(res, exportOrders(ctx.db, caller, query), 'orders.csv'),
  );
  api.add(
    {
      ...common,
      method: 'post',
      path: '/orders/',
      operationId: 'orders:create',
      summary: 'Create a draft order for an off-session charge',
      body: orderCreateSchema,
      response: orderSchema,
      status: 201,
    },
    async ({ body, caller }) => createDraftOrder(ctx, caller, body),
  );
  api.add(
    {
      ...common,
      errors: [
        ...common.errors,
        'PaymentFailed',
        'PaymentActionRequired',
        'OrderNotDraft',
        'ServiceUnavailable',
      ],
      method: 'post',
      path: '/orders/{id}/finalize',
      operationId: 'orders:finalize',
      summary: "Finalize a draft order: charge the customer's saved card off-session",
      params: orderIdParamsSchema,
      body: orderFinalizeSchema,
      response: orderSchema,
      status: 200,
    },
    async ({ params, body, caller }) => finalizeDraftOrder(ctx, caller, params.id, body),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/orders/{id}',
      operationId: 'orders:get',
      summary: 'Get an order',
      params: orderIdParamsSchema,
      response: orderSchema,
    },
    async ({ params, caller }) => getOrder(ctx.db, caller, params.id),
  );
  api.add(
    {
      ...common,
      method: 'patch',
      path: '/orders/{id}',
      operationId: 'orders:update',
      summary: "Update an order's billing details",
      params: orderIdParamsSchema,
      body: orderUpdateSchema,
      response: orderSchema,
    },
    async ({ params, body, caller }) => updateOrder(ctx.db, caller, params.id, body),
  );
  api.add(
    {
      ...common,
      errors: [...common.errors, 'InvoiceAlreadyExists', 'MissingInvoiceBillingDetails', 'NotPaidOrder'],
      method: 'post',
      path: '/orders/{id}/invoice',
      operationId: 'orders:generate_invoice',
      summary: "Generate the order's invoice (PDF)",
      params: orderIdParamsSchema,
      response: orderSchema,
      status: 202,
    },
    async ({ params, caller }) => generateInvoice(ctx, caller, params.id),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/orders/{id}/invoice',
      operationId: 'orders:invoice',
      summary: "A download URL of the order's invoice",
      params: orderIdParamsSchema,
      response: orderInvoiceSchema,
    },
    async ({ params, caller }) => orderInvoiceUrl(ctx, caller, params.id),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/orders/{id}/receipt',
      operationId: 'orders:receipt',
      summary: "A download URL of the paid order's receipt (PDF)",
      params: orderIdParamsSchema,
      response: orderReceiptSchema,
    },
    async ({ params, caller }) => orderReceiptUrl(ctx, caller, params.id),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/orders/{id}/timeline',
      operationId: 'orders:timeline',
      summary: "The order's timeline",
      extension:
        'Tollgate extension, not in Polar: what happened to the order, oldest first: its creation, each payment attempt with the card, the invoice, refunds, the emails sent to the buyer and the webhook events sent about it with their delivery status.',
      params: orderIdParamsSchema,
      response: orderTimelineSchema,
    },
    async ({ params, caller }) => getOrderTimeline(ctx.db, caller, params.id),
  );
}
