import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from '../webhook-outbox/schemas.js';
import { apiVersionSchema } from '../platform/api-versions.js';
import {
  pageQuerySchema,
  queryListSchema,
  TEXT_MAX_LENGTH,
  textSchema,
  withTextRule,
} from '../platform/schemas.js';
import {
  DISABLED_CAUSES,
  ENDPOINT_HEALTH_STATUSES,
  isAllowedWebhookUrl,
  WEBHOOK_FORMATS,
  WEBHOOK_URL_MESSAGES,
} from './rules.js';

export const webhookFormatSchema = z.enum(WEBHOOK_FORMATS);
export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);

/** Not a URL and not https are two refusals, with two issue codes, so a form can say which. */
const urlSchema = withTextRule(
  z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      if (!URL.canParse(value)) {
        ctx.addIssue({
          code: 'invalid_format',
          format: 'url',
          input: value,
          message: WEBHOOK_URL_MESSAGES.notAUrl,
        });
      } else if (!isAllowedWebhookUrl(value)) {
        ctx.addIssue({ code: 'custom', input: value, message: WEBHOOK_URL_MESSAGES.notHttps });
      }
    }),
  { max: TEXT_MAX_LENGTH.url },
);
const secretSchema = textSchema({ max: 255, min: 1 });
const eventsSchema = z.array(webhookEventTypeSchema).transform((events) => [...new Set(events)]);

/** Polar's WebhookEndpointCreate; `secret` may be left out, then one is generated. */
const nameSchema = textSchema({ max: 255, min: 1, trim: true });

export const webhookEndpointCreateSchema = z.strictObject({
  url: urlSchema,
  name: nameSchema.nullable().optional(),
  format: webhookFormatSchema,
  secret: secretSchema.optional(),
  events: eventsSchema,
  organization_id: z.uuid().nullable().optional(),
  /** Left out: the version the creating request named, else the current one. */
  api_version: apiVersionSchema.optional(),
});

/** Polar's WebhookEndpointUpdate, plus `enabled` (newer Polar APIs) to turn a disabled endpoint back on. */
export const webhookEndpointUpdateSchema = z.strictObject({
  url: urlSchema.nullable().optional(),
  name: nameSchema.nullable().optional(),
  format: webhookFormatSchema.nullable().optional(),
  /** Applies to events made from now on; those already made keep theirs, redeliveries included. */
  api_version: apiVersionSchema.nullable().optional(),
  secret: secretSchema.nullable().optional(),
  events: eventsSchema.nullable().optional(),
  enabled: z.boolean().nullable().optional(),
});

/**
 * Polar's WebhookEndpoint. The secret is shown to whoever may read the endpoint, as Polar's
 * current API does (its SDKs require it): the receiver needs it to check signatures.
 */
export const webhookEndpointSchema = z.object({
  created_at: z.iso.datetime({ offset: true }),
  modified_at: z.iso.datetime({ offset: true }).nullable(),
  id: z.uuid(),
  url: z.string(),
  name: z.string().nullable(),
  api_version: z.string(),
  format: webhookFormatSchema,
  secret: z.string(),
  organization_id: z.uuid(),
  events: z.array(webhookEventTypeSchema),
  enabled: z.boolean(),
  // Signatures use the whole secret's UTF-8 bytes as the key (Polar's original HMAC), which
  // every SDK's validateEvent accepts.
  uses_standard_webhook_signature: z.boolean(),
});

/** Polar's WebhookEvent: one event for one endpoint; `payload` is the body exactly as sent. */
export const webhookEventSchema = z.object({
  created_at: z.iso.datetime({ offset: true }),
  modified_at: z.iso.datetime({ offset: true }).nullable(),
  id: z.uuid(),
  last_http_code: z.number().int().nullable(),
  succeeded: z.boolean().nullable(),
  // Every event is sent: none is skipped, and none is archived (Polar archives old payloads).
  skipped: z.boolean(),
  payload: z.string().nullable(),
  type: webhookEventTypeSchema,
  is_archived: z.boolean(),
  api_version: z.string(),
});

/** Polar's WebhookDelivery: one HTTP attempt; the attempt's duration, answer excerpt and error are additions. */
export const webhookDeliverySchema = z.object({
  created_at: z.iso.datetime({ offset: true }),
  modified_at: z.iso.datetime({ offset: true }).nullable(),
  id: z.uuid(),
  http_code: z.number().int().nullable(),
  succeeded: z.boolean(),
  duration_ms: z.number().int().min(0),
  response: z.string().nullable(),
  error: z.string().nullable(),
  webhook_event: webhookEventSchema,
});

/** A filter Polar accepts once or repeated (`?endpoint_id=a&endpoint_id=b`). */
const oneOrManyUuids = queryListSchema(z.uuid()).optional();

export const webhookEndpointListQuerySchema = pageQuerySchema.extend({ organization_id: oneOrManyUuids });
export const webhookDeliveryListQuerySchema = pageQuerySchema.extend({ endpoint_id: oneOrManyUuids });

export const webhookIdParamsSchema = z.object({
  id: z.uuid({ message: 'Input should be a valid UUID' }),
});

export type WebhookEndpointCreate = z.infer<typeof webhookEndpointCreateSchema>;
export type WebhookEndpointUpdate = z.infer<typeof webhookEndpointUpdateSchema>;
export type WebhookEndpointResponse = z.infer<typeof webhookEndpointSchema>;
export type WebhookDeliveryResponse = z.infer<typeof webhookDeliverySchema>;
export type WebhookEndpointListQuery = z.infer<typeof webhookEndpointListQuerySchema>;
export type WebhookDeliveryListQuery = z.infer<typeof webhookDeliveryListQuerySchema>;

// ---- extensions for the dashboard: endpoint health, events with their attempts, test events ----

const instant = z.iso.datetime({ offset: true });

/** An endpoint's health over the last `window_days` days of attempts (our extension). */
export const webhookEndpointHealthSchema = z.object({
  endpoint_id: z.uuid(),
  status: z.enum(ENDPOINT_HEALTH_STATUSES),
  window_days: z.number().int().positive(),
  attempts: z.number().int().min(0),
  succeeded_attempts: z.number().int().min(0),
  /** Between 0 and 1; null without attempts in the window. */
  success_rate: z.number().min(0).max(1).nullable(),
  consecutive_failed_events: z.number().int().min(0),
  failed_events_to_disable: z.number().int().positive(),
  last_failure: z
    .object({ at: instant, http_code: z.number().int().nullable(), error: z.string().nullable() })
    .nullable(),
  disabled_at: instant.nullable(),
  disabled_reason: z.enum(DISABLED_CAUSES).nullable(),
});

/** One HTTP attempt of an event; `attempt` counts from 1 in each round (a redelivery starts one). */
export const webhookAttemptSchema = z.object({
  id: z.uuid(),
  created_at: instant,
  attempt: z.number().int().positive(),
  redelivery: z.boolean(),
  http_code: z.number().int().nullable(),
  succeeded: z.boolean(),
  duration_ms: z.number().int().min(0),
  response: z.string().nullable(),
  error: z.string().nullable(),
});

/** One event sent to one endpoint with its attempts, oldest first (our extension). */
export const webhookEndpointEventSchema = z.object({
  id: z.uuid(),
  created_at: instant,
  type: webhookEventTypeSchema,
  status: z.enum(['pending', 'succeeded', 'failed']),
  /** Sent by "send test event", not by a change. */
  test: z.boolean(),
  last_http_code: z.number().int().nullable(),
  /** When the next retry is due (±10 %), null when none is scheduled. */
  next_attempt_at: instant.nullable(),
  payload: z.string(),
  attempts: z.array(webhookAttemptSchema),
});

export const webhookEndpointEventListQuerySchema = pageQuerySchema;
export const webhookHealthListQuerySchema = webhookEndpointListQuerySchema;

export type WebhookEndpointHealth = z.infer<typeof webhookEndpointHealthSchema>;
export type WebhookEndpointEvent = z.infer<typeof webhookEndpointEventSchema>;
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;
export type WebhookEndpointEventListQuery = z.infer<typeof webhookEndpointEventListQuerySchema>;
