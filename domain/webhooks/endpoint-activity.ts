// What the dashboard shows of an endpoint beyond Polar's API (our extensions): its health, its events
// with their attempts, and a test event sent through the same path as every other.
import type { Db } from '../../infra/db.js';
import type { Caller } from '../access/rules.js';
import { accessibleOrganizationIds } from '../access/service.js';
import { findOrganizationById } from '../organizations/repository.js';
import { organizationView } from '../organizations/views.js';
import { AppError } from '../platform/errors.js';
import { pageToSkipTake, paginated } from '../platform/rules.js';
import { findAccessibleEndpoint, notFound, requireManager } from './access.js';
import {
  countEndpointAttempts,
  findLastFailures,
  insertTestOutboxEvent,
  listEndpointEvents,
  listWebhookEndpoints as queryEndpoints,
  type WebhookEndpointRow,
} from './repository.js';
import { HEALTH_WINDOW_MS, TEST_EVENT_TYPE } from './rules.js';
import type { WebhookEndpointEventListQuery, WebhookEndpointListQuery } from './schemas.js';
import { webhookEndpointEventView, webhookEndpointHealthView } from './views.js';

/** Health of endpoints already read under the caller's access, in their order. */
async function healthOf(db: Db, endpoints: WebhookEndpointRow[], now: Date) {
  if (endpoints.length === 0) return [];
  const scope = {
    organizationIds: [...new Set(endpoints.map((endpoint) => endpoint.organizationId))],
    endpointIds: endpoints.map((endpoint) => endpoint.id),
  };
  const [counts, failures] = await Promise.all([
    countEndpointAttempts(db, { ...scope, since: new Date(now.getTime() - HEALTH_WINDOW_MS) }),
    findLastFailures(db, scope),
  ]);
  const countsOf = new Map(counts.map((count) => [count.endpointId, count]));
  const failureOf = new Map(failures.map((failure) => [failure.endpointId, failure]));
  return endpoints.map((endpoint) =>
    webhookEndpointHealthView(
      endpoint,
      countsOf.get(endpoint.id) ?? { attempts: 0, succeeded: 0 },
      failureOf.get(endpoint.id) ?? null,
    ),
  );
}

export async function getWebhookEndpointHealth(db: Db, caller: Caller, id: string, now = new Date()) {
  const [health] = await healthOf(db, [await findAccessibleEndpoint(db, caller, id)], now);
  return health!;
}

/** The health of a page of endpoints, in the endpoint list's order and filters. */
export async function listWebhookEndpointHealth(
  db: Db,
  caller: Caller,
  query: WebhookEndpointListQuery,
  now = new Date(),
) {
  const accessible = await accessibleOrganizationIds(db, caller);
  const ids = query.organization_id
    ? accessible.filter((id) => query.organization_id!.includes(id))
    : accessible;
  const [rows, total] = await queryEndpoints(db, ids, pageToSkipTake(query));
  return paginated(await healthOf(db, rows, now), total, query);
}

export async function listWebhookEndpointEvents(
  db: Db,
  caller: Caller,
  id: string,
  query: WebhookEndpointEventListQuery,
) {
  const endpoint = await findAccessibleEndpoint(db, caller, id);
  const [rows, total] = await listEndpointEvents(
    db,
    { organizationId: endpoint.organizationId, endpointId: endpoint.id },
    pageToSkipTake(query),
  );
  return paginated(
    rows.map((row) => webhookEndpointEventView(row, endpoint.enabled)),
    total,
    query,
  );
}

/**
 * "Send test event": the organization as it is now, as `organization.updated` — a real type with a
 * real object, so the SDK's `validateEvent` and a seller's handler accept it — written to the
 * outbox for this endpoint alone. It then travels the path every event does (dispatcher, first
 * attempt, retries) and shows in the endpoint's log.
 */
export async function sendTestWebhookEvent(db: Db, caller: Caller, id: string) {
  const endpoint = await findAccessibleEndpoint(db, caller, id);
  await requireManager(db, caller, endpoint.organizationId);
  if (!endpoint.enabled) {
    throw new AppError('Conflict', 'The endpoint is disabled: enable it to send a test event.');
  }
  const organization = await findOrganizationById(db.sql, endpoint.organizationId);
  if (!organization) throw notFound();
  await insertTestOutboxEvent(db, {
    organizationId: endpoint.organizationId,
    endpointId: endpoint.id,
    type: TEST_EVENT_TYPE,
    payload: {
      type: TEST_EVENT_TYPE,
      timestamp: new Date().toISOString(),
      data: organizationView(organization),
    },
  });
}
