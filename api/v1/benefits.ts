import {
  benefitCreateSchema,
  benefitDownloadableFileSchema,
  benefitGrantListQuerySchema,
  benefitGrantWithBenefitSchema,
  benefitIdParamsSchema,
  benefitListQuerySchema,
  benefitSchema,
  benefitUpdateSchema,
} from '../../domain/benefits/schemas.js';
import {
  createBenefit,
  deleteBenefit,
  findBenefitFor,
  listBenefits,
  updateBenefit,
} from '../../domain/benefits/service.js';
import { benefitView } from '../../domain/benefits/views.js';
import { listResourceSchema, pageQuerySchema } from '../../domain/platform/schemas.js';
import type { Db } from '../../infra/db.js';
import type { OperationRegistry } from '../http/operations.js';
import { listBenefitFiles, listBenefitGrants } from '../../domain/benefit-grants/requests.js';

const common = { tag: 'benefits', errors: ['NotPermitted', 'ResourceNotFound'] } as const;

export function registerBenefitOperations(
  api: OperationRegistry,
  { db, publicUrl }: { db: Db; publicUrl: string },
) {
  api.add(
    {
      ...common,
      method: 'get',
      path: '/benefits/',
      operationId: 'benefits:list',
      summary: 'List benefits',
      query: benefitListQuerySchema,
      response: listResourceSchema(benefitSchema),
    },
    async ({ query, caller }) => listBenefits(db, caller, query),
  );
  api.add(
    {
      ...common,
      method: 'post',
      path: '/benefits/',
      operationId: 'benefits:create',
      summary: 'Create a benefit',
      body: benefitCreateSchema,
      response: benefitSchema,
    },
    async ({ body, caller }) => createBenefit(db, caller, body),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/benefits/{id}',
      operationId: 'benefits:get',
      summary: 'Get a benefit',
      params: benefitIdParamsSchema,
      response: benefitSchema,
    },
    async ({ params, caller }) => benefitView(await findBenefitFor(db, caller, params.id)),
  );
  api.add(
    {
      ...common,
      method: 'patch',
      path: '/benefits/{id}',
      operationId: 'benefits:update',
      summary: 'Update a benefit',
      params: benefitIdParamsSchema,
      body: benefitUpdateSchema,
      response: benefitSchema,
    },
    async ({ params, body, caller }) => updateBenefit(db, caller, params.id, body),
  );
  api.add(
    {
      ...common,
      method: 'delete',
      path: '/benefits/{id}',
      operationId: 'benefits:delete',
      summary: 'Delete a benefit',
      params: benefitIdParamsSchema,
      status: 204,
    },
    async ({ params, caller }) => {
      await deleteBenefit(db, caller, params.id);
    },
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/benefits/{id}/grants',
      operationId: 'benefits:grants',
      summary: 'List the grants of a benefit',
      params: benefitIdParamsSchema,
      query: benefitGrantListQuerySchema,
      response: listResourceSchema(benefitGrantWithBenefitSchema),
    },
    async ({ params, query, caller }) => listBenefitGrants(db, caller, params.id, query),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/benefits/{id}/files',
      operationId: 'benefits:files',
      summary: "List a downloadables benefit's files with their download counts",
      params: benefitIdParamsSchema,
      query: pageQuerySchema,
      response: listResourceSchema(benefitDownloadableFileSchema),
    },
    async ({ params, query, caller }) => listBenefitFiles(db, caller, params.id, query, publicUrl),
  );
}
