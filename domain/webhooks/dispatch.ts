// The outbox's fan-out: each undispatched event becomes one webhook event per subscribed endpoint,
// handed in outbox order to the endpoint's delivery workflow. Sending them is attempts.ts.
import type { Db } from '../../infra/db.js';
import { listUndispatchedOutboxEvents, markOutboxEventsDispatched } from '../webhook-outbox/repository.js';
import { insertWebhookEvents, listEnabledEndpoints, listWebhookEventsOfOutboxEvents } from './repository.js';
import {
  formatWebhookBody,
  resourceIdOf,
  type OutboxPayload,
  type WebhookDataRenderer,
  type WebhookDeliveryTarget,
  type WebhookFormat,
} from './rules.js';
import { isApiVersion } from '../platform/api-versions.js';
import type { WebhookWorkflows } from './service.js';

/** Runs `work` on every item, at most `concurrency` at a time. */
export async function forEachConcurrently<T>(
  items: T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
) {
  const pending = [...items];
  const worker = async () => {
    for (let item = pending.shift(); item !== undefined; item = pending.shift()) await work(item);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, pending.length) }, worker));
}

/** Endpoints signalled at once while dispatching: distinct workflows, so their order does not matter. */
export const DISPATCH_SIGNAL_CONCURRENCY = 32;
/** Outbox events fanned out per dispatch: each endpoint gets a batch's events in one signal. */
export const DISPATCH_BATCH_SIZE = 500;

/**
 * Fans out the oldest undispatched outbox events: one webhook event per subscribed, enabled
 * endpoint, and per endpoint one signal carrying them in outbox order to that endpoint's workflow.
 * Each body is rendered in its endpoint's API version by `renderData`.
 * Every step is repeatable — rows are unique per (event, endpoint), an event sent twice finds its
 * attempt recorded — so a crash anywhere before `dispatched_at` is set only means the next run does
 * the same again.
 */
export async function dispatchOutboxEvents(
  db: Db,
  workflows: WebhookWorkflows,
  renderData: WebhookDataRenderer,
  limit = DISPATCH_BATCH_SIZE,
): Promise<number> {
  const events = await listUndispatchedOutboxEvents(db, limit);
  if (events.length === 0) return 0;
  const endpoints = await listEnabledEndpoints(db, [...new Set(events.map((event) => event.organizationId))]);
  const rows = events.flatMap((event) => {
    const payload = event.payload as OutboxPayload;
    return endpoints
      .filter(
        (endpoint) =>
          endpoint.organizationId === event.organizationId &&
          // A test event goes to the endpoint it was sent from, whatever that subscribes to.
          (event.endpointId ? endpoint.id === event.endpointId : endpoint.events.includes(event.type)),
      )
      .map((endpoint) => ({
        organizationId: event.organizationId,
        endpointId: endpoint.id,
        outboxEventId: event.id,
        type: event.type,
        resourceId: resourceIdOf(payload, event.id),
        apiVersion: endpoint.apiVersion,
        payload: formatWebhookBody(
          endpoint.format as WebhookFormat,
          isApiVersion(endpoint.apiVersion)
            ? { ...payload, data: renderData(payload.type, payload.data, endpoint.apiVersion) }
            : payload,
          endpoint.apiVersion,
        ),
      }));
  });
  const inserted = rows.length > 0 ? await insertWebhookEvents(db, rows) : [];
  // Fewer rows than expected: a run before this one died after inserting some of them.
  const all =
    inserted.length === rows.length
      ? inserted
      : await listWebhookEventsOfOutboxEvents(
          db,
          events.map((event) => event.id),
        );

  const position = new Map(events.map((event, index) => [event.id, index]));
  const created = all
    .filter((row) => row.status === 'pending' && row.round === 'dispatch')
    .sort((a, b) => position.get(a.outboxEventId)! - position.get(b.outboxEventId)!);
  const batches = new Map<string, WebhookDeliveryTarget[]>();
  for (const row of created) {
    const batch = batches.get(row.endpointId) ?? [];
    batch.push({ webhookEventId: row.id, round: row.round, resourceId: row.resourceId });
    batches.set(row.endpointId, batch);
  }
  await forEachConcurrently([...batches], DISPATCH_SIGNAL_CONCURRENCY, async ([endpointId, requests]) => {
    await workflows.enqueueEndpointBatch(endpointId, requests);
  });
  await markOutboxEventsDispatched(
    db,
    events.map((event) => event.id),
    new Date(),
  );
  return events.length;
}
