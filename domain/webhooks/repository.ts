import type { ApiVersion } from '../platform/api-versions.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../infra/db.js';
import type { DisabledReason, WebhookFormat } from './rules.js';

type Client = Db | Prisma.TransactionClient;

export type WebhookEndpointRow = Awaited<ReturnType<Db['webhookEndpoint']['create']>>;
export type DeliveryRow = Awaited<ReturnType<typeof listWebhookDeliveries>>[0][number];

export function insertWebhookEndpoint(
  db: Client,
  data: {
    organizationId: string;
    url: string;
    name: string | null;
    apiVersion: ApiVersion;
    format: WebhookFormat;
    secret: string;
    events: string[];
  },
) {
  return db.webhookEndpoint.create({ data });
}

export function findWebhookEndpoint(db: Client, id: string, organizationIds: string[]) {
  return db.webhookEndpoint.findFirst({ where: { id, organizationId: { in: organizationIds } } });
}

export function listWebhookEndpoints(
  db: Client,
  organizationIds: string[],
  page: { skip: number; take: number },
) {
  const where = { organizationId: { in: organizationIds } };
  return Promise.all([
    db.webhookEndpoint.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], ...page }),
    db.webhookEndpoint.count({ where }),
  ]);
}

export function updateWebhookEndpoint(
  db: Client,
  { id, organizationId }: { id: string; organizationId: string },
  data: Prisma.WebhookEndpointUpdateManyMutationInput,
) {
  return db.webhookEndpoint.update({ where: { id, organizationId }, data });
}

export function deleteWebhookEndpoint(
  db: Client,
  { id, organizationId }: { id: string; organizationId: string },
) {
  return db.webhookEndpoint.deleteMany({ where: { id, organizationId } });
}

export function listWebhookDeliveries(
  db: Client,
  filter: { organizationIds: string[]; endpointIds?: string[] },
  page: { skip: number; take: number },
) {
  const where: Prisma.WebhookDeliveryWhereInput = {
    organizationId: { in: filter.organizationIds },
    ...(filter.endpointIds ? { webhookEvent: { endpointId: { in: filter.endpointIds } } } : {}),
  };
  return Promise.all([
    db.webhookDelivery.findMany({
      where,
      include: { webhookEvent: true },
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      ...page,
    }),
    db.webhookDelivery.count({ where }),
  ]);
}

export function findWebhookEvent(db: Client, id: string, organizationIds: string[]) {
  return db.webhookEvent.findFirst({ where: { id, organizationId: { in: organizationIds } } });
}

/** A redelivery starts a new round: attempts still scheduled for the previous one find it superseded. */
export function startWebhookEventRound(
  db: Client,
  { id, organizationId, round }: { id: string; organizationId: string; round: string },
) {
  return db.webhookEvent.update({
    where: { id, organizationId },
    data: { round, status: 'pending', modifiedAt: new Date() },
  });
}

// ---- dispatch (the outbox is read across organizations: the dispatcher serves the deployment) ----

/** The enabled endpoints of these organizations, with what they subscribe to. */
export function listEnabledEndpoints(db: Client, organizationIds: string[]) {
  return db.webhookEndpoint.findMany({
    where: { organizationId: { in: organizationIds }, enabled: true },
    select: { id: true, organizationId: true, format: true, events: true, apiVersion: true },
    orderBy: { id: 'asc' },
  });
}

const dispatchedEventFields = {
  id: true,
  outboxEventId: true,
  endpointId: true,
  resourceId: true,
  round: true,
  status: true,
} as const;

export function insertWebhookEvents(
  db: Client,
  rows: {
    organizationId: string;
    endpointId: string;
    outboxEventId: string;
    type: string;
    resourceId: string;
    apiVersion: string;
    payload: string;
  }[],
) {
  // A dispatch repeated after a crash finds its rows: (outbox event, endpoint) is unique, and only
  // the rows inserted now are returned.
  return db.webhookEvent.createManyAndReturn({
    data: rows,
    skipDuplicates: true,
    select: dispatchedEventFields,
  });
}

export function listWebhookEventsOfOutboxEvents(db: Client, outboxEventIds: string[]) {
  return db.webhookEvent.findMany({
    where: { outboxEventId: { in: outboxEventIds } },
    select: dispatchedEventFields,
  });
}

// ---- delivery ----

export function findWebhookEventForDelivery(db: Client, id: string) {
  return db.webhookEvent.findUnique({ where: { id }, include: { endpoint: true } });
}

/**
 * Events still being delivered to `endpointId` about these resources, other than `exceptIds`: a
 * later event about one of them must queue behind them.
 */
export function listPendingEventsOfResources(
  db: Client,
  target: { organizationId: string; endpointId: string; resourceIds: string[]; exceptIds: string[] },
) {
  return db.webhookEvent.findMany({
    where: {
      organizationId: target.organizationId,
      endpointId: target.endpointId,
      resourceId: { in: target.resourceIds },
      status: 'pending',
      id: { notIn: target.exceptIds },
    },
    select: { resourceId: true, createdAt: true },
  });
}

/** The events of one delivery batch, with their endpoint (one and the same for all). */
export function findWebhookEventsForDelivery(db: Client, ids: string[]) {
  return db.webhookEvent.findMany({ where: { id: { in: ids } }, include: { endpoint: true } });
}

/** The first attempts already made of these events, in whichever round. */
export function findFirstAttempts(db: Client, webhookEventIds: string[]) {
  return db.webhookDelivery.findMany({
    where: { webhookEventId: { in: webhookEventIds }, attempt: 1 },
    select: { webhookEventId: true, round: true, httpCode: true },
  });
}

export function findDeliveryAttempt(
  db: Client,
  key: { webhookEventId: string; round: string; attempt: number },
) {
  return db.webhookDelivery.findUnique({ where: { webhookEventId_round_attempt: key } });
}

type DeliveryAttemptRow = {
  organizationId: string;
  webhookEventId: string;
  round: string;
  attempt: number;
  succeeded: boolean;
  httpCode: number | null;
  durationMs: number;
  response: string | null;
  error: string | null;
};

export function insertDeliveryAttempt(db: Client, data: DeliveryAttemptRow) {
  return insertDeliveryAttempts(db, [data]);
}

/** An attempt recorded twice (a retried activity) is kept once: (event, round, attempt) is unique. */
export function insertDeliveryAttempts(db: Client, rows: DeliveryAttemptRow[]) {
  return db.webhookDelivery.createMany({ data: rows, skipDuplicates: true });
}

export function recordWebhookEventAttempt(
  db: Client,
  {
    id,
    round,
    succeeded,
    httpCode,
  }: { id: string; round: string; succeeded: boolean; httpCode: number | null },
) {
  return db.webhookEvent.updateMany({
    where: { id, round, status: 'pending' },
    data: {
      succeeded,
      lastHttpCode: httpCode,
      modifiedAt: new Date(),
      ...(succeeded ? { status: 'succeeded' } : {}),
    },
  });
}

/** `recordWebhookEventAttempt` for many events with the same outcome. */
export function recordWebhookEventsAttempt(
  db: Client,
  {
    ids,
    round,
    succeeded,
    httpCode,
  }: { ids: string[]; round: string; succeeded: boolean; httpCode: number | null },
) {
  return db.webhookEvent.updateMany({
    where: { id: { in: ids }, round, status: 'pending' },
    data: {
      succeeded,
      lastHttpCode: httpCode,
      modifiedAt: new Date(),
      ...(succeeded ? { status: 'succeeded' } : {}),
    },
  });
}

/** Ends a round as failed; counts 0 rows when it had already ended (a retried activity). */
export function failWebhookEventRound(db: Client, { id, round }: { id: string; round: string }) {
  return db.webhookEvent.updateMany({
    where: { id, round, status: 'pending' },
    data: { status: 'failed', succeeded: false, modifiedAt: new Date() },
  });
}

export function resetConsecutiveFailures(db: Client, endpointId: string) {
  return db.webhookEndpoint.updateMany({
    where: { id: endpointId, consecutiveFailedEvents: { gt: 0 } },
    data: { consecutiveFailedEvents: 0 },
  });
}

export function incrementConsecutiveFailures(db: Client, endpointId: string) {
  return db.webhookEndpoint.update({
    where: { id: endpointId },
    data: { consecutiveFailedEvents: { increment: 1 } },
    select: { consecutiveFailedEvents: true },
  });
}

/** Conditional, so two workflows disabling one endpoint at once record one reason and one time. */
export function disableWebhookEndpoint(db: Client, endpointId: string, reason: DisabledReason, at: Date) {
  return db.webhookEndpoint.updateMany({
    where: { id: endpointId, enabled: true },
    data: { enabled: false, disabledReason: reason, disabledAt: at, modifiedAt: at },
  });
}

export function findEndpointState(db: Client, endpointId: string) {
  return db.webhookEndpoint.findUnique({
    where: { id: endpointId },
    select: {
      id: true,
      url: true,
      enabled: true,
      disabledAt: true,
      disabledReason: true,
      organization: { select: { id: true, name: true } },
    },
  });
}

// ---- health, events with their attempts, test events (the dashboard's extensions) ----

export type EndpointAttemptCounts = { endpointId: string; attempts: number; succeeded: number };
export type EndpointLastFailure = {
  endpointId: string;
  at: Date;
  httpCode: number | null;
  error: string | null;
};

/** Attempts per endpoint since `since`, and how many succeeded. */
export async function countEndpointAttempts(
  db: Db,
  { organizationIds, endpointIds, since }: { organizationIds: string[]; endpointIds: string[]; since: Date },
): Promise<EndpointAttemptCounts[]> {
  const { rows } = await db.sql.query<{ endpoint_id: string; attempts: number; succeeded: number }>(
    `SELECT e.endpoint_id,
            count(*)::int AS attempts,
            (count(*) FILTER (WHERE d.succeeded))::int AS succeeded
       FROM webhook_deliveries d
       JOIN webhook_events e ON e.id = d.webhook_event_id
      WHERE d.organization_id = ANY($1::uuid[])
        AND e.endpoint_id = ANY($2::uuid[])
        AND d.created_at >= $3
      GROUP BY e.endpoint_id`,
    [organizationIds, endpointIds, since],
  );
  return rows.map((row) => ({
    endpointId: row.endpoint_id,
    attempts: row.attempts,
    succeeded: row.succeeded,
  }));
}

/** The latest failed attempt of each endpoint, however old. */
export async function findLastFailures(
  db: Db,
  { organizationIds, endpointIds }: { organizationIds: string[]; endpointIds: string[] },
): Promise<EndpointLastFailure[]> {
  const { rows } = await db.sql.query<{
    endpoint_id: string;
    created_at: Date;
    http_code: number | null;
    error: string | null;
  }>(
    `SELECT DISTINCT ON (e.endpoint_id) e.endpoint_id, d.created_at, d.http_code, d.error
       FROM webhook_deliveries d
       JOIN webhook_events e ON e.id = d.webhook_event_id
      WHERE d.organization_id = ANY($1::uuid[])
        AND e.endpoint_id = ANY($2::uuid[])
        AND NOT d.succeeded
      ORDER BY e.endpoint_id, d.created_at DESC`,
    [organizationIds, endpointIds],
  );
  return rows.map((row) => ({
    endpointId: row.endpoint_id,
    at: row.created_at,
    httpCode: row.http_code,
    error: row.error,
  }));
}

/** One endpoint's events, newest first, each with all its attempts. */
export function listEndpointEvents(
  db: Client,
  { organizationId, endpointId }: { organizationId: string; endpointId: string },
  page: { skip: number; take: number },
) {
  const where = { organizationId, endpointId };
  return Promise.all([
    db.webhookEvent.findMany({
      where,
      include: {
        deliveries: { orderBy: [{ createdAt: 'asc' }, { attempt: 'asc' }] },
        outboxEvent: { select: { endpointId: true } },
      },
      // Events of one dispatch share created_at; the outbox sequence keeps the order they happened in.
      orderBy: [{ createdAt: 'desc' }, { outboxEvent: { sequence: 'desc' } }],
      ...page,
    }),
    db.webhookEvent.count({ where }),
  ]);
}

export type EndpointEventRow = Awaited<ReturnType<typeof listEndpointEvents>>[0][number];

/** A test event: in the outbox like any other, but for one endpoint only. */
export function insertTestOutboxEvent(
  db: Client,
  data: { organizationId: string; endpointId: string; type: string; payload: Prisma.InputJsonValue },
) {
  return db.outboxEvent.create({ data, select: { id: true } });
}

/** What the start of an endpoint's delivery workflows tells operators (temporal/entity-directory.ts). */
export function findWebhookEndpointForOperators(db: Db, id: string) {
  return db.webhookEndpoint.findUnique({
    where: { id },
    select: { organizationId: true, organization: { select: { name: true } }, url: true },
  });
}
