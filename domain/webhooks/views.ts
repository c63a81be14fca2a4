import type { DeliveryRow, WebhookEndpointRow } from './repository.js';
import {
  webhookDeliverySchema,
  webhookEndpointSchema,
  type WebhookDeliveryResponse,
  type WebhookEndpointResponse,
} from './schemas.js';

export function webhookEndpointView(row: WebhookEndpointRow): WebhookEndpointResponse {
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
      payload: row.webhookEvent.payload,
    },
  });
}
