import { listResourceSchema } from '../../domain/platform/schemas.js';
import { refundCreateSchema, refundListQuerySchema, refundSchema } from '../../domain/refunds/schemas.js';
import { createRefund, listRefunds, type RefundWorkflows } from '../../domain/refunds/service.js';
import type { Db } from '../../infra/db.js';
import { requestKeyOf } from '../http/idempotency.js';
import type { OperationRegistry } from '../http/operations.js';

const common = { tag: 'refunds', errors: ['NotPermitted', 'ResourceNotFound'] } as const;

export function registerRefundOperations(
  api: OperationRegistry,
  ctx: { db: Db; workflows: RefundWorkflows },
) {
  api.add(
    {
      ...common,
      method: 'get',
      path: '/refunds/',
      operationId: 'refunds:list',
      summary: 'List refunds',
      query: refundListQuerySchema,
      response: listResourceSchema(refundSchema),
    },
    async ({ query, caller }) => listRefunds(ctx.db, caller, query),
  );
  api.add(
    {
      ...common,
      errors: [...common.errors, 'RefundAmountTooHigh', 'RefundedAlready'],
      method: 'post',
      path: '/refunds/',
      operationId: 'refunds:create',
      summary: 'Refund part or all of an order',
      body: refundCreateSchema,
      response: refundSchema,
      // Polar's SDK reads the refund from a 200 (a 201 has no body for it).
      status: 200,
    },
    async ({ body, caller, res }) => createRefund(ctx, caller, body, requestKeyOf(res)),
  );
}
