// Usage events: ingestion, the events API and meter quantities (docs/usage.md).
import type { Db } from '../../infra/db.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import {
  accessibleOrganizationIds,
  assertCanManage,
  organizationAccess,
  organizationsToList,
} from '../access/service.js';
import { advanceFirstUserEvents, listCustomersByIds } from '../customers/repository.js';
import type { MetadataQuery } from '../metadata/rules.js';
import type { MeterCache } from '../meters/cache.js';
import { findMeter } from '../meters/repository.js';
import { aggregationSchema, filterSchema, type Filter } from '../meters/schemas.js';
import { filterIssues } from '../meters/rules.js';
import { AppError, InvalidFieldError, InvalidInputError, type FieldIssue } from '../platform/errors.js';
import { knownTimeZones } from '../platform/repository.js';
import { pageToSkipTake, paginated, parseSorting } from '../platform/rules.js';
import {
  findCustomersForEvents,
  findEventRow,
  findEventType,
  insertEvents,
  listEventTypeRows,
  updateEventTypeRow,
  listEventNameRows,
  listEventRows,
  meterQuantityRows,
  type EventCustomers,
  type EventRecord,
  type EventWhere,
  type NewEvent,
} from './repository.js';
import { eventInputIssues, rangeIssue } from './rules.js';
import type {
  Event,
  EventListQuery,
  EventNamesQuery,
  EventsIngest,
  EventType,
  EventTypesQuery,
  EventTypeUpdate,
  MeterQuantities,
  MeterQuantitiesQuery,
} from './schemas.js';
import { eventNameView, eventTypeView, eventTypeWithStatsView, eventView } from './views.js';
import { eventsIngested, eventsRejected } from '../../infra/metrics.js';

/**
 * `POST /v1/events/ingest`: all or nothing. Every event is checked (its organization, its customer,
 * its time) before any is written, and one 422 names every bad event by its index; then the batch
 * is one statement. An event whose `external_id` was ingested before is not inserted again.
 */
export async function ingestEvents(
  db: Db,
  caller: Caller,
  input: EventsIngest,
): Promise<{ inserted: number }> {
  const nowMs = Date.now();
  const issues: FieldIssue[] = [];
  const at = (index: number, field: string | null) => ['body', 'events', index, ...(field ? [field] : [])];
  const organizationOf = await organizationResolver(db, caller);
  const organizations = await Promise.all(input.events.map((event) => organizationOf(event.organization_id)));
  input.events.forEach((event, index) => {
    const organization = organizations[index]!;
    if ('refused' in organization) {
      issues.push({ loc: at(index, 'organization_id'), msg: organization.refused, type: 'value_error' });
    }
    for (const issue of eventInputIssues(event, index, nowMs)) {
      issues.push({ loc: at(index, issue.field), msg: issue.message, type: 'value_error' });
    }
  });

  const organizationIds = [
    ...new Set(organizations.flatMap((organization) => ('id' in organization ? [organization.id] : []))),
  ];
  const customers = await findCustomersForEvents(
    db.sql,
    organizationIds,
    [...new Set(input.events.flatMap((event) => (event.customer_id ? [event.customer_id] : [])))],
    [
      ...new Set(
        input.events.flatMap((event) => (event.external_customer_id ? [event.external_customer_id] : [])),
      ),
    ],
  );
  // Looked up per event by organization and id, or organization and external id.
  const byKey = new Map<string, (typeof customers)[number]>();
  for (const customer of customers) {
    byKey.set(`${customer.organizationId} id ${customer.id}`, customer);
    if (customer.externalId)
      byKey.set(`${customer.organizationId} external ${customer.externalId}`, customer);
  }
  const rows: NewEvent[] = [];
  input.events.forEach((event, index) => {
    const organization = organizations[index]!;
    if (!('id' in organization)) return;
    const customer = byKey.get(
      event.customer_id
        ? `${organization.id} id ${event.customer_id}`
        : `${organization.id} external ${event.external_customer_id}`,
    );
    if (event.customer_id && !customer) {
      issues.push({ loc: at(index, 'customer_id'), msg: 'Customer not found.', type: 'value_error' });
    }
    rows.push({
      organizationId: organization.id,
      name: event.name,
      source: 'user',
      timestamp: event.timestamp ? new Date(event.timestamp) : new Date(nowMs),
      customerId: customer?.id ?? null,
      externalCustomerId: event.external_customer_id ?? customer?.externalId ?? null,
      externalId: event.external_id ?? null,
      metadata: event.metadata ?? {},
    });
  });
  if (issues.length > 0) {
    eventsRejected.inc(input.events.length);
    throw new InvalidInputError(issues);
  }
  const inserted = await insertEvents(db.sql, rows);
  await advanceFirstUserEvents(db.sql, firstEventsOf(rows));
  eventsIngested.inc({ outcome: 'inserted' }, inserted);
  eventsIngested.inc({ outcome: 'duplicate' }, rows.length - inserted);
  return { inserted };
}

/** Each customer's earliest event of a batch (a replayed one changes nothing: it is no earlier). */
function firstEventsOf(rows: NewEvent[]): { customerId: string; at: Date }[] {
  const firsts = new Map<string, Date>();
  for (const row of rows) {
    if (!row.customerId) continue;
    const known = firsts.get(row.customerId);
    if (!known || row.timestamp < known) firsts.set(row.customerId, row.timestamp);
  }
  return [...firsts].map(([customerId, at]) => ({ customerId, at }));
}

type ResolvedOrganization = { id: string } | { refused: string };

/**
 * The organization an event is ingested into: an organization token's own (an event may name it,
 * not another), or for a signed-in user the one the event names, which they must manage.
 */
async function organizationResolver(db: Db, caller: Caller) {
  const decided = new Map<string, Promise<ResolvedOrganization>>();
  return (organizationId: string | null | undefined): Promise<ResolvedOrganization> => {
    if (caller.kind === 'organization_access_token') {
      return Promise.resolve(
        organizationId && organizationId !== caller.organizationId
          ? { refused: 'An organization access token can only ingest events into its own organization.' }
          : { id: caller.organizationId },
      );
    }
    if (!organizationId) {
      return Promise.resolve({ refused: 'organization_id is required when ingesting as a signed-in user.' });
    }
    let decision = decided.get(organizationId);
    if (!decision) {
      decision = organizationAccess(db, caller, organizationId, ORGANIZATION_MANAGERS).then(
        (access): ResolvedOrganization => {
          // A member who may only read is refused as every write of theirs is (403), not per event.
          if (access === 'read') throw new AppError('NotPermitted');
          return access === 'manage' ? { id: organizationId } : { refused: 'Organization not found.' };
        },
      );
      decided.set(organizationId, decision);
    }
    return decision;
  };
}

/** The `customers` filter of a read, when the query names customers by id or external id. */
function customersOf(query: { customer_id?: string[]; external_customer_id?: string[] }): {
  customers?: EventCustomers;
} {
  if (!query.customer_id && !query.external_customer_id) return {};
  return { customers: { ids: query.customer_id ?? [], externalIds: query.external_customer_id ?? [] } };
}

/** Events with their customers, read in one query for the page. */
async function eventViews(db: Db, rows: EventRecord[]): Promise<Event[]> {
  const customerIds = [...new Set(rows.flatMap((row) => (row.customerId ? [row.customerId] : [])))];
  const customers = customerIds.length > 0 ? await listCustomersByIds(db, customerIds) : [];
  const byId = new Map(customers.map((customer) => [customer.id, customer]));
  return rows.map((row) => eventView(row, row.customerId ? (byId.get(row.customerId) ?? null) : null));
}

function parsedFilter(text: string): Filter {
  const refuse = (message: string): never => {
    throw new InvalidFieldError(['query', 'filter'], message);
  };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return refuse('The filter is not valid JSON.');
  }
  const parsed = filterSchema.safeParse(json);
  if (!parsed.success) return refuse('The filter is not a meter filter ({conjunction, clauses}).');
  const issue = filterIssues(parsed.data)[0];
  if (issue) refuse(issue.message);
  return parsed.data;
}

export async function listEvents(
  db: Db,
  caller: Caller,
  query: EventListQuery & { metadata: MetadataQuery },
) {
  const organizationIds = await organizationsToList(db, caller, query.organization_id);
  const where: EventWhere = {
    organizationIds,
    ...(query.start_timestamp ? { startTimestamp: new Date(query.start_timestamp) } : {}),
    ...(query.end_timestamp ? { endTimestamp: new Date(query.end_timestamp) } : {}),
    ...customersOf(query),
    ...(query.name ? { names: query.name } : {}),
    ...(query.source ? { sources: query.source } : {}),
    ...(Object.keys(query.metadata).length > 0 ? { metadata: query.metadata } : {}),
  };
  const filters: Filter[] = [];
  if (query.filter) filters.push(parsedFilter(query.filter));
  if (query.meter_id) {
    const meter = await findMeter(db.sql, query.meter_id, organizationIds);
    if (!meter) throw new InvalidFieldError(['query', 'meter_id'], 'Meter not found.');
    filters.push(filterSchema.parse(meter.filter));
  }
  if (filters.length > 0) where.filter = { conjunction: 'and', clauses: filters };
  const direction = parseSorting<'timestamp'>(query.sorting ?? ['-timestamp'])[0]?.direction ?? 'desc';
  const { rows, total } = await listEventRows(db.sql, where, direction, pageToSkipTake(query));
  return paginated(await eventViews(db, rows), total, query);
}

export async function listEventNames(db: Db, caller: Caller, query: EventNamesQuery) {
  const organizationIds = await organizationsToList(db, caller, query.organization_id);
  const sorting = parseSorting<'name' | 'occurrences' | 'first_seen' | 'last_seen'>(
    query.sorting ?? ['-last_seen'],
  );
  const { rows, total } = await listEventNameRows(
    db.sql,
    {
      organizationIds,
      ...customersOf(query),
      ...(query.source ? { sources: query.source } : {}),
      ...(query.query ? { query: query.query } : {}),
    },
    sorting,
    pageToSkipTake(query),
  );
  return paginated(rows.map(eventNameView), total, query);
}

/**
 * `GET /v1/event-types/`: the names of the organizations' events with their statistics and
 * labels. Tollgate's events have no parents, so `root_events` leaves every event and a
 * `parent_id` none.
 */
export async function listEventTypes(db: Db, caller: Caller, query: EventTypesQuery) {
  const organizationIds = await organizationsToList(db, caller, query.organization_id);
  const sorting = parseSorting<'name' | 'label' | 'occurrences' | 'first_seen' | 'last_seen'>(
    query.sorting ?? ['-last_seen'],
  );
  const { rows, total } = await listEventTypeRows(
    db.sql,
    {
      organizationIds,
      ...customersOf(query),
      ...(query.source ? { sources: [query.source] } : {}),
      ...(query.query ? { query: query.query } : {}),
      ...(query.parent_id ? { none: true } : {}),
    },
    sorting,
    pageToSkipTake(query),
  );
  return paginated(rows.map(eventTypeWithStatsView), total, query);
}

/** `PATCH /v1/event-types/{id}`: its label, by the organization's managers (as ingestion is). */
export async function updateEventType(
  db: Db,
  caller: Caller,
  id: string,
  input: EventTypeUpdate,
): Promise<EventType> {
  const existing = await findEventType(db.sql, id, await accessibleOrganizationIds(db, caller));
  if (!existing) throw new AppError('ResourceNotFound', 'Event type not found');
  await assertCanManage(db, caller, existing.organizationId, ORGANIZATION_MANAGERS);
  const row = await updateEventTypeRow(db.sql, id, {
    label: input.label,
    ...(input.label_property_selector !== undefined
      ? { labelPropertySelector: input.label_property_selector }
      : {}),
  });
  return eventTypeView(row);
}

export async function getEvent(db: Db, caller: Caller, id: string): Promise<Event> {
  const row = await findEventRow(db.sql, id, await accessibleOrganizationIds(db, caller));
  if (!row) throw new AppError('ResourceNotFound', 'Event not found');
  return (await eventViews(db, [row]))[0]!;
}

/**
 * `GET /v1/meters/{id}/quantities`: the meter's quantity per bucket and its total over the range,
 * for all customers or those named; buckets in UTC or in the time zone asked for (our extension).
 */
export async function meterQuantities(
  db: Db,
  caller: Caller,
  meterId: string,
  query: MeterQuantitiesQuery,
  meters?: MeterCache,
): Promise<MeterQuantities> {
  const meter = await findMeter(db.sql, meterId, await accessibleOrganizationIds(db, caller), meters);
  if (!meter) throw new AppError('ResourceNotFound', 'Meter not found');
  const start = new Date(query.start_timestamp);
  const end = new Date(query.end_timestamp);
  const issue = rangeIssue(query.interval, start.getTime(), end.getTime());
  if (issue) throw new InvalidFieldError(['query', issue.field], issue.message);
  const timeZone = query.timezone ?? 'UTC';
  if (!(await knownTimeZones(db.sql)).has(timeZone)) {
    throw new InvalidFieldError(
      ['query', 'timezone'],
      `Unknown time zone: ${timeZone}. Use an IANA name such as Europe/Berlin.`,
    );
  }
  const { buckets, total } = await meterQuantityRows(db.sql, {
    where: {
      organizationIds: [meter.organizationId],
      filter: filterSchema.parse(meter.filter),
      ...customersOf(query),
    },
    aggregation: aggregationSchema.parse(meter.aggregation),
    interval: query.interval,
    timeZone,
    start,
    end,
  });
  return {
    quantities: buckets.map((bucket) => ({
      timestamp: bucket.timestamp.toISOString(),
      quantity: bucket.quantity,
    })),
    total,
  };
}
