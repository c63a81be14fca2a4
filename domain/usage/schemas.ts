import { z } from 'zod';
import { customerSchema } from '../customers/schemas.js';
import { metadataInputSchema, metadataQuerySchema, metadataSchema } from '../metadata/schemas.js';
import {
  oneOrManyUuids,
  pageQuerySchema,
  queryListSchema,
  sortingSchema,
  TEXT_MAX_LENGTH,
  textSchema,
} from '../platform/schemas.js';

// Usage events, meter quantities and customer meters as @polar-sh/sdk@0.33.2 reads them, and
// event types as 0.48.1 does.

/** Events one ingest call takes (Polar has no limit; ours keeps one call one statement). */
export const EVENTS_PER_INGEST = 1000;

export const EVENT_SOURCES = ['user', 'system'] as const;
export const eventSourceSchema = z.enum(EVENT_SOURCES);
export type EventSource = z.infer<typeof eventSourceSchema>;

/** Event names are the seller's words (`api_call`, `tokens`); long enough for a dotted path. */
const eventNameSchema = textSchema({ min: 1, max: TEXT_MAX_LENGTH.name });
const externalIdSchema = textSchema({ min: 1, max: 256 });

/**
 * One event of an ingest: for a customer by id or by the seller's external id (exactly one of the
 * two, checked with the rest of the batch so that one 422 lists every bad event).
 */
export const eventInputSchema = z.strictObject({
  name: eventNameSchema,
  timestamp: z.iso.datetime({ offset: true }).optional(),
  metadata: metadataInputSchema.optional(),
  organization_id: z.uuid().nullable().optional(),
  customer_id: z.uuid().optional(),
  external_customer_id: externalIdSchema.optional(),
  external_id: externalIdSchema.optional().meta({
    description:
      'Tollgate extension: your id for this event. Ingesting an id already ingested inserts nothing, so a retried call never counts an event twice.',
    'x-tollgate': true,
  }),
});

export type EventInput = z.infer<typeof eventInputSchema>;

export const eventsIngestSchema = z.strictObject({
  events: z
    .array(eventInputSchema)
    .max(EVENTS_PER_INGEST, `At most ${EVENTS_PER_INGEST} events per call; send the rest in another call.`),
});

export type EventsIngest = z.infer<typeof eventsIngestSchema>;

export const eventsIngestResponseSchema = z.object({ inserted: z.number().int().min(0) });

export const eventSchema = z.object({
  id: z.uuid(),
  timestamp: z.iso.datetime({ offset: true }),
  organization_id: z.uuid(),
  customer_id: z.uuid().nullable(),
  customer: customerSchema.nullable(),
  external_customer_id: z.string().nullable(),
  /** What the dashboard calls the event: its name until a seller can label event names. */
  label: z.string(),
  name: z.string(),
  source: eventSourceSchema,
  metadata: metadataSchema,
});

export type Event = z.infer<typeof eventSchema>;

/** Whose events a list reads: the organizations', and the customers' by id or by external id. */
const eventOwnerFilters = {
  organization_id: oneOrManyUuids.optional(),
  customer_id: oneOrManyUuids.optional(),
  external_customer_id: queryListSchema(externalIdSchema).optional(),
};

export const EVENT_SORT_FIELDS = ['timestamp', '-timestamp'] as const;

export const eventListQuerySchema = pageQuerySchema.extend({
  filter: textSchema({ max: 10_000 })
    .optional()
    .meta({ description: 'A meter filter as JSON: only the events it matches.' }),
  start_timestamp: z.iso.datetime({ offset: true }).optional(),
  end_timestamp: z.iso.datetime({ offset: true }).optional(),
  ...eventOwnerFilters,
  meter_id: z.uuid().optional(),
  name: queryListSchema(eventNameSchema).optional(),
  source: queryListSchema(eventSourceSchema).optional(),
  metadata: metadataQuerySchema.optional(),
  sorting: sortingSchema(EVENT_SORT_FIELDS),
});

export type EventListQuery = z.infer<typeof eventListQuerySchema>;

/** What the events of one name add up to, in the lists of names and of event types. */
const eventNameStats = {
  source: eventSourceSchema,
  occurrences: z.number().int(),
  first_seen: z.iso.datetime({ offset: true }),
  last_seen: z.iso.datetime({ offset: true }),
};

export const eventNameSchemaOut = z.object({ name: z.string(), label: z.string(), ...eventNameStats });

export const EVENT_NAME_SORT_FIELDS = [
  'name',
  '-name',
  'occurrences',
  '-occurrences',
  'first_seen',
  '-first_seen',
  'last_seen',
  '-last_seen',
] as const;

export const eventNamesQuerySchema = pageQuerySchema.extend({
  ...eventOwnerFilters,
  source: queryListSchema(eventSourceSchema).optional(),
  query: textSchema({ max: TEXT_MAX_LENGTH.name }).optional(),
  sorting: sortingSchema(EVENT_NAME_SORT_FIELDS),
});

export type EventNamesQuery = z.infer<typeof eventNamesQuerySchema>;

// Event types as @polar-sh/sdk@0.48.1 reads them (components/eventtype.ts, eventtypewithstats.ts,
// eventtypeupdate.ts; operations/eventtypeslist.ts): a user event name with a label of the seller's.

export const eventTypeSchema = z.object({
  created_at: z.iso.datetime({ offset: true }),
  modified_at: z.iso.datetime({ offset: true }).nullable(),
  id: z.uuid(),
  name: z.string(),
  label: z.string(),
  label_property_selector: z.string().nullable(),
  organization_id: z.uuid(),
});
export type EventType = z.infer<typeof eventTypeSchema>;

/** A name with its events' statistics; system names have no row of their own (id null). */
export const eventTypeWithStatsSchema = z.object({
  id: z.uuid().nullable(),
  created_at: z.iso.datetime({ offset: true }).nullable(),
  modified_at: z.iso.datetime({ offset: true }).nullable(),
  name: z.string(),
  label: z.string(),
  label_property_selector: z.string().nullable(),
  organization_id: z.uuid(),
  ...eventNameStats,
});
export type EventTypeWithStats = z.infer<typeof eventTypeWithStatsSchema>;

export const EVENT_TYPE_SORT_FIELDS = [
  'name',
  '-name',
  'label',
  '-label',
  'occurrences',
  '-occurrences',
  'first_seen',
  '-first_seen',
  'last_seen',
  '-last_seen',
] as const;

export const eventTypesQuerySchema = pageQuerySchema.extend({
  ...eventOwnerFilters,
  query: textSchema({ max: TEXT_MAX_LENGTH.name })
    .optional()
    .meta({ description: 'Only the names or labels holding this text (any case).' }),
  // Tollgate's events have no parents: every event is a root one, and none has this parent.
  root_events: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
  parent_id: z.uuid().optional(),
  source: eventSourceSchema.optional(),
  sorting: sortingSchema(EVENT_TYPE_SORT_FIELDS),
});
export type EventTypesQuery = z.infer<typeof eventTypesQuerySchema>;

export const eventTypeUpdateSchema = z.strictObject({
  label: textSchema({ min: 1, max: TEXT_MAX_LENGTH.name }),
  label_property_selector: textSchema({ min: 1, max: TEXT_MAX_LENGTH.name }).nullable().optional(),
});
export type EventTypeUpdate = z.infer<typeof eventTypeUpdateSchema>;

export const TIME_INTERVALS = ['hour', 'day', 'week', 'month', 'year'] as const;
export const timeIntervalSchema = z.enum(TIME_INTERVALS);
export type TimeInterval = z.infer<typeof timeIntervalSchema>;

export const meterQuantitiesQuerySchema = z.object({
  start_timestamp: z.iso.datetime({ offset: true }),
  end_timestamp: z.iso.datetime({ offset: true }),
  interval: timeIntervalSchema,
  customer_id: oneOrManyUuids.optional(),
  external_customer_id: queryListSchema(externalIdSchema).optional(),
  timezone: textSchema({ min: 1, max: 64 }).optional().meta({
    description:
      'Tollgate extension: the IANA time zone the buckets start in (days, weeks, months and years begin at its midnight). UTC when absent.',
    'x-tollgate': true,
  }),
});

export type MeterQuantitiesQuery = z.infer<typeof meterQuantitiesQuerySchema>;

export const meterQuantitiesSchema = z.object({
  quantities: z.array(z.object({ timestamp: z.iso.datetime({ offset: true }), quantity: z.number() })),
  total: z.number(),
});

export type MeterQuantities = z.infer<typeof meterQuantitiesSchema>;
