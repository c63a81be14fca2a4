import { z } from 'zod';
import {
  accessTokenCreateSchema,
  accessTokenIdParamsSchema,
  createdAccessTokenSchema,
  accessTokenSchema,
  accessTokenUpdateSchema,
} from '../../domain/access-tokens/schemas.js';
import {
  createAccessTokenForCaller,
  deleteAccessTokenForCaller,
  listAccessTokensForCaller,
  updateAccessTokenForCaller,
} from '../../domain/access-tokens/service.js';
import { listResourceSchema, pageQuerySchema } from '../../domain/platform/schemas.js';
import type { Db } from '../../infra/db.js';
import type { OperationRegistry } from '../http/operations.js';

const listQuerySchema = pageQuerySchema.extend({ organization_id: z.uuid().optional() });

const common = { tag: 'organization_access_tokens', errors: ['NotPermitted', 'ResourceNotFound'] } as const;

/** Tollgate's own operations (Polar manages these tokens in its dashboard): the dashboard session makes them. */
export function registerAccessTokenOperations(api: OperationRegistry, { db }: { db: Db }) {
  api.add(
    {
      ...common,
      method: 'post',
      path: '/organization-access-tokens/',
      operationId: 'organization_access_tokens:create',
      summary: 'Create an organization access token (shown once)',
      body: accessTokenCreateSchema,
      response: createdAccessTokenSchema,
    },
    async ({ body, caller, res }) => {
      res.set('Cache-Control', 'no-store');
      return createAccessTokenForCaller(db, caller, body);
    },
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/organization-access-tokens/',
      operationId: 'organization_access_tokens:list',
      summary: 'List organization access tokens',
      query: listQuerySchema,
      response: listResourceSchema(accessTokenSchema),
    },
    async ({ query, caller }) => listAccessTokensForCaller(db, caller, query),
  );
  api.add(
    {
      ...common,
      method: 'patch',
      path: '/organization-access-tokens/{id}',
      operationId: 'organization_access_tokens:update',
      summary: "Change an organization access token's comment or scopes",
      params: accessTokenIdParamsSchema,
      body: accessTokenUpdateSchema,
      response: accessTokenSchema,
    },
    async ({ params, body, caller }) => updateAccessTokenForCaller(db, caller, params.id, body),
  );
  api.add(
    {
      ...common,
      method: 'delete',
      path: '/organization-access-tokens/{id}',
      operationId: 'organization_access_tokens:delete',
      summary: 'Revoke an organization access token',
      params: accessTokenIdParamsSchema,
      status: 204,
    },
    async ({ params, caller }) => {
      await deleteAccessTokenForCaller(db, caller, params.id);
    },
  );
}
