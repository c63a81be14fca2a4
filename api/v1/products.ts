import { z } from 'zod';
import {
  idParamsSchema,
  listResourceSchema,
  oneOrManyUuids,
  pageQuerySchema,
  sortingSchema,
  TEXT_MAX_LENGTH,
  textSchema,
} from '../../domain/platform/schemas.js';
import {
  productBenefitsUpdateSchema,
  productCreateSchema,
  productSchema,
  productSortFields,
  productUpdateSchema,
} from '../../domain/products/schemas.js';
import {
  createProduct,
  deleteProduct,
  getProduct,
  listProducts,
  updateProduct,
  updateProductBenefits,
  type ProductsContext,
} from '../../domain/products/service.js';
import type { OperationRegistry } from '../http/operations.js';

/** Query-string booleans as the SDK writes them. */
const booleanQuery = z
  .enum(['true', 'false'])
  .transform((value) => value === 'true')
  .optional();

const listQuerySchema = pageQuerySchema.extend({
  id: oneOrManyUuids.optional(),
  organization_id: oneOrManyUuids.optional(),
  query: textSchema({ max: TEXT_MAX_LENGTH.name }).optional(),
  is_archived: booleanQuery,
  is_recurring: booleanQuery,
  benefit_id: oneOrManyUuids.optional(),
  sorting: sortingSchema(productSortFields),
});

const common = { tag: 'products', errors: ['NotPermitted', 'ResourceNotFound'] } as const;

export function registerProductOperations(api: OperationRegistry, ctx: ProductsContext) {
  api.add(
    {
      ...common,
      method: 'get',
      path: '/products/',
      operationId: 'products:list',
      summary: 'List products',
      query: listQuerySchema,
      response: listResourceSchema(productSchema),
    },
    async ({ query, caller }) => listProducts(ctx, caller, query),
  );
  api.add(
    {
      ...common,
      method: 'post',
      path: '/products/',
      operationId: 'products:create',
      summary: 'Create a product with its prices',
      body: productCreateSchema,
      response: productSchema,
    },
    async ({ body, caller }) => createProduct(ctx, caller, body),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/products/{id}',
      operationId: 'products:get',
      summary: 'Get a product',
      params: idParamsSchema,
      response: productSchema,
    },
    async ({ params, caller }) => getProduct(ctx, caller, params.id),
  );
  api.add(
    {
      ...common,
      method: 'patch',
      path: '/products/{id}',
      operationId: 'products:update',
      summary: 'Update a product; prices left out of `prices` are archived',
      params: idParamsSchema,
      body: productUpdateSchema,
      response: productSchema,
    },
    async ({ params, body, caller }) => updateProduct(ctx, caller, params.id, body),
  );
  api.add(
    {
      ...common,
      method: 'post',
      path: '/products/{id}/benefits',
      operationId: 'products:update_benefits',
      summary: "Set a product's benefits",
      params: idParamsSchema,
      body: productBenefitsUpdateSchema,
      response: productSchema,
      status: 200,
    },
    async ({ params, body, caller }) => updateProductBenefits(ctx, caller, params.id, body.benefits),
  );
  api.add(
    {
      ...common,
      errors: [...common.errors, 'ProductNotDeletable'],
      method: 'delete',
      path: '/products/{id}',
      operationId: 'products:delete',
      summary: 'Delete a product nothing refers to; archive one in use instead',
      params: idParamsSchema,
      status: 204,
    },
    async ({ params, caller }) => {
      await deleteProduct(ctx, caller, params.id);
    },
  );
}
