import { disputeListQuerySchema, disputeSchema } from '../../domain/disputes/schemas.js';
import {
  acceptDispute,
  getDispute,
  listDisputes,
  type DisputeWorkflows,
} from '../../domain/disputes/service.js';
import { idParamsSchema, listResourceSchema } from '../../domain/platform/schemas.js';
import type { Db } from '../../infra/db.js';
import type { OperationRegistry } from '../http/operations.js';

const common = { tag: 'disputes', errors: ['NotPermitted', 'ResourceNotFound'] } as const;

export function registerDisputeOperations(
  api: OperationRegistry,
  ctx: { db: Db; workflows: { disputes: DisputeWorkflows } },
) {
  api.add(
    {
      ...common,
      method: 'get',
      path: '/disputes/',
      operationId: 'disputes:list',
      summary: 'List disputes',
      query: disputeListQuerySchema,
      response: listResourceSchema(disputeSchema),
    },
    async ({ query, caller }) => listDisputes(ctx.db, caller, query),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/disputes/{id}',
      operationId: 'disputes:get',
      summary: 'Get a dispute',
      params: idParamsSchema,
      response: disputeSchema,
    },
    async ({ params, caller }) => getDispute(ctx.db, caller, params.id),
  );
  api.add(
    {
      ...common,
      errors: [...common.errors, 'DisputeNotOpenError'],
      method: 'post',
      path: '/disputes/{id}/accept',
      operationId: 'disputes:accept',
      summary: 'Accept a dispute, conceding the chargeback: it closes as lost',
      params: idParamsSchema,
      response: disputeSchema,
      status: 200,
    },
    async ({ params, caller }) => acceptDispute(ctx, caller, params.id),
  );
}
