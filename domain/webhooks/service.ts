import { randomUUID } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Db } from '../../infra/db.js';
import type { webhookDeliveryWorkflow, webhookDispatcherWorkflow } from '../../workflows/webhooks.js';
import { hasAnyRole, ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import { accessibleOrganizationIds, organizationAccess } from '../access/service.js';
import type { WebhookEventType } from '../events/schemas.js';
import { pageToSkipTake, paginated } from '../platform/rules.js';
import {
  deleteWebhookEndpoint as deleteEndpointRow,
  disableWebhookEndpoint,
  failWebhookEventRound,
  findDeliveryAttempt,
  findEndpointState,
  findWebhookEndpoint,
  findWebhookEvent,
  findWebhookEventForDelivery,
  incrementConsecutiveFailures,
  insertDeliveryAttempt,
  insertWebhookEndpoint,
  insertWebhookEvents,
  listOrganizationMembersWithUsers,
  listSubscribedEndpoints,
  listUndispatchedOutboxEvents,
  listWebhookDeliveries as queryDeliveries,
  listWebhookEndpoints as queryEndpoints,
  listWebhookEventsOfOutboxEvent,
  markOutboxEventsDispatched,
  recordWebhookEventAttempt,
  resetConsecutiveFailures,
  startWebhookEventRound,
  updateWebhookEndpoint as updateEndpointRow,
  type WebhookEndpointRow,
} from './repository.js';
import {
  attemptOutcome,
  DELIVERY_TIMEOUT_MS,
  excerpt,
  formatWebhookBody,
  RESPONSE_EXCERPT_CHARS,
  resourceIdOf,
  shouldDisableEndpoint,
  WEBHOOK_SIGNALS,
  webhookDeliveryWorkflowId,
  webhookDispatcherWorkflowId,
  type AttemptOutcome,
  type OutboxPayload,
  type WebhookDeliveryRequest,
} from './rules.js';
import {
  webhookDeliverySchema,
  webhookEndpointSchema,
  type WebhookDeliveryListQuery,
  type WebhookDeliveryResponse,
  type WebhookEndpointCreate,
  type WebhookEndpointListQuery,
  type WebhookEndpointResponse,
  type WebhookEndpointUpdate,
} from './schemas.js';
import { generateWebhookSecret, webhookHeaders } from './signing.js';

export type WebhookWorkflows = { temporal: Client; taskQueue: string };

export class WebhookError extends Error {
  constructor(
    readonly reason: 'not_found' | 'not_permitted' | 'organization_required',
    message: string,
  ) {
    super(message);
    this.name = 'WebhookError';
  }
}

export function toWebhookEndpointResponse(row: WebhookEndpointRow): WebhookEndpointResponse {
  return webhookEndpointSchema.parse({
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    id: row.id,
    url: row.url,
    format: row.format,
    organization_id: row.organizationId,
    events: row.events,
    enabled: row.enabled,
  });
}

const notFound = () => new WebhookError('not_found', 'Webhook endpoint not found');

async function requireManager(db: Db, caller: Caller, organizationId: string) {
  const access = await organizationAccess(db, caller, organizationId, ORGANIZATION_MANAGERS);
  if (access === 'none') throw notFound();
  if (access === 'read') {
    throw new WebhookError('not_permitted', 'Only owners and admins can manage webhooks.');
  }
}

/** A token acts for its organization; a signed-in user names one of theirs. */
function organizationOf(caller: Caller, organizationId: string | null | undefined): string {
  if (organizationId) return organizationId;
  if (caller.kind === 'organization_access_token') return caller.organizationId;
  throw new WebhookError(
    'organization_required',
    'organization_id is required unless you use an organization token.',
  );
}

export async function createWebhookEndpoint(db: Db, caller: Caller, input: WebhookEndpointCreate) {
  const organizationId = organizationOf(caller, input.organization_id);
  const access = await organizationAccess(db, caller, organizationId, ORGANIZATION_MANAGERS);
  if (access === 'none') throw new WebhookError('not_found', 'Organization not found');
  if (access === 'read') {
    throw new WebhookError('not_permitted', 'Only owners and admins can manage webhooks.');
  }
  const row = await insertWebhookEndpoint(db, {
    organizationId,
    url: input.url,
    format: input.format,
    secret: input.secret ?? generateWebhookSecret(),
    events: input.events,
  });
  return toWebhookEndpointResponse(row);
}

export async function listWebhookEndpoints(db: Db, caller: Caller, query: WebhookEndpointListQuery) {
  const accessible = await accessibleOrganizationIds(db, caller);
  const ids = query.organization_id
    ? accessible.filter((id) => query.organization_id!.includes(id))
    : accessible;
  const [rows, total] = await queryEndpoints(db, ids, pageToSkipTake(query));
  return paginated(rows.map(toWebhookEndpointResponse), total, query);
}

async function findAccessibleEndpoint(db: Db, caller: Caller, id: string) {
  const row = await findWebhookEndpoint(db, id, await accessibleOrganizationIds(db, caller));
  if (!row) throw notFound();
  return row;
}

export async function getWebhookEndpoint(db: Db, caller: Caller, id: string) {
  return toWebhookEndpointResponse(await findAccessibleEndpoint(db, caller, id));
}

export async function updateWebhookEndpoint(
  db: Db,
  caller: Caller,
  id: string,
  input: WebhookEndpointUpdate,
) {
  const row = await findAccessibleEndpoint(db, caller, id);
  await requireManager(db, caller, row.organizationId);
  const enabling = input.enabled === true && !row.enabled;
  const updated = await updateEndpointRow(
    db,
    { id, organizationId: row.organizationId },
    {
      modifiedAt: new Date(),
      ...(input.url ? { url: input.url } : {}),
      ...(input.format ? { format: input.format } : {}),
      ...(input.secret ? { secret: input.secret } : {}),
      ...(input.events ? { events: input.events } : {}),
      ...(input.enabled === false && row.enabled ? { enabled: false, disabledAt: new Date() } : {}),
      // Turned back on by the seller: the failure streak that disabled it no longer counts.
      ...(enabling
        ? { enabled: true, disabledAt: null, disabledReason: null, consecutiveFailedEvents: 0 }
        : {}),
    },
  );
  return toWebhookEndpointResponse(updated);
}

export async function deleteWebhookEndpoint(db: Db, caller: Caller, id: string) {
  const row = await findAccessibleEndpoint(db, caller, id);
  await requireManager(db, caller, row.organizationId);
  // Its events and attempts go with it; delivery workflows still queued find nothing and stop.
  await deleteEndpointRow(db, { id, organizationId: row.organizationId });
}

type DeliveryRow = Awaited<ReturnType<typeof queryDeliveries>>[0][number];

export function toWebhookDeliveryResponse(row: DeliveryRow): WebhookDeliveryResponse {
  return webhookDeliverySchema.parse({
    created_at: row.createdAt.toISOString(),
    modified_at: null,
    id: row.id,
    http_code: row.httpCode,
    succeeded: row.succeeded,
    duration_ms: row.durationMs,
    response: row.response,
    error: row.error,
    webhook_event: {
      created_at: row.webhookEvent.createdAt.toISOString(),
      modified_at: row.webhookEvent.modifiedAt?.toISOString() ?? null,
      id: row.webhookEvent.id,
      last_http_code: row.webhookEvent.lastHttpCode,
      succeeded: row.webhookEvent.succeeded,
      payload: row.webhookEvent.payload,
    },
  });
}

export async function listWebhookDeliveries(db: Db, caller: Caller, query: WebhookDeliveryListQuery) {
  const organizationIds = await accessibleOrganizationIds(db, caller);
  const [rows, total] = await queryDeliveries(
    db,
    { organizationIds, endpointIds: query.endpoint_id },
    pageToSkipTake(query),
  );
  return paginated(rows.map(toWebhookDeliveryResponse), total, query);
}

// ---- delivery workflows ----

async function enqueueDelivery(
  { temporal, taskQueue }: WebhookWorkflows,
  target: { endpointId: string; resourceId: string },
  request: WebhookDeliveryRequest,
) {
  await temporal.workflow.signalWithStart<typeof webhookDeliveryWorkflow, [WebhookDeliveryRequest]>(
    'webhookDeliveryWorkflow',
    {
      workflowId: webhookDeliveryWorkflowId(target.endpointId, target.resourceId),
      taskQueue,
      args: [{ endpointId: target.endpointId, resourceId: target.resourceId, queue: [] }],
      signal: WEBHOOK_SIGNALS.enqueue,
      signalArgs: [request],
    },
  );
}

/**
 * Re-sends one webhook event to its endpoint, from the first attempt of the retry schedule, even
 * when it was delivered before. The new round is committed before the workflow hears of it, so a
 * failure in between answers an error and the caller asks again.
 */
export async function redeliverWebhookEvent(db: Db, workflows: WebhookWorkflows, caller: Caller, id: string) {
  const event = await findWebhookEvent(db, id, await accessibleOrganizationIds(db, caller));
  if (!event) throw new WebhookError('not_found', 'Webhook event not found');
  await requireManager(db, caller, event.organizationId);
  const round = randomUUID();
  await startWebhookEventRound(db, { id, organizationId: event.organizationId, round });
  await enqueueDelivery(workflows, event, { webhookEventId: id, round });
}

/** Signals in flight at once while dispatching: distinct workflows, so their order does not matter. */
const DISPATCH_SIGNAL_CONCURRENCY = 32;

/**
 * Fans out the oldest undispatched outbox events: one webhook event per subscribed, enabled
 * endpoint, each queued on the workflow of its (endpoint, resource). Every step is repeatable —
 * rows are unique per (event, endpoint), a repeated signal finds its round already ended — so a
 * crash anywhere before `dispatched_at` is set only means the next run does the same again.
 */
export async function dispatchOutboxEvents(
  db: Db,
  workflows: WebhookWorkflows,
  limit = 100,
): Promise<number> {
  const events = await listUndispatchedOutboxEvents(db, limit);
  // One queue per delivery workflow, in outbox order: a resource's events are signalled in the order
  // they happened, while different workflows are signalled concurrently.
  const queues = new Map<string, { endpointId: string; resourceId: string; webhookEventId: string }[]>();
  for (const event of events) {
    const payload = event.payload as OutboxPayload;
    const endpoints = await listSubscribedEndpoints(db, event.organizationId, event.type as WebhookEventType);
    const resourceId = resourceIdOf(payload, event.id);
    await insertWebhookEvents(
      db,
      endpoints.map((endpoint) => ({
        organizationId: event.organizationId,
        endpointId: endpoint.id,
        outboxEventId: event.id,
        type: event.type,
        resourceId,
        payload: formatWebhookBody(endpoint.format, payload),
      })),
    );
    for (const row of await listWebhookEventsOfOutboxEvent(db, event.id)) {
      if (row.status !== 'pending' || row.round !== 'dispatch') continue;
      const key = webhookDeliveryWorkflowId(row.endpointId, row.resourceId);
      const queue = queues.get(key) ?? [];
      queue.push({ endpointId: row.endpointId, resourceId: row.resourceId, webhookEventId: row.id });
      queues.set(key, queue);
    }
  }
  const pending = [...queues.values()];
  const signalQueues = async () => {
    for (let queue = pending.shift(); queue; queue = pending.shift()) {
      for (const item of queue) {
        await enqueueDelivery(workflows, item, { webhookEventId: item.webhookEventId, round: 'dispatch' });
      }
    }
  };
  await Promise.all(Array.from({ length: DISPATCH_SIGNAL_CONCURRENCY }, signalQueues));
  await markOutboxEventsDispatched(
    db,
    events.map((event) => event.id),
    new Date(),
  );
  return events.length;
}

/** Starts the deployment's dispatcher unless it runs; safe from every worker start and the watchdog. */
export async function ensureWebhookDispatcher({ temporal, taskQueue }: WebhookWorkflows): Promise<boolean> {
  try {
    await temporal.workflow.start<typeof webhookDispatcherWorkflow>('webhookDispatcherWorkflow', {
      workflowId: webhookDispatcherWorkflowId(taskQueue),
      taskQueue,
      args: [],
    });
    return true;
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw error;
  }
}

export type DeliveryAttemptResult =
  | { kind: AttemptOutcome; httpCode: number | null }
  /** The round ended or was superseded, or the endpoint or event is gone: nothing to send. */
  | { kind: 'stale' }
  | { kind: 'endpoint_disabled' };

type HttpAnswer = { httpCode: number | null; response: string | null; error: string | null };

async function readExcerpt(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < RESPONSE_EXCERPT_CHARS) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    // The rest of a large answer is never downloaded.
    await reader.cancel().catch(() => undefined);
  }
  return excerpt(text);
}

async function postWebhook(url: string, headers: Record<string, string>, body: string): Promise<HttpAnswer> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    const text = await readExcerpt(response).catch(() => '');
    return { httpCode: response.status, response: text, error: null };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    const message =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`
        : `${error instanceof Error ? error.message : String(error)}${cause}`;
    return { httpCode: null, response: null, error: excerpt(message, 500) };
  }
}

/**
 * One HTTP attempt of one round, recorded under (event, round, attempt). A retried activity finds
 * the attempt it already made and answers its outcome instead of posting again.
 */
export async function attemptWebhookDelivery(
  db: Db,
  input: { webhookEventId: string; round: string; attempt: number },
): Promise<DeliveryAttemptResult> {
  const event = await findWebhookEventForDelivery(db, input.webhookEventId);
  if (!event || event.round !== input.round) return { kind: 'stale' };
  const recorded = await findDeliveryAttempt(db, input);
  if (recorded) return { kind: attemptOutcome(recorded.httpCode), httpCode: recorded.httpCode };
  if (event.status !== 'pending') return { kind: 'stale' };
  // A redelivery is the seller's explicit request and is sent even to a disabled endpoint.
  if (!event.endpoint.enabled && input.round === 'dispatch') return { kind: 'endpoint_disabled' };

  const started = performance.now();
  const answer = await postWebhook(
    event.endpoint.url,
    webhookHeaders({
      // Standard Webhooks: the id stays the same across retries, so receivers can deduplicate.
      id: event.id,
      timestampSeconds: Math.floor(Date.now() / 1000),
      body: event.payload,
      secret: event.endpoint.secret,
    }),
    event.payload,
  );
  const durationMs = Math.round(performance.now() - started);
  const kind = attemptOutcome(answer.httpCode);
  const succeeded = kind === 'succeeded';
  await db.$transaction(async (tx) => {
    await insertDeliveryAttempt(tx, {
      organizationId: event.organizationId,
      webhookEventId: event.id,
      round: input.round,
      attempt: input.attempt,
      succeeded,
      durationMs,
      ...answer,
    });
    const updated = await recordWebhookEventAttempt(tx, {
      id: event.id,
      round: input.round,
      succeeded,
      httpCode: answer.httpCode,
    });
    if (succeeded && updated.count > 0) await resetConsecutiveFailures(tx, event.endpointId);
  });
  return { kind, httpCode: answer.httpCode };
}

/**
 * Ends a round that failed: a 410 disables the endpoint at once; otherwise the endpoint's streak
 * of failed events grows and disables it at the limit. Answers when the endpoint is disabled
 * (now or before), so the caller can tell the owners; the email is idempotent on that time.
 */
export async function recordWebhookEventFailure(
  db: Db,
  input: { webhookEventId: string; endpointId: string; round: string; gone: boolean },
): Promise<{ disabledAt: string | null }> {
  const now = new Date();
  await db.$transaction(async (tx) => {
    const ended = await failWebhookEventRound(tx, { id: input.webhookEventId, round: input.round });
    if (ended.count === 0) return;
    if (input.gone) {
      await disableWebhookEndpoint(tx, input.endpointId, 'gone', now);
      return;
    }
    const { consecutiveFailedEvents } = await incrementConsecutiveFailures(tx, input.endpointId);
    if (shouldDisableEndpoint(consecutiveFailedEvents)) {
      await disableWebhookEndpoint(tx, input.endpointId, 'failing', now);
    }
  });
  // A seller who switched the endpoint off (no reason) needs no email about it.
  const endpoint = await findEndpointState(db, input.endpointId);
  const disabledByDelivery = endpoint && !endpoint.enabled && endpoint.disabledReason !== null;
  return { disabledAt: disabledByDelivery ? (endpoint.disabledAt?.toISOString() ?? null) : null };
}

/** The endpoint and the owners to tell that it was disabled; null once it is enabled again or deleted. */
export async function findDisabledEndpointNotice(db: Db, endpointId: string) {
  const endpoint = await findEndpointState(db, endpointId);
  if (!endpoint || endpoint.enabled || !endpoint.disabledAt || !endpoint.disabledReason) return null;
  const members = await listOrganizationMembersWithUsers(db, endpoint.organization.id);
  return {
    url: endpoint.url,
    reason: endpoint.disabledReason === 'gone' ? ('gone' as const) : ('failing' as const),
    disabledAt: endpoint.disabledAt,
    organizationName: endpoint.organization.name,
    owners: members.filter((member) => hasAnyRole(member.role, ['owner'])).map((member) => member.user),
  };
}
