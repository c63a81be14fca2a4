// The `events` table, in plain SQL: ingestion writes a thousand rows per call and the meters
// aggregate millions, where Prisma's per-statement and per-row costs would dominate (docs/usage.md).
import { Prisma } from '../../generated/prisma/client.js';
import type { SqlClient } from '../../infra/db.js';
import { uuidv7 } from '../../infra/ids.js';
import { selectList } from '../../infra/sql.js';
import type { Aggregation, Filter, FilterClause } from '../meters/schemas.js';
import { aggregatedKey, clauseValueText, eventProperty } from './rules.js';
import type { EventSource, TimeInterval } from './schemas.js';

export type EventRecord = Prisma.EventGetPayload<object>;

/** Positional parameters of one statement, added as its text is built. */
export class QueryParameters {
  readonly values: unknown[] = [];
  add(value: unknown, cast = ''): string {
    this.values.push(value);
    return `$${this.values.length}${cast}`;
  }
}

export type NewEvent = Pick<
  EventRecord,
  'organizationId' | 'name' | 'source' | 'timestamp' | 'customerId' | 'externalCustomerId' | 'externalId'
> & { metadata: Record<string, unknown> };

/**
 * A batch in one statement (column arrays unnested, so a thousand events are nine parameters). An
 * event whose `externalId` was ingested before is skipped: the count says how many were new.
 */
export async function insertEvents(sql: SqlClient, events: NewEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const column = <T>(pick: (event: NewEvent) => T) => events.map(pick);
  const nowMs = Date.now();
  // The customers' meters are marked stale by the same statement, so no event is ever left uncounted.
  const { rows } = await sql.query<{ inserted: number }>(
    `WITH inserted AS (
       INSERT INTO events (id, organization_id, name, source, timestamp, customer_id, external_customer_id, external_id, metadata)
       SELECT * FROM unnest($9::uuid[], $1::uuid[], $2::text[], $3::text[], $4::timestamptz[], $5::uuid[], $6::text[], $7::text[], $8::jsonb[])
       ON CONFLICT (organization_id, external_id) WHERE external_id IS NOT NULL DO NOTHING
       RETURNING customer_id
     ), stale AS (
       INSERT INTO customer_meter_refreshes (customer_id)
       SELECT DISTINCT customer_id FROM inserted WHERE customer_id IS NOT NULL
     ), named AS (
       -- A name's first event makes its event type. In name order, so that two batches bringing
       -- the same new names wait for each other instead of deadlocking; an existing name writes nothing.
       INSERT INTO event_types (organization_id, name, label)
       SELECT DISTINCT organization_id, name, name FROM unnest($1::uuid[], $2::text[], $3::text[]) AS t(organization_id, name, source)
       WHERE source = 'user' ORDER BY organization_id, name
       ON CONFLICT (organization_id, name) DO NOTHING
     )
     SELECT count(*)::int AS inserted FROM inserted`,
    [
      column((event) => event.organizationId),
      column((event) => event.name),
      column((event) => event.source),
      column((event) => event.timestamp),
      column((event) => event.customerId),
      column((event) => event.externalCustomerId),
      column((event) => event.externalId),
      column((event) => JSON.stringify(event.metadata)),
      column(() => uuidv7(nowMs)),
    ],
  );
  return rows[0]!.inserted;
}

/** The organizations' live customers with these ids or external ids. */
export async function findCustomersForEvents(
  sql: SqlClient,
  organizationIds: string[],
  ids: string[],
  externalIds: string[],
): Promise<{ id: string; organizationId: string; externalId: string | null }[]> {
  if (ids.length === 0 && externalIds.length === 0) return [];
  const { rows } = await sql.query<{ id: string; organizationId: string; externalId: string | null }>(
    `SELECT id, organization_id AS "organizationId", external_id AS "externalId" FROM customers
     WHERE organization_id = ANY($1::uuid[]) AND deleted_at IS NULL
       AND (id = ANY($2::uuid[]) OR external_id = ANY($3::text[]))`,
    [organizationIds, ids, externalIds],
  );
  return rows;
}

export type EventWhere = {
  organizationIds: string[];
  startTimestamp?: Date;
  endTimestamp?: Date;
  /** The customers asked for, by id and by external id (each completed the other way in SQL). */
  customers?: EventCustomers;
  names?: string[];
  sources?: EventSource[];
  filter?: Filter;
  /** `?metadata[key]=value`: any of the values of each key. */
  metadata?: Record<string, string[]>;
};

export type EventCustomers = { ids: string[]; externalIds: string[] };

/**
 * The WHERE clause of a read of `events e`. A customer's events are those stored with their id,
 * and those sent for their external id before they had it (stored without a customer id).
 */
function whereClause(where: EventWhere, params: QueryParameters): string {
  const conditions = [`e.organization_id = ANY(${params.add(where.organizationIds, '::uuid[]')})`];
  if (where.startTimestamp) conditions.push(`e.timestamp >= ${params.add(where.startTimestamp)}`);
  if (where.endTimestamp) conditions.push(`e.timestamp <= ${params.add(where.endTimestamp)}`);
  if (where.names) conditions.push(`e.name = ANY(${params.add(where.names, '::text[]')})`);
  if (where.sources) conditions.push(`e.source = ANY(${params.add(where.sources, '::text[]')})`);
  if (where.customers) {
    // A customer's events are those stored with their id and those sent for their external id
    // before they had it (stored without an id), so each customer named one way is looked up the
    // other way too. The lookups are init plans, computed once into two arrays, so the planner
    // still ORs the customer index with the unattached events' one, in this one statement.
    const organizations = params.add(where.organizationIds, '::uuid[]');
    const ids = params.add(where.customers.ids, '::uuid[]');
    const externalIds = params.add(where.customers.externalIds, '::text[]');
    const named = `FROM customers c WHERE c.organization_id = ANY(${organizations})
                     AND (c.id = ANY(${ids}) OR c.external_id = ANY(${externalIds}))`;
    conditions.push(
      `(e.customer_id = ANY(${ids} || ARRAY(SELECT c.id ${named}))
        OR (e.customer_id IS NULL
            AND e.external_customer_id = ANY(${externalIds} || ARRAY(SELECT c.external_id ${named} AND c.external_id IS NOT NULL))))`,
    );
  }
  if (where.filter) conditions.push(`(${filterSql(where.filter, params)})`);
  for (const [key, values] of Object.entries(where.metadata ?? {})) {
    conditions.push(`e.metadata->>${params.add(key)} = ANY(${params.add(values, '::text[]')})`);
  }
  return conditions.join(' AND ');
}

/** A meter's filter as SQL over `events e`, exactly as `eventMatches` (rules.ts) reads it. */
export function filterSql(filter: Filter, params: QueryParameters): string {
  if (filter.clauses.length === 0) return 'TRUE';
  const parts = filter.clauses.map((entry) =>
    'operator' in entry ? clauseSql(entry, params) : `(${filterSql(entry, params)})`,
  );
  return parts.join(filter.conjunction === 'and' ? ' AND ' : ' OR ');
}

const SQL_OPERATORS = {
  eq: '=',
  ne: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  like: 'LIKE',
  not_like: 'NOT LIKE',
} as const;

function clauseSql(clause: FilterClause, params: QueryParameters): string {
  const { operator, value } = clause;
  const sqlOperator = SQL_OPERATORS[operator];
  const isLike = operator === 'like' || operator === 'not_like';
  const expectedText = () =>
    params.add(isLike ? `%${clauseValueText(value)}%` : clauseValueText(value), '::text');
  const property = eventProperty(clause.property);
  if ('column' in property) {
    return typeof value === 'string' ? `(e.${property.column} ${sqlOperator} ${expectedText()})` : 'FALSE';
  }
  const json = `(e.metadata->${params.add(property.metadataKey, '::text')})`;
  const text = `(${json}#>>'{}')`;
  if (isLike) {
    return `(jsonb_typeof(${json}) IN ('string', 'number', 'boolean') AND ${text} ${sqlOperator} ${expectedText()})`;
  }
  const asText = `${text} ${sqlOperator} ${expectedText()}`;
  const numeric =
    typeof value === 'string'
      ? 'FALSE'
      : `(${text})::numeric ${sqlOperator} ${params.add(Number(value), '::numeric')}`;
  const boolean =
    typeof value === 'boolean'
      ? `(${text})::boolean ${sqlOperator} ${params.add(value, '::boolean')}`
      : 'FALSE';
  return `(CASE jsonb_typeof(${json})
             WHEN 'string' THEN ${asText}
             WHEN 'number' THEN ${numeric}
             WHEN 'boolean' THEN ${boolean}
             ELSE FALSE END)`;
}

const EVENT_COLUMNS = selectList(Prisma.EventScalarFieldEnum, 'e');

export async function listEventRows(
  sql: SqlClient,
  where: EventWhere,
  order: 'asc' | 'desc',
  page: { skip: number; take: number },
): Promise<{ rows: EventRecord[]; total: number }> {
  const params = new QueryParameters();
  const clause = whereClause(where, params);
  const [{ rows }, counted] = await Promise.all([
    sql.query<EventRecord>(
      `SELECT ${EVENT_COLUMNS} FROM events e WHERE ${clause}
       ORDER BY e.timestamp ${order}, e.id ${order} LIMIT ${page.take} OFFSET ${page.skip}`,
      params.values,
    ),
    sql.query<{ total: string }>(`SELECT count(*) AS total FROM events e WHERE ${clause}`, params.values),
  ]);
  return { rows, total: Number(counted.rows[0]!.total) };
}

export async function findEventRow(
  sql: SqlClient,
  id: string,
  organizationIds: string[],
): Promise<EventRecord | null> {
  const { rows } = await sql.query<EventRecord>(
    `SELECT ${EVENT_COLUMNS} FROM events e WHERE e.id = $1::uuid AND e.organization_id = ANY($2::uuid[])`,
    [id, organizationIds],
  );
  return rows[0] ?? null;
}

export type EventNameRow = {
  name: string;
  source: EventSource;
  occurrences: number;
  firstSeen: Date;
  lastSeen: Date;
};

const NAME_SORTS = {
  name: 'name',
  occurrences: 'occurrences',
  first_seen: '"firstSeen"',
  last_seen: '"lastSeen"',
} as const;

export async function listEventNameRows(
  sql: SqlClient,
  where: EventWhere & { query?: string },
  sorting: { field: keyof typeof NAME_SORTS; direction: 'asc' | 'desc' }[],
  page: { skip: number; take: number },
): Promise<{ rows: EventNameRow[]; total: number }> {
  const params = new QueryParameters();
  let clause = whereClause(where, params);
  if (where.query) {
    const pattern = `%${where.query.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    clause += ` AND e.name ILIKE ${params.add(pattern)}`;
  }
  const orderBy = [
    ...sorting.map(({ field, direction }) => `${NAME_SORTS[field]} ${direction}`),
    'name asc',
    'source asc',
  ];
  const grouped = `SELECT e.name, e.source, count(*)::int AS occurrences, min(e.timestamp) AS "firstSeen",
                          max(e.timestamp) AS "lastSeen"
                   FROM events e WHERE ${clause} GROUP BY e.name, e.source`;
  const [{ rows }, counted] = await Promise.all([
    sql.query<EventNameRow>(
      `${grouped} ORDER BY ${orderBy.join(', ')} LIMIT ${page.take} OFFSET ${page.skip}`,
      params.values,
    ),
    sql.query<{ total: string }>(`SELECT count(*) AS total FROM (${grouped}) names`, params.values),
  ]);
  return { rows, total: Number(counted.rows[0]!.total) };
}

export type EventTypeRecord = {
  id: string;
  organizationId: string;
  name: string;
  label: string;
  labelPropertySelector: string | null;
  createdAt: Date;
  modifiedAt: Date | null;
};

/** A name of the events with its statistics, and its event type when it has one (user names). */
export type EventTypeStatsRow = EventNameRow & {
  organizationId: string;
  type: EventTypeRecord | null;
};

const TYPE_SORTS = {
  name: 'g.name',
  label: 'coalesce(t.label, g.name)',
  occurrences: 'g.occurrences',
  first_seen: 'g."firstSeen"',
  last_seen: 'g."lastSeen"',
} as const;

const EVENT_TYPE_COLUMNS = `t.id, t.organization_id AS "organizationId", t.name, t.label,
  t.label_property_selector AS "labelPropertySelector", t.created_at AS "createdAt", t.modified_at AS "modifiedAt"`;

/**
 * The event names of the organizations' events (`where`) with how often and when they were seen,
 * each with its event type's row; `query` matches a name or a label. Grouped from the events, so
 * the statistics are always those of the events the filters leave.
 */
export async function listEventTypeRows(
  sql: SqlClient,
  where: EventWhere & { query?: string; none?: boolean },
  sorting: { field: keyof typeof TYPE_SORTS; direction: 'asc' | 'desc' }[],
  page: { skip: number; take: number },
): Promise<{ rows: EventTypeStatsRow[]; total: number }> {
  const params = new QueryParameters();
  const clause = `${whereClause(where, params)}${where.none ? ' AND false' : ''}`;
  let matching = '';
  if (where.query) {
    const pattern = params.add(`%${where.query.replace(/[\\%_]/g, (character) => `\\${character}`)}%`);
    matching = ` WHERE (g.name ILIKE ${pattern} OR t.label ILIKE ${pattern})`;
  }
  const joined = `FROM (SELECT e.organization_id, e.name, e.source, count(*)::int AS occurrences,
                          min(e.timestamp) AS "firstSeen", max(e.timestamp) AS "lastSeen"
                        FROM events e WHERE ${clause} GROUP BY e.organization_id, e.name, e.source) g
                  LEFT JOIN event_types t
                    ON g.source = 'user' AND t.organization_id = g.organization_id AND t.name = g.name${matching}`;
  const orderBy = [
    ...sorting.map(({ field, direction }) => `${TYPE_SORTS[field]} ${direction}`),
    'g.name asc',
    'g.source asc',
    'g.organization_id asc',
  ];
  const [{ rows }, counted] = await Promise.all([
    sql.query<EventNameRow & { organizationId: string; type: EventTypeRecord | null }>(
      `SELECT g.name, g.source, g.occurrences, g."firstSeen", g."lastSeen", g.organization_id AS "organizationId",
              CASE WHEN t.id IS NULL THEN NULL ELSE json_build_object(
                'id', t.id, 'organizationId', t.organization_id, 'name', t.name, 'label', t.label,
                'labelPropertySelector', t.label_property_selector,
                'createdAt', t.created_at, 'modifiedAt', t.modified_at) END AS type
       ${joined}
       ORDER BY ${orderBy.join(', ')} LIMIT ${page.take} OFFSET ${page.skip}`,
      params.values,
    ),
    sql.query<{ total: string }>(`SELECT count(*) AS total ${joined}`, params.values),
  ]);
  return {
    rows: rows.map((row) => ({
      ...row,
      // json_build_object writes the times as text.
      type: row.type && {
        ...row.type,
        createdAt: new Date(row.type.createdAt),
        modifiedAt: row.type.modifiedAt ? new Date(row.type.modifiedAt) : null,
      },
    })),
    total: Number(counted.rows[0]!.total),
  };
}

export async function findEventType(
  sql: SqlClient,
  id: string,
  organizationIds: string[],
): Promise<EventTypeRecord | null> {
  const { rows } = await sql.query<EventTypeRecord>(
    `SELECT ${EVENT_TYPE_COLUMNS} FROM event_types t WHERE t.id = $1::uuid AND t.organization_id = ANY($2::uuid[])`,
    [id, organizationIds],
  );
  return rows[0] ?? null;
}

export async function updateEventTypeRow(
  sql: SqlClient,
  id: string,
  change: { label: string; labelPropertySelector?: string | null },
): Promise<EventTypeRecord> {
  const { rows } = await sql.query<EventTypeRecord>(
    `UPDATE event_types t SET label = $2,
       label_property_selector = CASE WHEN $3::boolean THEN $4 ELSE t.label_property_selector END,
       modified_at = now()
     WHERE t.id = $1::uuid RETURNING ${EVENT_TYPE_COLUMNS}`,
    [id, change.label, change.labelPropertySelector !== undefined, change.labelPropertySelector ?? null],
  );
  return rows[0]!;
}

/**
 * The value each event contributes to a meter: 1 for count, the metadata property's number for
 * sum/max/min/avg (an event without a number there contributes nothing).
 */
export function valueSql(aggregation: Aggregation, params: QueryParameters): string {
  const key = aggregatedKey(aggregation);
  if (key === null) return '1';
  const json = `e.metadata->${params.add(key)}`;
  return `CASE WHEN jsonb_typeof(${json}) = 'number' THEN (${json})::numeric END`;
}

export const aggregateSql = (aggregation: Aggregation, value: string) =>
  aggregation.func === 'count' ? `count(${value})` : `${aggregation.func}(${value})`;

/**
 * A meter's quantity per bucket of `interval` (in `timeZone`: buckets start at its midnights) from
 * the bucket holding `start` to the one holding `end`, and its total: the meter's own aggregation
 * over the whole range (not a sum of the buckets: a max is the max of the range). Only events the
 * sellers' apps sent (`source` user) are metered.
 */
export async function meterQuantityRows(
  sql: SqlClient,
  input: {
    where: EventWhere;
    aggregation: Aggregation;
    interval: TimeInterval;
    timeZone: string;
    start: Date;
    end: Date;
  },
): Promise<{ buckets: { timestamp: Date; quantity: number }[]; total: number }> {
  const params = new QueryParameters();
  const clause = whereClause(
    { ...input.where, startTimestamp: input.start, endTimestamp: input.end },
    params,
  );
  const value = valueSql(input.aggregation, params);
  const zone = params.add(input.timeZone, '::text');
  const unit = params.add(input.interval, '::text');
  const step = params.add(`1 ${input.interval}`, '::interval');
  const start = params.add(input.start, '::timestamptz');
  const end = params.add(input.end, '::timestamptz');
  // One pass over the events: the grouping set () is the range's own aggregate (the total), the
  // one row whose bucket is null.
  const { rows } = await sql.query<{ timestamp: Date; quantity: string | null; total: string | null }>(
    `WITH per_bucket AS (
       SELECT date_trunc(${unit}, e.timestamp AT TIME ZONE ${zone}) AS bucket,
              ${aggregateSql(input.aggregation, value)} AS quantity
       FROM events e WHERE ${clause} AND e.source = 'user'
       GROUP BY GROUPING SETS ((1), ())
     )
     SELECT b.bucket AT TIME ZONE ${zone} AS timestamp, p.quantity,
            (SELECT quantity FROM per_bucket WHERE bucket IS NULL) AS total
     FROM generate_series(date_trunc(${unit}, ${start} AT TIME ZONE ${zone}),
                          ${end} AT TIME ZONE ${zone}, ${step}) AS b(bucket)
     LEFT JOIN per_bucket p ON p.bucket = b.bucket ORDER BY b.bucket`,
    params.values,
  );
  return {
    buckets: rows.map((row) => ({ timestamp: row.timestamp, quantity: Number(row.quantity ?? 0) })),
    total: Number(rows[0]?.total ?? 0),
  };
}
