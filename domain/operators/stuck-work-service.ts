// Stuck work (docs/operations.md, "Stuck work"): the report the operators' page and the metric
// read, and the review that keeps each stuck workflow's `TollgateStuck` mark true.
import type { Db } from '../../infra/db.js';
import { formatMoney } from '../money/rules.js';
import {
  deleteStuckActivity,
  deleteStuckFlag,
  findFailingEndpoints,
  findStuckOutbox,
  findUnsettledCheckouts,
  listStuckActivities,
  listStuckFlags,
  saveStuckActivityReview,
  saveStuckFlag,
} from './repository-stuck-work.js';
import type { StuckWorkItem, StuckWorkReport } from './schemas.js';
import { STUCK_WORK_THRESHOLDS, type StuckWorkKind } from './stuck-work.js';

/** What Temporal says of a run the review looks at. */
export type StuckRunFacts = {
  running: boolean;
  pendingActivities: { activityId: string; attempt: number; lastFailure: string | null }[];
  organizationId: string | null;
  entityKind: string | null;
  entityId: string | null;
  dashboardUrl: string | null;
};

export type StuckWorkflowIds = {
  /** The deployment's outbox dispatcher: the workflow owed the outbox's events. */
  dispatcher: string;
  checkout(checkoutId: string): string;
  /** The workflow retrying one resource's events to one endpoint. */
  webhookDelivery(endpointId: string, resourceId: string): string;
};

/** The review's side of Temporal (temporal/stuck-work.ts). */
export type OperatorWorkflows = {
  /** The workflows owed each kind's work (their ids are their domains' to make). */
  workflowIds: StuckWorkflowIds;
  /** The run with this id, latest first; null when Temporal has none. */
  describe(workflowId: string): Promise<StuckRunFacts | null>;
  /** Marks (a kind) or unmarks (null) a running workflow; false when no run takes the signal. */
  flag(workflowId: string, kind: StuckWorkKind | null): Promise<boolean>;
};

type ReportDeps = { db: Db; publicUrl: string; workflowIds: StuckWorkflowIds };

const webhooksUrl = (publicUrl: string, endpointId: string) =>
  `${publicUrl}/dashboard/webhooks/${endpointId}`;

const answerWords = (httpCode: number | null) =>
  httpCode === null ? 'Last attempt: no answer (refused or timed out).' : `Last answer: HTTP ${httpCode}.`;

/** Every stuck entry now, oldest first within each kind, and the counts the metric serves. */
export async function readStuckWork(deps: ReportDeps): Promise<StuckWorkReport> {
  const { sql } = deps.db;
  const [activities, outbox, endpoints, checkouts] = await Promise.all([
    listStuckActivities(sql),
    findStuckOutbox(sql),
    findFailingEndpoints(sql),
    findUnsettledCheckouts(sql),
  ]);
  const items: StuckWorkItem[] = [
    ...activities.map((row): StuckWorkItem => ({
      kind: 'activity_retrying',
      since: row.failingSince.toISOString(),
      summary: `Attempt ${row.attempt} of ${row.activityType} (${row.workflowType})`,
      detail: row.lastError,
      workflow_id: row.workflowId,
      organization:
        row.organizationId && row.organizationName
          ? { id: row.organizationId, name: row.organizationName }
          : null,
      entity: row.entityKind && row.entityId ? { kind: row.entityKind, id: row.entityId } : null,
      dashboard_url: row.dashboardUrl,
    })),
    ...(outbox
      ? [
          {
            kind: 'outbox_event_old' as const,
            since: outbox.oldestAt.toISOString(),
            summary: `${outbox.events} webhook ${outbox.events === 1 ? 'event' : 'events'} not dispatched`,
            detail: null,
            workflow_id: deps.workflowIds.dispatcher,
            organization: null,
            entity: null,
            dashboard_url: null,
          },
        ]
      : []),
    ...endpoints.map((row): StuckWorkItem => ({
      kind: 'webhook_endpoint_failing',
      since: row.failingSince.toISOString(),
      summary: `${row.failingEvents} ${row.failingEvents === 1 ? 'event' : 'events'} not delivered to ${row.url}`,
      detail: answerWords(row.lastHttpCode),
      workflow_id: deps.workflowIds.webhookDelivery(row.endpointId, row.oldestResourceId),
      organization: { id: row.organizationId, name: row.organizationName },
      entity: { kind: 'webhook_endpoint', id: row.endpointId },
      dashboard_url: webhooksUrl(deps.publicUrl, row.endpointId),
    })),
    ...checkouts.map((row): StuckWorkItem => ({
      kind: 'checkout_unsettled',
      since: row.confirmedAt.toISOString(),
      summary: `Checkout of ${formatMoney(row.totalAmount, row.currency)} confirmed, not charged`,
      detail: null,
      workflow_id: deps.workflowIds.checkout(row.checkoutId),
      organization: { id: row.organizationId, name: row.organizationName },
      entity: { kind: 'checkout', id: row.checkoutId },
      dashboard_url: `${deps.publicUrl}/dashboard/checkouts`,
    })),
  ];
  return {
    checked_at: new Date().toISOString(),
    counts: {
      activity_retrying: activities.length,
      outbox_event_old: outbox?.events ?? 0,
      webhook_endpoint_failing: endpoints.length,
      checkout_unsettled: checkouts.length,
    },
    thresholds: STUCK_WORK_THRESHOLDS,
    items,
  };
}

export type StuckWorkReview = { dropped: number; flagged: number; cleared: number };

/**
 * Run every minute by its schedule. Drops the activity rows Temporal no longer retries (the run
 * ended, or the activity finished without its success reaching the interceptor), fills in whose
 * the rest are, then marks each stuck workflow and unmarks those that moved. Every step is
 * idempotent: a retried review signals again what it signalled, and signals set a value.
 */
export async function reviewStuckWork(deps: {
  db: Db;
  publicUrl: string;
  workflows: OperatorWorkflows;
}): Promise<StuckWorkReview> {
  const { sql } = deps.db;
  let dropped = 0;
  for (const row of await listStuckActivities(sql)) {
    const run = await deps.workflows.describe(row.workflowId);
    const pending = run?.running
      ? run.pendingActivities.find((activity) => activity.activityId === row.activityId)
      : undefined;
    if (!run || !pending) {
      await deleteStuckActivity(sql, row.workflowId, row.activityId);
      dropped += 1;
      continue;
    }
    await saveStuckActivityReview(sql, row, {
      attempt: pending.attempt,
      lastError: pending.lastFailure,
      organizationId: run.organizationId,
      entityKind: run.entityKind,
      entityId: run.entityId,
      dashboardUrl: run.dashboardUrl,
    });
  }

  const report = await readStuckWork({ ...deps, workflowIds: deps.workflows.workflowIds });
  // One mark per workflow: the first kind listed for it (activities come first).
  const wanted = new Map<string, StuckWorkKind>();
  for (const item of report.items) {
    if (item.workflow_id && !wanted.has(item.workflow_id)) wanted.set(item.workflow_id, item.kind);
  }
  const marked = new Map((await listStuckFlags(sql)).map((flag) => [flag.workflowId, flag.kind]));
  let flagged = 0;
  let cleared = 0;
  for (const [workflowId, kind] of wanted) {
    if (marked.get(workflowId) === kind) continue;
    // A workflow not running (a checkout's ended, a delivery idle) cannot carry the mark; the page
    // still lists the entry.
    if (!(await deps.workflows.flag(workflowId, kind))) continue;
    await saveStuckFlag(sql, { workflowId, kind });
    flagged += 1;
  }
  for (const workflowId of marked.keys()) {
    if (wanted.has(workflowId)) continue;
    await deps.workflows.flag(workflowId, null);
    await deleteStuckFlag(sql, workflowId);
    cleared += 1;
  }
  return { dropped, flagged, cleared };
}
