// Sending webhook events: the first attempt of a dispatched batch, each later attempt of a round,
// and a failed round's end (the endpoint's failure streak, disabling it, telling its owners).
// The delivery workflows' activities call these; every attempt is recorded so a retry never posts twice.
import type { Db } from '../../infra/db.js';
import { boundedLabel, webhookAttempts, webhookDeliveryLag } from '../../infra/metrics.js';
import { listOrganizationMembersWithUsers } from '../access/repository.js';
import { hasAnyRole } from '../access/rules.js';
import { DISPATCH_SIGNAL_CONCURRENCY, forEachConcurrently } from './dispatch.js';
import {
  disableWebhookEndpoint,
  failWebhookEventRound,
  findDeliveryAttempt,
  findEndpointState,
  findFirstAttempts,
  findWebhookEventForDelivery,
  findWebhookEventsForDelivery,
  incrementConsecutiveFailures,
  insertDeliveryAttempt,
  insertDeliveryAttempts,
  listPendingEventsOfResources,
  recordWebhookEventAttempt,
  recordWebhookEventsAttempt,
  resetConsecutiveFailures,
} from './repository.js';
import {
  attemptOutcome,
  shouldDisableEndpoint,
  type AttemptOutcome,
  type WebhookDeliveryRequest,
  type WebhookDeliveryTarget,
} from './rules.js';
import type { HttpAnswer, WebhookSender, WebhookWorkflows } from './service.js';
import { webhookHeaders } from './signing.js';

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
    const { answer, durationMs } = await sendWebhook(sender, event, event.endpoint, 'first');
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
  event: { id: string; payload: string; apiVersion: string; createdAt: Date },
  endpoint: { url: string; secret: string; format: string },
  attempt: 'first' | 'retry',
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
      apiVersion: event.apiVersion,
    }),
    event.payload,
  );
  const format = boundedLabel(endpoint.format, ['raw', 'discord', 'slack'] as const);
  const outcome = attemptOutcome(answer.httpCode);
  webhookAttempts.inc({ format, outcome, attempt });
  // The event's row is made when the outbox event is dispatched: the outbox's own wait is its age gauge.
  if (outcome === 'succeeded')
    webhookDeliveryLag.observe({ format }, (Date.now() - event.createdAt.getTime()) / 1000);
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

  const { answer, durationMs } = await sendWebhook(
    sender,
    event,
    event.endpoint,
    input.attempt === 1 ? 'first' : 'retry',
  );
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
