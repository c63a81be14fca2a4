import { z } from 'zod';
import {
  customFieldCreateSchema,
  customFieldSchema,
  customFieldSortFields,
  customFieldTypeSchema,
  customFieldUpdateSchema,
} from '../../domain/custom-fields/schemas.js';
import {
  createCustomField,
  deleteCustomField,
  getCustomField,
  listCustomFields,
  updateCustomField,
} from '../../domain/custom-fields/service.js';
import {
  idParamsSchema,
  listResourceSchema,
  oneOrManyUuids,
  pageQuerySchema,
  QUERY_LIST_MAX_ITEMS,
  sortingSchema,
  TEXT_MAX_LENGTH,
  textSchema,
} from '../../domain/platform/schemas.js';
import type { Db } from '../../infra/db.js';
import type { OperationRegistry } from '../http/operations.js';

const listQuerySchema = pageQuerySchema.extend({
  organization_id: oneOrManyUuids.optional(),
  query: textSchema({ max: TEXT_MAX_LENGTH.name }).optional(),
  type: z.union([customFieldTypeSchema, z.array(customFieldTypeSchema).max(QUERY_LIST_MAX_ITEMS)]).optional(),
  sorting: sortingSchema(customFieldSortFields),
});

const common = { tag: 'custom_fields', errors: ['NotPermitted', 'ResourceNotFound'] } as const;

export function registerCustomFieldOperations(api: OperationRegistry, { db }: { db: Db }) {
  api.add(
    {
      ...common,
      method: 'get',
      path: '/custom-fields/',
      operationId: 'custom-fields:list',
      summary: 'List custom fields',
      query: listQuerySchema,
      response: listResourceSchema(customFieldSchema),
    },
    async ({ query, caller }) => listCustomFields(db, caller, query),
  );
  api.add(
    {
      ...common,
      method: 'post',
      path: '/custom-fields/',
      operationId: 'custom-fields:create',
      summary: 'Create a custom field',
      body: customFieldCreateSchema,
      response: customFieldSchema,
    },
    async ({ body, caller }) => createCustomField(db, caller, body),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/custom-fields/{id}',
      operationId: 'custom-fields:get',
      summary: 'Get a custom field',
      params: idParamsSchema,
      response: customFieldSchema,
    },
    async ({ params, caller }) => getCustomField(db, caller, params.id),
  );
  api.add(
    {
      ...common,
      method: 'patch',
      path: '/custom-fields/{id}',
      operationId: 'custom-fields:update',
      summary: 'Update a custom field (its type cannot change)',
      params: idParamsSchema,
      body: customFieldUpdateSchema,
      response: customFieldSchema,
    },
    async ({ params, body, caller }) => updateCustomField(db, caller, params.id, body),
  );
  api.add(
    {
      ...common,
      method: 'delete',
      path: '/custom-fields/{id}',
      operationId: 'custom-fields:delete',
      summary: 'Delete a custom field, detaching it from products',
      params: idParamsSchema,
      status: 204,
    },
    async ({ params, caller }) => {
      await deleteCustomField(db, caller, params.id);
    },
  );
}
