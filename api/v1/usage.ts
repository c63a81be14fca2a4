import { metadataQueryFrom } from '../../domain/metadata/rules.js';
import { idParamsSchema, listResourceSchema } from '../../domain/platform/schemas.js';
import {
  eventListQuerySchema,
  eventNameSchemaOut,
  eventNamesQuerySchema,
  eventSchema,
  eventsIngestResponseSchema,
  eventsIngestSchema,
} from '../../domain/usage/schemas.js';
import { getEvent, ingestEvents, listEventNames, listEvents } from '../../domain/usage/service.js';
import type { Db } from '../../infra/db.js';
import type { OperationRegistry } from '../http/operations.js';

const common = { tag: 'events', errors: ['NotPermitted', 'ResourceNotFound'] } as const;

export function registerUsageOperations(api: OperationRegistry, { db }: { db: Db }) {
  api.add(
    {
      ...common,
      method: 'get',
      path: '/events/',
      operationId: 'events:list',
      summary: 'List events (filter by metadata with ?metadata[key]=value)',
      query: eventListQuerySchema,
      response: listResourceSchema(eventSchema),
    },
    async ({ query, caller, req }) =>
      listEvents(db, caller, { ...query, metadata: metadataQueryFrom(req.query) }),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/events/names',
      operationId: 'events:list_names',
      summary: 'List the names of events, with how often and when they were seen',
      query: eventNamesQuerySchema,
      response: listResourceSchema(eventNameSchemaOut),
    },
    async ({ query, caller }) => listEventNames(db, caller, query),
  );
  api.add(
    {
      ...common,
      method: 'post',
      path: '/events/ingest',
      operationId: 'events:ingest',
      summary: `Ingest usage events (all or none; an event's external_id makes a retry insert nothing)`,
      body: eventsIngestSchema,
      response: eventsIngestResponseSchema,
      status: 200,
    },
    async ({ body, caller }) => ingestEvents(db, caller, body),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/events/{id}',
      operationId: 'events:get',
      summary: 'Get an event',
      params: idParamsSchema,
      response: eventSchema,
    },
    async ({ params, caller }) => getEvent(db, caller, params.id),
  );
}
