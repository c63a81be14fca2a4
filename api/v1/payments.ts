import { paymentListQuerySchema, paymentSchema } from '../../domain/payments/schemas.js';
import { getPayment, listPayments } from '../../domain/payments/service.js';
import { idParamsSchema, listResourceSchema } from '../../domain/platform/schemas.js';
import type { Db } from '../../infra/db.js';
import type { OperationRegistry } from '../http/operations.js';

const common = { tag: 'payments', errors: ['NotPermitted', 'ResourceNotFound'] } as const;

export function registerPaymentOperations(api: OperationRegistry, ctx: { db: Db }) {
  api.add(
    {
      ...common,
      method: 'get',
      path: '/payments/',
      operationId: 'payments:list',
      summary: 'List payments',
      query: paymentListQuerySchema,
      response: listResourceSchema(paymentSchema),
    },
    async ({ query, caller }) => listPayments(ctx.db, caller, query),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/payments/{id}',
      operationId: 'payments:get',
      summary: 'Get a payment',
      params: idParamsSchema,
      response: paymentSchema,
    },
    async ({ params, caller }) => getPayment(ctx.db, caller, params.id),
  );
}
