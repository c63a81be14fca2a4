import {
  condition,
  continueAsNew,
  defineQuery,
  defineSignal,
  proxyActivities,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhooks.js';
import {
  MAX_ATTEMPTS,
  retryDelayMs,
  WEBHOOK_SIGNALS,
  type WebhookDeliveryRequest,
  type WebhookDeliveryTarget,
} from '../domain/webhooks/rules.js';
import { WAITING_FOR_QUERY } from '../domain/operators/rules.js';
import { operatorView, watchRound, type OperatorView } from './operators.js';

/** Longer than one attempt's 10 s HTTP timeout plus the database writes around it. */
const ATTEMPT_ACTIVITY_TIMEOUT = '30 seconds';
/** A delivery workflow with nothing queued lingers this long, so a burst about one resource reuses it. */
const DELIVERY_IDLE_TIMEOUT_MS = 60_000;
/** The dispatcher's activity watches the outbox this long before handing back to the workflow. */
const DISPATCH_WATCH_MS = 30_000;
const DISPATCH_ROUNDS_PER_RUN = 200;

// HTTP failures are outcomes, not exceptions: only database or Temporal hiccups are retried here.
const { attemptWebhookDelivery, recordWebhookEventFailure, notifyWebhookEndpointDisabled } =
  proxyActivities<WebhookActivities>({
    startToCloseTimeout: ATTEMPT_ACTIVITY_TIMEOUT,
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
  });

const { dispatchOutboxEvents } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '2 minutes',
  // A worker that dies mid-watch is noticed this fast, and the watch resumes on another worker.
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

const { deliverWebhookEvents } = proxyActivities<WebhookActivities>({
  // A batch of first attempts, each up to the 10 s HTTP timeout, resources side by side.
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

const { ensureWebhookDispatcher } = proxyActivities<WebhookActivities>({ startToCloseTimeout: '1 minute' });

export const enqueueWebhookEventSignal = defineSignal<[WebhookDeliveryRequest]>(WEBHOOK_SIGNALS.enqueue);
export const enqueueWebhookEventsSignal = defineSignal<[WebhookDeliveryTarget[]]>(
  WEBHOOK_SIGNALS.enqueueBatch,
);
/** What a resource's deliveries wait for, in words (docs/architecture.md, "Operators"). */
export const webhookDeliveryWaitingForQuery = defineQuery<string>(WAITING_FOR_QUERY);
/** What an endpoint's first attempts wait for, in words. */
export const webhookEndpointDeliveryWaitingForQuery = defineQuery<string>(WAITING_FOR_QUERY);
/** What the outbox dispatcher waits for, in words. */
export const webhookDispatcherWaitingForQuery = defineQuery<string>(WAITING_FOR_QUERY);

/** An idle delivery workflow's wait: it ends when nothing more comes. */
const IDLE_UNTIL = () => ({
  atMs: Date.now() + DELIVERY_IDLE_TIMEOUT_MS,
  then: 'this run ends (the next event starts another)',
});

export type WebhookDeliveryInput = {
  endpointId: string;
  resourceId: string;
  queue: WebhookDeliveryRequest[];
};
export type WebhookEventOutcome = 'succeeded' | 'failed' | 'skipped';

/** Every attempt of one round, on the retry schedule, until one succeeds or the schedule runs out. */
async function deliverRound(
  endpointId: string,
  request: WebhookDeliveryRequest,
  view: OperatorView,
): Promise<WebhookEventOutcome> {
  let lastError: string | null = null;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    const delay = retryDelayMs(attempt, Math.random());
    if (delay > 0) {
      view.status('retrying');
      view.waiting(
        'the next attempt at the endpoint',
        { atMs: Date.now() + delay, then: `attempt ${attempt} of ${MAX_ATTEMPTS} is sent` },
        `Event ${request.webhookEventId}: attempt ${attempt - 1} of ${MAX_ATTEMPTS} failed (${lastError ?? 'no answer'}).`,
      );
      await sleep(delay);
    }
    view.status('delivering');
    view.working(`sending event ${request.webhookEventId}, attempt ${attempt} of ${MAX_ATTEMPTS}`);
    const result = await attemptWebhookDelivery({ ...request, attempt });
    if (result.kind === 'succeeded') return 'succeeded';
    if (result.kind === 'failed') {
      lastError =
        result.httpCode === null ? 'no answer: timeout or connection error' : `HTTP ${result.httpCode}`;
    }
    if (result.kind === 'stale' || result.kind === 'endpoint_disabled') return 'skipped';
    if (result.kind === 'gone') return endRoundAsFailed(endpointId, request, true);
  }
  return endRoundAsFailed(endpointId, request, false);
}

async function endRoundAsFailed(
  endpointId: string,
  request: WebhookDeliveryRequest,
  gone: boolean,
): Promise<WebhookEventOutcome> {
  const { disabledAt } = await recordWebhookEventFailure({ ...request, endpointId, gone });
  if (disabledAt) await notifyWebhookEndpointDisabled({ endpointId, disabledAt });
  return 'failed';
}

/**
 * `webhook-delivery:<endpoint>:<resource>`: delivers the events about one resource to one endpoint,
 * one at a time in the order they were queued, so a receiver never sees `order.updated` before the
 * `order.created` it follows, even when the first needed retries. Events come here when their first
 * attempt (made by the endpoint's workflow, and found recorded here) failed, when an earlier event
 * about the resource is still here, and on redelivery. (DESIGN.md's per-event id could not promise
 * that order; this keeps its "until delivered or given up" per event, in a queue.) Ends once idle;
 * the next event starts it again.
 */
export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<void> {
  const queue = [...input.queue];
  setHandler(enqueueWebhookEventSignal, (request) => {
    queue.push(request);
  });
  const view = operatorView(webhookDeliveryWaitingForQuery);
  for (;;) {
    if (queue.length === 0) {
      view.status('idle');
      view.waiting(
        'more events about this resource',
        IDLE_UNTIL(),
        'Everything queued was delivered or given up.',
      );
      if (!(await condition(() => queue.length > 0, DELIVERY_IDLE_TIMEOUT_MS))) return;
    }
    const request = queue.shift()!;
    await deliverRound(input.endpointId, request, view);
    if (workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof webhookDeliveryWorkflow>({ ...input, queue });
    }
  }
}

/**
 * Events taken into one activity call. Batches may be split or joined: the activity also holds an
 * event back behind an unfinished one about its resource that was left for a later call.
 */
const MAX_EVENTS_PER_DELIVERY_CALL = 500;

export type WebhookEndpointDeliveryInput = { endpointId: string; batches: WebhookDeliveryTarget[][] };

/**
 * `webhook-delivery:<endpoint>`: makes the first attempt of every event the dispatcher sends this
 * endpoint, batch after batch in dispatch order, many resources at once in one activity call. A
 * Temporal workflow per event would cost several history writes per delivery; most deliveries
 * succeed at once, and those that do not move to their resource's workflow for the retries.
 * Ends once idle; the next batch starts it again.
 */
export async function webhookEndpointDeliveryWorkflow(input: WebhookEndpointDeliveryInput): Promise<void> {
  const batches = [...input.batches];
  setHandler(enqueueWebhookEventsSignal, (requests) => {
    batches.push(requests);
  });
  const view = operatorView(webhookEndpointDeliveryWaitingForQuery);
  for (;;) {
    if (batches.length === 0) {
      view.waiting('events for this endpoint', IDLE_UNTIL(), 'Every first attempt was made.');
      if (!(await condition(() => batches.length > 0, DELIVERY_IDLE_TIMEOUT_MS))) return;
    }
    const requests: WebhookDeliveryTarget[] = [];
    while (batches.length > 0 && requests.length < MAX_EVENTS_PER_DELIVERY_CALL) {
      const batch = batches[0]!;
      requests.push(...batch.splice(0, MAX_EVENTS_PER_DELIVERY_CALL - requests.length));
      if (batch.length === 0) batches.shift();
    }
    view.working(`making the first attempts of ${requests.length} events`, {
      reason: 'Events whose first attempt fails move to their resource’s workflow for the retries.',
    });
    await deliverWebhookEvents({ endpointId: input.endpointId, requests });
    if (workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof webhookEndpointDeliveryWorkflow>({ ...input, batches });
    }
  }
}

/**
 * `webhook-dispatcher:<task queue>`: drains the outbox for the whole deployment. Events commit with
 * their change; this workflow, which Temporal keeps alive across worker restarts, keeps asking an
 * activity to fan out whatever is undispatched. A worker dying at any point leaves the rows
 * undispatched and the activity is retried, so an event is delivered late, never lost.
 */
export async function webhookDispatcherWorkflow(): Promise<void> {
  const view = operatorView(webhookDispatcherWaitingForQuery);
  for (let round = 0; round < DISPATCH_ROUNDS_PER_RUN; round += 1) {
    watchRound(view, 'new events in the outbox', round, {
      roundMs: DISPATCH_WATCH_MS,
      rounds: DISPATCH_ROUNDS_PER_RUN,
      work: 'hands them to the endpoints’ delivery workflows',
    });
    await dispatchOutboxEvents({ watchMs: DISPATCH_WATCH_MS });
    if (workflowInfo().continueAsNewSuggested) break;
  }
  await continueAsNew<typeof webhookDispatcherWorkflow>();
}

/** Run by the `webhook-dispatcher-watchdog` schedule: restarts the dispatcher if it was ever stopped. */
export async function ensureWebhookDispatcherWorkflow(): Promise<{ started: boolean }> {
  return { started: await ensureWebhookDispatcher() };
}
