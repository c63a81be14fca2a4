import type { DeliveryRow, EndpointEventRow, WebhookEndpointRow } from './repository.js';
import {
  CONSECUTIVE_FAILED_EVENTS_TO_DISABLE,
  disabledCause,
  endpointHealthStatus,
  HEALTH_WINDOW_DAYS,
  nextAttemptAt,
  successRate,
} from './rules.js';
import {
  webhookDeliverySchema,
  webhookEndpointEventSchema,
  webhookEndpointHealthSchema,
  webhookEndpointSchema,
  type WebhookDeliveryResponse,
  type WebhookEndpointEvent,
  type WebhookEndpointHealth,
  type WebhookEndpointResponse,
} from './schemas.js';

/**
 * `secretFor`: who reads it may manage the endpoint (its signing secret is theirs to set up a
 * receiver with); a member who may only read it reads an empty secret.
 */
export function webhookEndpointView(
  row: WebhookEndpointRow,
  secretFor: 'manager' | 'reader' = 'manager',
): WebhookEndpointResponse {
  return webhookEndpointSchema.parse({
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    id: row.id,
    url: row.url,
    name: row.name,
    api_version: row.apiVersion,
    format: row.format,
    secret: secretFor === 'manager' ? row.secret : '',
    organization_id: row.organizationId,
    events: row.events,
    enabled: row.enabled,
    uses_standard_webhook_signature: false,
  });
}

export function webhookDeliveryView(row: DeliveryRow): WebhookDeliveryResponse {
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
      skipped: false,
      payload: row.webhookEvent.payload,
      type: row.webhookEvent.type,
      is_archived: false,
      api_version: row.webhookEvent.apiVersion,
    },
  });
}

export function webhookEndpointHealthView(
  endpoint: WebhookEndpointRow,
  counts: { attempts: number; succeeded: number },
  lastFailure: { at: Date; httpCode: number | null; error: string | null } | null,
): WebhookEndpointHealth {
  return webhookEndpointHealthSchema.parse({
    endpoint_id: endpoint.id,
    status: endpointHealthStatus({ enabled: endpoint.enabled, ...counts }),
    window_days: HEALTH_WINDOW_DAYS,
    attempts: counts.attempts,
    succeeded_attempts: counts.succeeded,
    success_rate: successRate(counts.attempts, counts.succeeded),
    consecutive_failed_events: endpoint.consecutiveFailedEvents,
    failed_events_to_disable: CONSECUTIVE_FAILED_EVENTS_TO_DISABLE,
    last_failure: lastFailure
      ? { at: lastFailure.at.toISOString(), http_code: lastFailure.httpCode, error: lastFailure.error }
      : null,
    disabled_at: endpoint.enabled ? null : (endpoint.disabledAt?.toISOString() ?? null),
    disabled_reason: disabledCause(endpoint.enabled, endpoint.disabledReason),
  });
}

export function webhookEndpointEventView(
  row: EndpointEventRow,
  endpointEnabled: boolean,
): WebhookEndpointEvent {
  const current = row.deliveries.filter((delivery) => delivery.round === row.round);
  const last = current.reduce<(typeof current)[number] | null>(
    (latest, delivery) => (latest === null || delivery.attempt > latest.attempt ? delivery : latest),
    null,
  );
  const next = nextAttemptAt({
    status: row.status,
    round: row.round,
    endpointEnabled,
    lastAttempt: last ? { attempt: last.attempt, succeeded: last.succeeded, at: last.createdAt } : null,
  });
  return webhookEndpointEventSchema.parse({
    id: row.id,
    created_at: row.createdAt.toISOString(),
    type: row.type,
    status: row.status,
    test: row.outboxEvent.endpointId !== null,
    last_http_code: row.lastHttpCode,
    next_attempt_at: next?.toISOString() ?? null,
    payload: row.payload,
    attempts: row.deliveries.map((delivery) => ({
      id: delivery.id,
      created_at: delivery.createdAt.toISOString(),
      attempt: delivery.attempt,
      redelivery: delivery.round !== 'dispatch',
      http_code: delivery.httpCode,
      succeeded: delivery.succeeded,
      duration_ms: delivery.durationMs,
      response: delivery.response,
      error: delivery.error,
    })),
  });
}
