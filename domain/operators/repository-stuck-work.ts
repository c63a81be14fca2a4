// Stuck work's rows: the activities the worker's interceptor recorded past their threshold, the
// workflows the review marked, and a report over the outbox, webhook endpoints and checkouts
// (owned by their domains; read here, never written).
import type { SqlClient } from '../../infra/db.js';
import {
  CHECKOUT_UNSETTLED_SECONDS,
  OUTBOX_EVENT_STUCK_SECONDS,
  STUCK_WORK_LIST_CAP,
  WEBHOOK_ENDPOINT_FAILING_SECONDS,
  type StuckWorkKind,
} from './stuck-work.js';

/** Which attempt of which activity of which run. */
type ActivityAttempt = {
  workflowId: string;
  activityId: string;
  runId: string;
  workflowType: string;
  activityType: string;
  attempt: number;
};

export type StuckActivityAttempt = ActivityAttempt & { error: string; at: Date };

/** The failed attempt at or past the threshold: the first makes the row, later ones update it. */
export async function recordStuckActivity(sql: SqlClient, attempt: StuckActivityAttempt): Promise<void> {
  await sql.query(
    `INSERT INTO stuck_activities
       (workflow_id, activity_id, run_id, workflow_type, activity_type, attempt, last_error, failing_since, last_failed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
     ON CONFLICT (workflow_id, activity_id) DO UPDATE
       SET run_id = EXCLUDED.run_id, attempt = GREATEST(stuck_activities.attempt, EXCLUDED.attempt),
           last_error = EXCLUDED.last_error, last_failed_at = EXCLUDED.last_failed_at`,
    [
      attempt.workflowId,
      attempt.activityId,
      attempt.runId,
      attempt.workflowType,
      attempt.activityType,
      attempt.attempt,
      attempt.error.slice(0, 2000),
      attempt.at,
    ],
  );
}

/** An attempt went through (or the run is gone): the activity is no longer stuck. */
export async function deleteStuckActivity(
  sql: SqlClient,
  workflowId: string,
  activityId: string,
): Promise<void> {
  await sql.query('DELETE FROM stuck_activities WHERE workflow_id = $1 AND activity_id = $2', [
    workflowId,
    activityId,
  ]);
}

export type StuckActivityRow = ActivityAttempt & {
  lastError: string;
  failingSince: Date;
  lastFailedAt: Date;
  organizationId: string | null;
  organizationName: string | null;
  entityKind: string | null;
  entityId: string | null;
  dashboardUrl: string | null;
};

export async function listStuckActivities(
  sql: SqlClient,
  limit = STUCK_WORK_LIST_CAP,
): Promise<StuckActivityRow[]> {
  const { rows } = await sql.query<StuckActivityRow>(
    `SELECT a.workflow_id AS "workflowId", a.activity_id AS "activityId", a.run_id AS "runId",
            a.workflow_type AS "workflowType", a.activity_type AS "activityType", a.attempt,
            a.last_error AS "lastError", a.failing_since AS "failingSince", a.last_failed_at AS "lastFailedAt",
            a.organization_id AS "organizationId", o.name AS "organizationName",
            a.entity_kind AS "entityKind", a.entity_id AS "entityId", a.dashboard_url AS "dashboardUrl"
       FROM stuck_activities a LEFT JOIN organizations o ON o.id = a.organization_id
      ORDER BY a.failing_since, a.workflow_id, a.activity_id LIMIT $1`,
    [limit],
  );
  return rows;
}

/** What the review learnt from the workflow: whose it is, and the attempt Temporal is at. */
export async function saveStuckActivityReview(
  sql: SqlClient,
  key: { workflowId: string; activityId: string },
  facts: {
    attempt: number;
    lastError: string | null;
    organizationId: string | null;
    entityKind: string | null;
    entityId: string | null;
    dashboardUrl: string | null;
  },
): Promise<void> {
  await sql.query(
    `UPDATE stuck_activities
        SET attempt = GREATEST(attempt, $3), last_error = COALESCE($4, last_error),
            organization_id = $5::uuid, entity_kind = $6, entity_id = $7, dashboard_url = $8, reviewed_at = now()
      WHERE workflow_id = $1 AND activity_id = $2`,
    [
      key.workflowId,
      key.activityId,
      facts.attempt,
      facts.lastError?.slice(0, 2000) ?? null,
      facts.organizationId,
      facts.entityKind,
      facts.entityId,
      facts.dashboardUrl,
    ],
  );
}

export async function countStuckActivities(sql: SqlClient): Promise<number> {
  const { rows } = await sql.query<{ count: number }>('SELECT count(*)::int AS count FROM stuck_activities');
  return rows[0]?.count ?? 0;
}

export type StuckFlag = { workflowId: string; kind: StuckWorkKind };

export async function listStuckFlags(sql: SqlClient): Promise<StuckFlag[]> {
  const { rows } = await sql.query<StuckFlag>(
    'SELECT workflow_id AS "workflowId", kind FROM stuck_flags ORDER BY workflow_id',
  );
  return rows;
}

export async function saveStuckFlag(sql: SqlClient, flag: StuckFlag): Promise<void> {
  await sql.query(
    `INSERT INTO stuck_flags (workflow_id, kind, flagged_at) VALUES ($1, $2, now())
     ON CONFLICT (workflow_id) DO UPDATE SET kind = EXCLUDED.kind, flagged_at = now()`,
    [flag.workflowId, flag.kind],
  );
}

export async function deleteStuckFlag(sql: SqlClient, workflowId: string): Promise<void> {
  await sql.query('DELETE FROM stuck_flags WHERE workflow_id = $1', [workflowId]);
}

export type StuckOutbox = { events: number; oldestAt: Date } | null;

export type FailingEndpoint = {
  endpointId: string;
  organizationId: string;
  organizationName: string;
  url: string;
  failingSince: Date;
  failingEvents: number;
  /** The resource of the oldest failing event: its delivery workflow is the one retrying. */
  oldestResourceId: string;
  lastHttpCode: number | null;
};

export type UnsettledCheckout = {
  checkoutId: string;
  organizationId: string;
  organizationName: string;
  confirmedAt: Date;
  totalAmount: number;
  currency: string;
};

/** The outbox's events older than the threshold (counted up to the cap) and the oldest one's time. */
export async function findStuckOutbox(sql: SqlClient): Promise<StuckOutbox> {
  const { rows } = await sql.query<{ events: number; oldest_at: Date | null }>(
    `SELECT count(*)::int AS events, min(created_at) AS oldest_at FROM (
       SELECT created_at FROM outbox_events
        WHERE dispatched_at IS NULL AND created_at < now() - make_interval(secs => $1)
        ORDER BY dispatched_at, sequence LIMIT $2) old`,
    [OUTBOX_EVENT_STUCK_SECONDS, STUCK_WORK_LIST_CAP * 1000],
  );
  const row = rows[0];
  return row && row.oldest_at ? { events: row.events, oldestAt: row.oldest_at } : null;
}

/**
 * Enabled endpoints whose events since their last delivered one have all failed, the oldest of
 * them attempted more than the threshold ago. Only events with a failed attempt count: an event
 * not yet tried waits on the outbox, which has its own signal.
 */
export async function findFailingEndpoints(sql: SqlClient): Promise<FailingEndpoint[]> {
  const { rows } = await sql.query<FailingEndpoint>(
    `WITH failing AS (
       SELECT ev.endpoint_id, ev.organization_id, ev.created_at, ev.resource_id, ev.last_http_code
         FROM webhook_endpoints e
         JOIN webhook_events ev ON ev.organization_id = e.organization_id AND ev.endpoint_id = e.id
        WHERE e.enabled AND ev.status <> 'succeeded'
          AND ev.created_at > (SELECT coalesce(max(s.created_at), '-infinity'::timestamptz) FROM webhook_events s
                                WHERE s.organization_id = e.organization_id AND s.endpoint_id = e.id
                                  AND s.status = 'succeeded')
          AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.webhook_event_id = ev.id AND NOT d.succeeded)
     )
     SELECT f.endpoint_id AS "endpointId", f.organization_id AS "organizationId", o.name AS "organizationName",
            e.url, min(f.created_at) AS "failingSince", count(*)::int AS "failingEvents",
            (array_agg(f.resource_id ORDER BY f.created_at))[1] AS "oldestResourceId",
            (array_agg(f.last_http_code ORDER BY f.created_at DESC))[1] AS "lastHttpCode"
       FROM failing f
       JOIN webhook_endpoints e ON e.id = f.endpoint_id
       JOIN organizations o ON o.id = f.organization_id
      GROUP BY f.endpoint_id, f.organization_id, o.name, e.url
     HAVING min(f.created_at) < now() - make_interval(secs => $1)
      ORDER BY min(f.created_at) LIMIT $2`,
    [WEBHOOK_ENDPOINT_FAILING_SECONDS, STUCK_WORK_LIST_CAP],
  );
  return rows;
}

/** Checkouts confirmed more than the threshold ago that neither succeeded nor failed. */
export async function findUnsettledCheckouts(sql: SqlClient): Promise<UnsettledCheckout[]> {
  const { rows } = await sql.query<UnsettledCheckout>(
    `SELECT c.id AS "checkoutId", c.organization_id AS "organizationId", o.name AS "organizationName",
            coalesce(c.modified_at, c.created_at) AS "confirmedAt", c.total_amount AS "totalAmount", c.currency
       FROM checkouts c JOIN organizations o ON o.id = c.organization_id
      WHERE c.status = 'confirmed' AND coalesce(c.modified_at, c.created_at) < now() - make_interval(secs => $1)
      ORDER BY coalesce(c.modified_at, c.created_at) LIMIT $2`,
    [CHECKOUT_UNSETTLED_SECONDS, STUCK_WORK_LIST_CAP],
  );
  return rows;
}

/** The metric's counts, as the operators' page counts them (the activities counted whole). */
export async function countStuckWork(sql: SqlClient): Promise<Record<StuckWorkKind, number>> {
  const [activities, outbox, endpoints, checkouts] = await Promise.all([
    countStuckActivities(sql),
    findStuckOutbox(sql),
    findFailingEndpoints(sql),
    findUnsettledCheckouts(sql),
  ]);
  return {
    activity_retrying: activities,
    outbox_event_old: outbox?.events ?? 0,
    webhook_endpoint_failing: endpoints.length,
    checkout_unsettled: checkouts.length,
  };
}
