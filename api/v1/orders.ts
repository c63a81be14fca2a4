import {
  orderIdParamsSchema,
  orderInvoiceSchema,
  orderListQuerySchema,
  orderSchema,
  orderUpdateSchema,
} from '../../domain/orders/schemas.js';
import {
  generateInvoice,
  getOrder,
  listOrders,
  orderInvoiceUrl,
  updateOrder,
  type InvoiceContext,
} from '../../domain/orders/service.js';
import { listResourceSchema } from '../../domain/platform/schemas.js';
import type { OperationRegistry } from '../http/operations.js';

const common = { tag: 'orders', errors: ['NotPermitted', 'ResourceNotFound'] } as const;

export function registerOrderOperations(api: OperationRegistry, ctx: InvoiceContext) {
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
}
