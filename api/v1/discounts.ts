import {
  discountCreateSchema,
  discountIdParamsSchema,
  discountListQuerySchema,
  discountSchema,
  discountUpdateSchema,
} from '../../domain/discounts/schemas.js';
import {
  createDiscount,
  deleteDiscount,
  findDiscountFor,
  listDiscounts,
  updateDiscount,
} from '../../domain/discounts/service.js';
import { discountView } from '../../domain/discounts/views.js';
import { listResourceSchema } from '../../domain/platform/schemas.js';
import type { Db } from '../../infra/db.js';
import type { OperationRegistry } from '../http/operations.js';

const common = { tag: 'discounts', errors: ['NotPermitted', 'ResourceNotFound'] } as const;

export function registerDiscountOperations(api: OperationRegistry, { db }: { db: Db }) {
  api.add(
    {
      ...common,
      method: 'get',
      path: '/discounts/',
      operationId: 'discounts:list',
      summary: 'List discounts',
      query: discountListQuerySchema,
      response: listResourceSchema(discountSchema),
    },
    async ({ query, caller }) => listDiscounts(db, caller, query),
  );
  api.add(
    {
      ...common,
      method: 'post',
      path: '/discounts/',
      operationId: 'discounts:create',
      summary: 'Create a discount',
      body: discountCreateSchema,
      response: discountSchema,
    },
    async ({ body, caller }) => createDiscount(db, caller, body),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/discounts/{id}',
      operationId: 'discounts:get',
      summary: 'Get a discount',
      params: discountIdParamsSchema,
      response: discountSchema,
    },
    async ({ params, caller }) => discountView(await findDiscountFor(db, caller, params.id)),
  );
  api.add(
    {
      ...common,
      method: 'patch',
      path: '/discounts/{id}',
      operationId: 'discounts:update',
      summary: 'Update a discount',
      params: discountIdParamsSchema,
      body: discountUpdateSchema,
      response: discountSchema,
    },
    async ({ params, body, caller }) => updateDiscount(db, caller, params.id, body),
  );
  api.add(
    {
      ...common,
      method: 'delete',
      path: '/discounts/{id}',
      operationId: 'discounts:delete',
      summary: 'Delete a discount',
      params: discountIdParamsSchema,
      status: 204,
    },
    async ({ params, caller }) => {
      await deleteDiscount(db, caller, params.id);
    },
  );
}
