import { customerView } from '../customers/views.js';
import type { CustomerRow } from '../customers/repository.js';
import { readMetadata } from '../metadata/rules.js';
import type { EventNameRow, EventRecord } from './repository.js';
import { eventNameSchemaOut, eventSchema, type Event, type EventSource } from './schemas.js';

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
