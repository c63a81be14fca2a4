// Outgoing webhooks: pure rules shared by the API, the activities and the workflows.
import type { ApiVersion } from '../platform/api-versions.js';
import type { WebhookEventType } from '../webhook-outbox/schemas.js';

export const WEBHOOK_FORMATS = ['raw', 'discord', 'slack'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/**
 * Delay before each attempt of one event: the Standard Webhooks schedule (immediately, 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h), about three days in all.
 */
export const RETRY_SCHEDULE_MS = [
  0,
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  14 * 3_600_000,
  20 * 3_600_000,
  24 * 3_600_000,
] as const;
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length;

/** ±10 %: endpoints that failed together (an outage) are not all retried in the same second. */
export const RETRY_JITTER_RATIO = 0.1;

/**
 * Delay before `attempt` (1-based). `random` is in [0, 1): in a workflow it is Temporal's seeded
 * Math.random, so replays wait exactly as long as the first run did.
 */
export function retryDelayMs(attempt: number, random: number): number {
  const base = RETRY_SCHEDULE_MS[attempt - 1];
  if (base === undefined) throw new RangeError(`attempt ${attempt} is outside 1..${MAX_ATTEMPTS}`);
  return Math.round(base * (1 + RETRY_JITTER_RATIO * (2 * random - 1)));
}

/** Per attempt: the receiver gets this long to answer (connect, headers and body). */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** How much of a receiver's answer each attempt keeps, for the seller to debug with. */
export const RESPONSE_EXCERPT_CHARS = 2048;

export type AttemptOutcome = 'succeeded' | 'gone' | 'failed';

/** 2xx delivers; 410 Gone says the receiver will never accept again; anything else is retried. */
export function attemptOutcome(httpCode: number | null): AttemptOutcome {
  if (httpCode === null) return 'failed';
  if (httpCode >= 200 && httpCode < 300) return 'succeeded';
  return httpCode === 410 ? 'gone' : 'failed';
}

/** An endpoint whose last 10 events each failed every retry is disabled. */
export const CONSECUTIVE_FAILED_EVENTS_TO_DISABLE = 10;

export function shouldDisableEndpoint(consecutiveFailedEvents: number): boolean {
  return consecutiveFailedEvents >= CONSECUTIVE_FAILED_EVENTS_TO_DISABLE;
}

export type DisabledReason = 'gone' | 'failing';

/**
 * Why an endpoint URL is refused, for the seller to act on: not a web address at all, or one that
 * is not https. The API's 422 and the dashboard's form say the same.
 */
export const WEBHOOK_URL_MESSAGES = {
  notAUrl: 'Enter a full web address, such as https://example.com/webhooks.',
  notHttps:
    'Use an address starting with https://: webhooks are sent over https only (http only to localhost or 127.0.0.1, for development).',
} as const;

/** `https:` anywhere; plain `http:` only to this machine, for development and tests. */
export function isAllowedWebhookUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return true;
  if (url.protocol !== 'http:') return false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** The outbox payload: the body Polar's SDK parses, `{ type, timestamp, data }`. */
export type OutboxPayload = { type: WebhookEventType; timestamp: string; data: Record<string, unknown> };

/**
 * An event's `data` as an API version shows it (docs/api-versions.md). The schemas of the resources
 * events carry sit above this domain, so the dispatcher's caller hands the renderer in.
 */
export type WebhookDataRenderer = (
  type: WebhookEventType,
  data: Record<string, unknown>,
  version: ApiVersion,
) => Record<string, unknown>;

/**
 * The resource an event is about (its `data.id`); events without one are their own resource.
 * Deliveries about one resource reach an endpoint in the order the events happened.
 */
export function resourceIdOf(payload: OutboxPayload, outboxEventId: string): string {
  const id = payload.data.id;
  return typeof id === 'string' && id.length > 0 ? id : outboxEventId;
}

const describeResource = (data: Record<string, unknown>): string => {
  for (const key of ['name', 'email', 'slug', 'id']) {
    const value = data[key];
    if (typeof value === 'string' && value.length > 0) return value;
  }
  return 'unknown';
};

/**
 * The body sent to an endpoint: the outbox payload itself (`raw`), or a chat message for Discord's
 * and Slack's incoming webhooks, which only accept their own message shapes.
 */
export function formatWebhookBody(format: WebhookFormat, payload: OutboxPayload, apiVersion: string): string {
  // Polar's envelope names the version its `data` is rendered in.
  if (format === 'raw') {
    return JSON.stringify({
      type: payload.type,
      timestamp: payload.timestamp,
      api_version: apiVersion,
      data: payload.data,
    });
  }
  const subject = describeResource(payload.data);
  const id = typeof payload.data.id === 'string' ? payload.data.id : null;
  if (format === 'discord') {
    return JSON.stringify({
      username: 'Tollgate',
      embeds: [
        {
          title: payload.type,
          description: subject,
          timestamp: payload.timestamp,
          ...(id ? { fields: [{ name: 'ID', value: id, inline: true }] } : {}),
        },
      ],
    });
  }
  return JSON.stringify({
    text: `${payload.type}: ${subject}`,
    blocks: [
      {
        type: 'section',
        text: { type: 'mrkdwn', text: `*${payload.type}*\n${subject}${id ? `\nID: \`${id}\`` : ''}` },
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: payload.timestamp }] },
    ],
  });
}

/** Keeps the start of a receiver's answer; the rest is of no use for debugging and only costs rows. */
export function excerpt(text: string, maxChars = RESPONSE_EXCERPT_CHARS): string {
  return text.length <= maxChars ? text : text.slice(0, maxChars);
}

export function webhookDeliveryWorkflowId(endpointId: string, resourceId: string): string {
  return `webhook-delivery:${endpointId}:${resourceId}`;
}

/**
 * `webhook-delivery:<endpoint>`: the first attempt of every event for one endpoint, in the batches
 * the dispatcher sends; the per-resource workflows above take over what needs retries.
 */
export function webhookEndpointDeliveryWorkflowId(endpointId: string): string {
  return `webhook-delivery:${endpointId}`;
}

/** One dispatcher per deployment (task queue): it alone drains the outbox. */
export function webhookDispatcherWorkflowId(taskQueue: string): string {
  return `webhook-dispatcher:${taskQueue}`;
}

export const WEBHOOK_SIGNALS = {
  enqueue: 'enqueueWebhookEvent',
  enqueueBatch: 'enqueueWebhookEvents',
} as const;

/** One round of delivery of one webhook event: `dispatch` first, a fresh id per redelivery. */
export type WebhookDeliveryRequest = { webhookEventId: string; round: string };

/** A webhook event as the dispatcher hands it to its endpoint's workflow. */
export type WebhookDeliveryTarget = WebhookDeliveryRequest & { resourceId: string };

// ---- endpoint health (the dashboard's badge and the endpoint page) ----

/** Health is measured over the attempts of this many days: recent enough to reflect a fix. */
export const HEALTH_WINDOW_DAYS = 7;
export const HEALTH_WINDOW_MS = HEALTH_WINDOW_DAYS * 24 * 3_600_000;

/** From this share of successful attempts on an endpoint counts as healthy; below the second, failing. */
export const HEALTHY_SUCCESS_RATE = 0.95;
export const FAILING_SUCCESS_RATE = 0.5;

export const ENDPOINT_HEALTH_STATUSES = ['healthy', 'degraded', 'failing', 'idle', 'disabled'] as const;
export type EndpointHealthStatus = (typeof ENDPOINT_HEALTH_STATUSES)[number];

/** Share of successful attempts, or null when there were none to judge by. */
export function successRate(attempts: number, succeeded: number): number | null {
  return attempts === 0 ? null : succeeded / attempts;
}

export function endpointHealthStatus(input: {
  enabled: boolean;
  attempts: number;
  succeeded: number;
}): EndpointHealthStatus {
  if (!input.enabled) return 'disabled';
  const rate = successRate(input.attempts, input.succeeded);
  if (rate === null) return 'idle';
  if (rate >= HEALTHY_SUCCESS_RATE) return 'healthy';
  return rate >= FAILING_SUCCESS_RATE ? 'degraded' : 'failing';
}

export const DISABLED_CAUSES = ['gone', 'failing', 'manual'] as const;
export type DisabledCause = (typeof DISABLED_CAUSES)[number];

/**
 * Why an endpoint is off. Delivery stores its reason (`gone`, `failing`) when it disables one; a
 * seller switching it off stores none, so a disabled endpoint without a reason was switched off.
 */
export function disabledCause(enabled: boolean, reason: DisabledReason | null): DisabledCause | null {
  if (enabled) return null;
  return reason ?? 'manual';
}

export const DISABLED_CAUSE_TEXT: Record<DisabledCause, string> = {
  gone: 'the receiver answered 410 Gone, which says it will never accept deliveries again',
  failing: `${CONSECUTIVE_FAILED_EVENTS_TO_DISABLE} events in a row failed every retry`,
  manual: 'someone in your organization switched it off',
};

/**
 * When the next attempt of an event is due, or null when none is: its round ended, its last attempt
 * succeeded, the schedule ran out, or a first delivery waits for a disabled endpoint. The workflow
 * draws ±10 % jitter (`RETRY_JITTER_RATIO`) around this time and may start later when the event
 * queues behind an earlier one about its resource. An event with no attempt yet has none to show:
 * its first attempt is being made, or it waits behind an earlier event about its resource.
 */
export function nextAttemptAt(input: {
  status: 'pending' | 'succeeded' | 'failed';
  round: string;
  endpointEnabled: boolean;
  lastAttempt: { attempt: number; succeeded: boolean; at: Date } | null;
}): Date | null {
  if (input.status !== 'pending') return null;
  if (!input.endpointEnabled && input.round === 'dispatch') return null;
  const last = input.lastAttempt;
  if (!last) return null;
  if (last.succeeded) return null;
  const delay = RETRY_SCHEDULE_MS[last.attempt];
  return delay === undefined ? null : new Date(last.at.getTime() + delay);
}

/** "Send test event" sends the organization as it is now, under a type every receiver accepts. */
export const TEST_EVENT_TYPE = 'organization.updated' satisfies WebhookEventType;
