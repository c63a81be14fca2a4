import { metadataQueryFrom } from '../../domain/metadata/rules.js';
import { metadataQuerySchema } from '../../domain/metadata/schemas.js';
import {
  meterCreateSchema,
  meterSchema,
  meterSortFields,
  meterUpdateSchema,
} from '../../domain/meters/schemas.js';
import { createMeter, getMeter, listMeters, updateMeter } from '../../domain/meters/service.js';
import {
  idParamsSchema,
  listResourceSchema,
  oneOrManyUuids,
  pageQuerySchema,
  sortingSchema,
  TEXT_MAX_LENGTH,
  textSchema,
} from '../../domain/platform/schemas.js';
import type { Db } from '../../infra/db.js';
import type { MeterCache } from '../../domain/meters/cache.js';
import { meterQuantitiesQuerySchema, meterQuantitiesSchema } from '../../domain/usage/schemas.js';
import { meterQuantities } from '../../domain/usage/service.js';
import type { OperationRegistry } from '../http/operations.js';

const listQuerySchema = pageQuerySchema.extend({
  organization_id: oneOrManyUuids.optional(),
  query: textSchema({ max: TEXT_MAX_LENGTH.name }).optional(),
  // Read by `metadataQueryFrom` below; declared so that its keys and values follow the text rule.
  metadata: metadataQuerySchema.optional(),
  sorting: sortingSchema(meterSortFields),
});

const common = { tag: 'meters', errors: ['NotPermitted', 'ResourceNotFound'] } as const;

export function registerMeterOperations(
  api: OperationRegistry,
  { db, meters }: { db: Db; meters?: MeterCache },
) {
  api.add(
    {
      ...common,
      method: 'get',
      path: '/meters/',
      operationId: 'meters:list',
      summary: 'List meters (filter by metadata with ?metadata[key]=value)',
      query: listQuerySchema,
      response: listResourceSchema(meterSchema),
    },
    async ({ query, caller, req }) =>
      listMeters(db, caller, { ...query, metadata: metadataQueryFrom(req.query) }),
  );
  api.add(
    {
      ...common,
      method: 'post',
      path: '/meters/',
      operationId: 'meters:create',
      summary: 'Create a meter',
      body: meterCreateSchema,
      response: meterSchema,
    },
    async ({ body, caller }) => createMeter(db, caller, body),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/meters/{id}',
      operationId: 'meters:get',
      summary: 'Get a meter',
      params: idParamsSchema,
      response: meterSchema,
    },
    async ({ params, caller }) => getMeter(db, caller, params.id),
  );
  api.add(
    {
      ...common,
      method: 'patch',
      path: '/meters/{id}',
      operationId: 'meters:update',
      summary: 'Update a meter',
      params: idParamsSchema,
      body: meterUpdateSchema,
      response: meterSchema,
    },
    async ({ params, body, caller }) => updateMeter(db, caller, params.id, body, meters),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/meters/{id}/quantities',
      operationId: 'meters:quantities',
      summary: 'Meter quantities per bucket of time, and their total over the range',
      params: idParamsSchema,
      query: meterQuantitiesQuerySchema,
      response: meterQuantitiesSchema,
    },
    async ({ params, query, caller }) => meterQuantities(db, caller, params.id, query, meters),
  );
}
