import { customerView } from '../customers/views.js';
import type { CustomerRow } from '../customers/repository.js';
import { readMetadata } from '../metadata/rules.js';
import type { EventNameRow, EventRecord, EventTypeRecord, EventTypeStatsRow } from './repository.js';
import {
  eventNameSchemaOut,
  eventSchema,
  eventTypeSchema,
  eventTypeWithStatsSchema,
  type Event,
  type EventSource,
  type EventType,
  type EventTypeWithStats,
} from './schemas.js';

/** An event with its customer (when it has one and they were read with it). */
export function eventView(row: EventRecord, customer: CustomerRow | null): Event {
  return eventSchema.parse({
    id: row.id,
    timestamp: row.timestamp.toISOString(),
    organization_id: row.organizationId,
    customer_id: customer?.id ?? row.customerId,
    customer: customer ? customerView(customer) : null,
    external_customer_id: row.externalCustomerId,
    label: row.name,
    name: row.name,
    source: row.source as EventSource,
    metadata: readMetadata(row.metadata),
  });
}

export function eventNameView(row: EventNameRow) {
  return eventNameSchemaOut.parse({
    name: row.name,
    label: row.name,
    source: row.source,
    occurrences: row.occurrences,
    first_seen: row.firstSeen.toISOString(),
    last_seen: row.lastSeen.toISOString(),
  });
}

export function eventTypeView(row: EventTypeRecord): EventType {
  return eventTypeSchema.parse({
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    id: row.id,
    name: row.name,
    label: row.label,
    label_property_selector: row.labelPropertySelector,
    organization_id: row.organizationId,
  });
}

/** A name of the events with its statistics; without a type of its own (system names), labeled by its name. */
export function eventTypeWithStatsView(row: EventTypeStatsRow): EventTypeWithStats {
  return eventTypeWithStatsSchema.parse({
    id: row.type?.id ?? null,
    created_at: row.type?.createdAt.toISOString() ?? null,
    modified_at: row.type?.modifiedAt?.toISOString() ?? null,
    name: row.name,
    label: row.type?.label ?? row.name,
    label_property_selector: row.type?.labelPropertySelector ?? null,
    organization_id: row.organizationId,
    source: row.source,
    occurrences: row.occurrences,
    first_seen: row.firstSeen.toISOString(),
    last_seen: row.lastSeen.toISOString(),
  });
}
