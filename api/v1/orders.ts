import {
  orderIdParamsSchema,
  orderListQuerySchema,
  orderSchema,
  orderUpdateSchema,
} from '../../domain/orders/schemas.js';
import { getOrder, listOrders, updateOrder } from '../../domain/orders/service.js';
import { listResourceSchema } from '../../domain/platform/schemas.js';
import type { Db } from '../../infra/db.js';
import type { OperationRegistry } from '../http/operations.js';

const common = { tag: 'orders', errors: ['NotPermitted', 'ResourceNotFound'] } as const;

export function registerOrderOperations(api: OperationRegistry, ctx: { db: Db }) {
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
}
