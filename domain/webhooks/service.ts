import { randomUUID } from 'node:crypto';
import type { Db } from '../../infra/db.js';
import { hasAnyRole, ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import { accessibleOrganizationIds, organizationAccess } from '../access/service.js';
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
  findFirstAttempts,
  findWebhookEventsForDelivery,
  insertDeliveryAttempts,
  recordWebhookEventsAttempt,
  insertWebhookEvents,
  listEnabledEndpoints,
  listPendingEventsOfResources,
  listWebhookDeliveries as queryDeliveries,
  listWebhookEndpoints as queryEndpoints,
  listWebhookEventsOfOutboxEvents,
  recordWebhookEventAttempt,
  resetConsecutiveFailures,
  startWebhookEventRound,
  updateWebhookEndpoint as updateEndpointRow,
  countEndpointAttempts,
  findLastFailures,
  insertTestOutboxEvent,
  listEndpointEvents,
  type WebhookEndpointRow,
} from './repository.js';
import {
  attemptOutcome,
  formatWebhookBody,
  resourceIdOf,
  shouldDisableEndpoint,
  HEALTH_WINDOW_MS,
  TEST_EVENT_TYPE,
  type AttemptOutcome,
  type OutboxPayload,
  type WebhookDeliveryRequest,
  type WebhookDeliveryTarget,
  type WebhookFormat,
} from './rules.js';
import type {
  WebhookDeliveryListQuery,
  WebhookEndpointCreate,
  WebhookEndpointEventListQuery,
  WebhookEndpointListQuery,
  WebhookEndpointUpdate,
} from './schemas.js';
import { generateWebhookSecret, webhookHeaders } from './signing.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import {
  webhookDeliveryView,
  webhookEndpointEventView,
  webhookEndpointHealthView,
  webhookEndpointView,
} from './views.js';
import { listUndispatchedOutboxEvents, markOutboxEventsDispatched } from '../events/repository.js';
import { listOrganizationMembersWithUsers } from '../access/repository.js';
import { findOrganizationById } from '../organizations/repository.js';
import { organizationView } from '../organizations/views.js';

/** Where webhook answers come from: an HTTP POST to the endpoint (integrations/http/). */
export type HttpAnswer = { httpCode: number | null; response: string | null; error: string | null };

export type WebhookSender = {
  /**
   * Why the deployment may not deliver to `url` (its scheme, or an address its host resolves to),
   * in the seller's words; null when it may. Deliveries check again when they connect.
   */
  checkTarget(url: string): Promise<string | null>;
  /** Posts once, without following redirects; never throws: a failure is an answer with an error. */
  post(url: string, headers: Record<string, string>, body: string): Promise<HttpAnswer>;
};

/** A URL the deployment refuses is never stored; the refusal names no address it resolved to. */
async function assertDeliverable(targets: Pick<WebhookSender, 'checkTarget'>, url: string) {
  const refusal = await targets.checkTarget(url);
  if (refusal) throw new InvalidFieldError(['body', 'url'], refusal);
}

/** What webhooks ask of their delivery workflows; temporal/webhooks.ts implements it. */
export type WebhookWorkflows = {
  /** Queues one delivery on the resource's `webhook-delivery:<endpoint>:<resource>` workflow. */
  enqueueDelivery(
    target: { endpointId: string; resourceId: string },
    request: WebhookDeliveryRequest,
  ): Promise<void>;
  /** Hands a dispatch's events, in outbox order, to the endpoint's delivery workflow. */
  enqueueEndpointBatch(endpointId: string, batch: WebhookDeliveryTarget[]): Promise<void>;
  /** Starts the deployment's outbox dispatcher unless it runs; `true` when it was started. */
  ensureDispatcher(): Promise<boolean>;
};

const notFound = () => new AppError('ResourceNotFound', 'Webhook endpoint not found');

async function requireManager(db: Db, caller: Caller, organizationId: string) {
  const access = await organizationAccess(db, caller, organizationId, ORGANIZATION_MANAGERS);
  if (access === 'none') throw notFound();
  if (access === 'read') {
    throw new AppError('NotPermitted', 'Only owners and admins can manage webhooks.');
  }
}

/** A token acts for its organization; a signed-in user names one of theirs. */
function organizationOf(caller: Caller, organizationId: string | null | undefined): string {
  if (organizationId) return organizationId;
  if (caller.kind === 'organization_access_token') return caller.organizationId;
  throw new InvalidFieldError(
    ['body', 'organization_id'],
    'organization_id is required unless you use an organization token.',
    'missing',
  );
}

export async function createWebhookEndpoint(
  db: Db,
  targets: Pick<WebhookSender, 'checkTarget'>,
  caller: Caller,
  input: WebhookEndpointCreate,
) {
  const organizationId = organizationOf(caller, input.organization_id);
  const access = await organizationAccess(db, caller, organizationId, ORGANIZATION_MANAGERS);
  if (access === 'none') throw new AppError('ResourceNotFound', 'Organization not found');
  if (access === 'read') {
    throw new AppError('NotPermitted', 'Only owners and admins can manage webhooks.');
  }
  await assertDeliverable(targets, input.url);
  const row = await insertWebhookEndpoint(db, {
    organizationId,
    url: input.url,
    format: input.format,
    secret: input.secret ?? generateWebhookSecret(),
    events: input.events,
  });
  return webhookEndpointView(row);
}

export async function listWebhookEndpoints(db: Db, caller: Caller, query: WebhookEndpointListQuery) {
  const accessible = await accessibleOrganizationIds(db, caller);
  const ids = query.organization_id
    ? accessible.filter((id) => query.organization_id!.includes(id))
    : accessible;
  const [rows, total] = await queryEndpoints(db, ids, pageToSkipTake(query));
  return paginated(rows.map(webhookEndpointView), total, query);
}

async function findAccessibleEndpoint(db: Db, caller: Caller, id: string) {
  const row = await findWebhookEndpoint(db, id, await accessibleOrganizationIds(db, caller));
  if (!row) throw notFound();
  return row;
}

export async function getWebhookEndpoint(db: Db, caller: Caller, id: string) {
  return webhookEndpointView(await findAccessibleEndpoint(db, caller, id));
}

export async function updateWebhookEndpoint(
  db: Db,
  targets: Pick<WebhookSender, 'checkTarget'>,
  caller: Caller,
  id: string,
  input: WebhookEndpointUpdate,
) {
  const row = await findAccessibleEndpoint(db, caller, id);
  await requireManager(db, caller, row.organizationId);
  if (input.url) await assertDeliverable(targets, input.url);
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
  return webhookEndpointView(updated);
}

export async function deleteWebhookEndpoint(db: Db, caller: Caller, id: string) {
  const row = await findAccessibleEndpoint(db, caller, id);
  await requireManager(db, caller, row.organizationId);
  // Its events and attempts go with it; delivery workflows still queued find nothing and stop.
  await deleteEndpointRow(db, { id, organizationId: row.organizationId });
}

export async function listWebhookDeliveries(db: Db, caller: Caller, query: WebhookDeliveryListQuery) {
  const organizationIds = await accessibleOrganizationIds(db, caller);
  const [rows, total] = await queryDeliveries(
    db,
    { organizationIds, endpointIds: query.endpoint_id },
    pageToSkipTake(query),
  );
  return paginated(rows.map(webhookDeliveryView), total, query);
}

// ---- delivery workflows ----

/**
 * Re-sends one webhook event to its endpoint, from the first attempt of the retry schedule, even
 * when it was delivered before. The new round is committed before the workflow hears of it, so a
 * failure in between answers an error and the caller asks again.
 */
export async function redeliverWebhookEvent(db: Db, workflows: WebhookWorkflows, caller: Caller, id: string) {
  const event = await findWebhookEvent(db, id, await accessibleOrganizationIds(db, caller));
  if (!event) throw new AppError('ResourceNotFound', 'Webhook event not found');
  await requireManager(db, caller, event.organizationId);
  const round = randomUUID();
  await startWebhookEventRound(db, { id, organizationId: event.organizationId, round });
  await workflows.enqueueDelivery(event, { webhookEventId: id, round });
}

/** Runs `work` on every item, at most `concurrency` at a time. */
async function forEachConcurrently<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>) {
  const pending = [...items];
  const worker = async () => {
    for (let item = pending.shift(); item !== undefined; item = pending.shift()) await work(item);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, pending.length) }, worker));
}

/** Endpoints signalled at once while dispatching: distinct workflows, so their order does not matter. */
const DISPATCH_SIGNAL_CONCURRENCY = 32;
/** Outbox events fanned out per dispatch: each endpoint gets a batch's events in one signal. */
export const DISPATCH_BATCH_SIZE = 500;

/**
 * Fans out the oldest undispatched outbox events: one webhook event per subscribed, enabled
 * endpoint, and per endpoint one signal carrying them in outbox order to that endpoint's workflow.
 * Every step is repeatable — rows are unique per (event, endpoint), an event sent twice finds its
 * attempt recorded — so a crash anywhere before `dispatched_at` is set only means the next run does
 * the same again.
 */
export async function dispatchOutboxEvents(
  db: Db,
  workflows: WebhookWorkflows,
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
        payload: formatWebhookBody(endpoint.format as WebhookFormat, payload),
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

/**
 * Resources of one endpoint sent to at once; each resource's own events go one after the other.
 * (One workflow per event used to allow the worker's 100 concurrent activities.)
 */
const DELIVERY_CONCURRENCY = 64;
/** Attempts recorded together: also at most how many are sent again when a worker dies mid-call. */
const RECORD_EVERY = 100;

type BatchAttempt = {
  event: { id: string; organizationId: string };
  round: string;
  answer: HttpAnswer;
  durationMs: number;
  kind: AttemptOutcome;
};

/**
 * The first attempt of every event of a batch for one endpoint, resources side by side and each
 * resource's events in order. An event that fails it, and every later event about the same
 * resource, continues on the resource's own workflow (`webhook-delivery:<endpoint>:<resource>`),
 * which finds the first attempt recorded and retries on the schedule. A resource that already has
 * an unfinished event there queues behind it, so a receiver never sees a later state before an
 * earlier one. After a 410 Gone nothing more is sent, nor once the endpoint is found disabled (it
 * is looked at again every hundred attempts).
 *
 * The events' rows are read and their attempts recorded a hundred at a time rather than in several
 * statements per event; a worker dying between sending and recording means those are sent again
 * (with the same `webhook-id`s), as a retried attempt activity would send its one again. Events
 * move to their resource's workflow only once the call recorded everything.
 */
export async function deliverWebhookEventBatch(
  db: Db,
  workflows: WebhookWorkflows,
  sender: WebhookSender,
  input: { endpointId: string; requests: WebhookDeliveryTarget[] },
  onAttempt: () => void = () => undefined,
): Promise<{ delivered: number; queued: number }> {
  const ids = input.requests.map((request) => request.webhookEventId);
  const events = new Map((await findWebhookEventsForDelivery(db, ids)).map((event) => [event.id, event]));
  const recorded = new Map(
    (await findFirstAttempts(db, ids)).map((attempt) => [
      `${attempt.webhookEventId}:${attempt.round}`,
      attempt,
    ]),
  );
  const groups = new Map<string, WebhookDeliveryTarget[]>();
  for (const request of input.requests) {
    // A deleted endpoint takes its events along: nothing is left to send.
    if (!events.has(request.webhookEventId)) continue;
    const group = groups.get(request.resourceId) ?? [];
    group.push(request);
    groups.set(request.resourceId, group);
  }
  const [first] = events.values();
  if (!first) return { delivered: 0, queued: 0 };

  const latest = new Map<string, number>();
  for (const event of events.values()) {
    latest.set(event.resourceId, Math.max(latest.get(event.resourceId) ?? 0, event.createdAt.getTime()));
  }
  const unfinished = await listPendingEventsOfResources(db, {
    organizationId: first.organizationId,
    endpointId: input.endpointId,
    resourceIds: [...groups.keys()],
    exceptIds: [...events.keys()],
  });
  // Unfinished events about these resources created no later than this call's: on a resource's own
  // workflow, or of the same dispatch but left for the endpoint's next call. Either way the resource's
  // events here queue behind them, on the resource's workflow.
  const behind = new Set(
    unfinished
      .filter((event) => event.createdAt.getTime() <= (latest.get(event.resourceId) ?? 0))
      .map((event) => event.resourceId),
  );

  const made: BatchAttempt[] = [];
  // Cleared by a 410 Gone (the endpoint is being disabled), or when the seller disabled it meanwhile.
  let sending = first.endpoint.enabled;
  const firstAttempt = async ({ webhookEventId, round }: WebhookDeliveryRequest) => {
    const event = events.get(webhookEventId)!;
    // The round moved on (a redelivery took over it): nothing to send here.
    if (event.round !== round) return null;
    // Sent before a crash: the recorded answer stands.
    const earlier = recorded.get(`${webhookEventId}:${round}`);
    if (earlier) return attemptOutcome(earlier.httpCode);
    // Events of a disabled endpoint stay unsent, as the per-resource workflow leaves them.
    if (event.status !== 'pending' || !sending) return null;
    const { answer, durationMs } = await sendWebhook(sender, event, event.endpoint);
    onAttempt();
    const kind = attemptOutcome(answer.httpCode);
    if (kind === 'gone') sending = false;
    made.push({ event, round, answer, durationMs, kind });
    if (made.length >= RECORD_EVERY) {
      await recordFirstAttempts(db, input.endpointId, made.splice(0));
      if (!(await findEndpointState(db, input.endpointId))?.enabled) sending = false;
    }
    return kind;
  };

  const handOver: { resourceId: string; requests: WebhookDeliveryRequest[] }[] = [];
  await forEachConcurrently([...groups], DELIVERY_CONCURRENCY, async ([resourceId, requests]) => {
    const queued: WebhookDeliveryRequest[] = [];
    let queueing = behind.has(resourceId);
    for (const { webhookEventId, round } of requests) {
      if (!queueing) {
        const kind = await firstAttempt({ webhookEventId, round });
        if (kind !== 'failed' && kind !== 'gone') continue;
        queueing = true;
      }
      queued.push({ webhookEventId, round });
    }
    if (queued.length > 0) handOver.push({ resourceId, requests: queued });
  });

  await recordFirstAttempts(db, input.endpointId, made);
  await forEachConcurrently(handOver, DISPATCH_SIGNAL_CONCURRENCY, async ({ resourceId, requests }) => {
    for (const request of requests) {
      await workflows.enqueueDelivery({ endpointId: input.endpointId, resourceId }, request);
    }
  });
  return {
    delivered: made.filter((attempt) => attempt.kind === 'succeeded').length,
    queued: handOver.reduce((sum, { requests }) => sum + requests.length, 0),
  };
}

/** Attempt 1 of each event sent, and the events' state after it, in one transaction. */
async function recordFirstAttempts(db: Db, endpointId: string, made: BatchAttempt[]) {
  if (made.length === 0) return;
  await db.$transaction(async (tx) => {
    await insertDeliveryAttempts(
      tx,
      made.map(({ event, round, answer, durationMs, kind }) => ({
        organizationId: event.organizationId,
        webhookEventId: event.id,
        round,
        attempt: 1,
        succeeded: kind === 'succeeded',
        durationMs,
        ...answer,
      })),
    );
    // One statement per distinct outcome (in practice: 200, or a few failure codes).
    const outcomes = new Map<
      string,
      { round: string; succeeded: boolean; httpCode: number | null; ids: string[] }
    >();
    for (const { event, round, answer, kind } of made) {
      const succeeded = kind === 'succeeded';
      const key = `${round}:${succeeded}:${answer.httpCode}`;
      const outcome = outcomes.get(key) ?? { round, succeeded, httpCode: answer.httpCode, ids: [] };
      outcome.ids.push(event.id);
      outcomes.set(key, outcome);
    }
    let delivered = 0;
    for (const { round, succeeded, httpCode, ids } of outcomes.values()) {
      const updated = await recordWebhookEventsAttempt(tx, { ids, round, succeeded, httpCode });
      if (succeeded) delivered += updated.count;
    }
    if (delivered > 0) await resetConsecutiveFailures(tx, endpointId);
  });
}

export type DeliveryAttemptResult =
  | { kind: AttemptOutcome; httpCode: number | null }
  /** The round ended or was superseded, or the endpoint or event is gone: nothing to send. */
  | { kind: 'stale' }
  | { kind: 'endpoint_disabled' };

/** Signs and posts one webhook event, timing the answer. */
async function sendWebhook(
  sender: WebhookSender,
  event: { id: string; payload: string },
  endpoint: { url: string; secret: string },
): Promise<{ answer: HttpAnswer; durationMs: number }> {
  const started = performance.now();
  const answer = await sender.post(
    endpoint.url,
    webhookHeaders({
      // Standard Webhooks: the id stays the same across retries, so receivers can deduplicate.
      id: event.id,
      timestampSeconds: Math.floor(Date.now() / 1000),
      body: event.payload,
      secret: endpoint.secret,
    }),
    event.payload,
  );
  return { answer, durationMs: Math.round(performance.now() - started) };
}

/**
 * One HTTP attempt of one round, recorded under (event, round, attempt). A retried activity finds
 * the attempt it already made and answers its outcome instead of posting again.
 */
export async function attemptWebhookDelivery(
  db: Db,
  sender: WebhookSender,
  input: { webhookEventId: string; round: string; attempt: number },
): Promise<DeliveryAttemptResult> {
  const event = await findWebhookEventForDelivery(db, input.webhookEventId);
  if (!event || event.round !== input.round) return { kind: 'stale' };
  const recorded = await findDeliveryAttempt(db, input);
  if (recorded) return { kind: attemptOutcome(recorded.httpCode), httpCode: recorded.httpCode };
  if (event.status !== 'pending') return { kind: 'stale' };
  // A redelivery is the seller's explicit request and is sent even to a disabled endpoint.
  if (!event.endpoint.enabled && input.round === 'dispatch') return { kind: 'endpoint_disabled' };

  const { answer, durationMs } = await sendWebhook(sender, event, event.endpoint);
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

// ---- the dashboard's extensions: health, events with their attempts, test events ----

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
