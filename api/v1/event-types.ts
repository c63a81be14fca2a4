import { idParamsSchema, listResourceSchema } from '../../domain/platform/schemas.js';
import {
  eventTypeSchema,
  eventTypesQuerySchema,
  eventTypeUpdateSchema,
  eventTypeWithStatsSchema,
} from '../../domain/usage/schemas.js';
import { listEventTypes, updateEventType } from '../../domain/usage/service.js';
import type { Db } from '../../infra/db.js';
import type { OperationRegistry } from '../http/operations.js';

// Polar's event types live under the events' scopes (`events:read`, `events:write`).
const common = { tag: 'event-types', scope: 'events', errors: ['NotPermitted', 'ResourceNotFound'] } as const;

export function registerEventTypeOperations(api: OperationRegistry, { db }: { db: Db }) {
  api.add(
    {
      ...common,
      method: 'get',
      path: '/event-types/',
      operationId: 'event-types:list',
      summary: 'List the names of events with their labels, how often and when they were seen',
      query: eventTypesQuerySchema,
      response: listResourceSchema(eventTypeWithStatsSchema),
    },
    async ({ query, caller }) => listEventTypes(db, caller, query),
  );
  api.add(
    {
      ...common,
      method: 'patch',
      path: '/event-types/{id}',
      operationId: 'event-types:update',
      summary: 'Label an event type (a user event name) for the dashboard',
      params: idParamsSchema,
      body: eventTypeUpdateSchema,
      response: eventTypeSchema,
    },
    async ({ params, body, caller }) => updateEventType(db, caller, params.id, body),
  );
}
