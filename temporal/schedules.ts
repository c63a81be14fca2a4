import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type Client,
} from '@temporalio/client';
import { benefitGrantDispatcherWorkflowId } from '../domain/benefit-grants/rules.js';
import type { BenefitGrantWorkflows } from '../domain/benefit-grants/service.js';
import {
  customerMeterRefresherWorkflowId,
  type CustomerMeterWorkflows,
} from '../domain/customer-meters/service.js';
import { webhookDispatcherWorkflowId } from '../domain/webhooks/rules.js';
import type { WebhookWorkflows } from '../domain/webhooks/service.js';

export const RECONCILE_EVERY = '5 minutes';
export const HOUSEKEEPING_EVERY = '1 hour';
export const WATCHDOG_EVERY = '5 minutes';
export const STUCK_WORK_REVIEW_EVERY = '1 minute';

/** `<what>:<task queue>`: several deployments may share one namespace. */
const scheduleId = (what: string) => (taskQueue: string) => `${what}:${taskQueue}`;

export const reconcileInvitationsScheduleId = scheduleId('reconcile-invitations');
export const reconcileCheckoutsScheduleId = scheduleId('reconcile-checkouts');
export const reconcileRefundsScheduleId = scheduleId('reconcile-refunds');
export const reconcileSubscriptionsScheduleId = scheduleId('reconcile-subscriptions');
export const redeliverProcessorEventsScheduleId = scheduleId('redeliver-processor-events');
export const housekeepingScheduleId = scheduleId('housekeeping');
export const webhookDispatcherWatchdogScheduleId = scheduleId('webhook-dispatcher-watchdog');
export const customerMeterRefresherWatchdogScheduleId = scheduleId('customer-meter-refresher-watchdog');
export const benefitGrantDispatcherWatchdogScheduleId = scheduleId('benefit-grant-dispatcher-watchdog');
export const reconcileBenefitGrantsScheduleId = scheduleId('reconcile-benefit-grants');
export const stuckWorkReviewScheduleId = scheduleId('stuck-work-review');

/** The deployment's workflows that run for good, each restarted by its watchdog schedule. */
export type LongLivedWorkflows = {
  webhooks: Pick<WebhookWorkflows, 'ensureDispatcher'>;
  customerMeters: CustomerMeterWorkflows;
  benefitGrants: Pick<BenefitGrantWorkflows, 'ensureDispatcher'>;
};

/** Starts whichever of them does not run. */
export async function ensureLongLivedWorkflows(workflows: LongLivedWorkflows): Promise<void> {
  await workflows.webhooks.ensureDispatcher();
  await workflows.customerMeters.ensureRefresher();
  await workflows.benefitGrants.ensureDispatcher();
}

/** Their workflow ids: a test or a bench stopping its worker for good terminates them. */
export function longLivedWorkflowIds(taskQueue: string): string[] {
  return [
    webhookDispatcherWorkflowId(taskQueue),
    customerMeterRefresherWorkflowId(taskQueue),
    benefitGrantDispatcherWorkflowId(taskQueue),
  ];
}

/** A schedule made by an earlier version gets its runs' summary once; later starts change nothing. */
async function describeScheduledRuns(
  client: Client,
  scheduleId: string,
  metadata: { staticSummary: string; staticDetails: string },
): Promise<void> {
  const handle = client.schedule.getHandle(scheduleId);
  const { action } = await handle.describe();
  if (action.type !== 'startWorkflow') return;
  if (action.staticSummary === metadata.staticSummary && action.staticDetails === metadata.staticDetails) {
    return;
  }
  await handle.update((previous) => ({ ...previous, action: { ...previous.action, ...metadata } }));
}

/** Schedules of earlier versions, deleted at start so they stop starting workflows that are gone. */
const RETIRED_SCHEDULES = [scheduleId('reconcile-commerce')];

/**
 * Creates the deployment's schedules if they do not exist yet, and starts its long-lived
 * workflows; safe to call from every worker start.
 */
export async function ensureSchedules(
  client: Client,
  taskQueue: string,
  workflows: LongLivedWorkflows,
): Promise<void> {
  // The summary is what each scheduled run says it is for in the Temporal UI's list.
  const schedules = [
    [
      reconcileInvitationsScheduleId,
      RECONCILE_EVERY,
      'reconcileInvitationsWorkflow',
      'Reconciler: starts the workflows pending invitations are missing',
    ],
    [
      reconcileCheckoutsScheduleId,
      RECONCILE_EVERY,
      'reconcileCheckoutsWorkflow',
      'Reconciler: starts the workflows checkouts are missing, wakes those that missed a confirmation',
    ],
    [
      reconcileRefundsScheduleId,
      RECONCILE_EVERY,
      'reconcileRefundsWorkflow',
      'Reconciler: starts the workflows pending refunds are missing',
    ],
    [
      reconcileSubscriptionsScheduleId,
      RECONCILE_EVERY,
      'reconcileSubscriptionsWorkflow',
      'Reconciler: starts the workflows billable subscriptions are missing, wakes those behind their test clock',
    ],
    [
      redeliverProcessorEventsScheduleId,
      RECONCILE_EVERY,
      'redeliverProcessorEventsWorkflow',
      'Redelivery: hands recorded processor events to their workflows again',
    ],
    [
      housekeepingScheduleId,
      HOUSEKEEPING_EVERY,
      'housekeepingWorkflow',
      'Housekeeping: deletes expired idempotency keys and idle rate-limit counters',
    ],
    [
      webhookDispatcherWatchdogScheduleId,
      WATCHDOG_EVERY,
      'ensureWebhookDispatcherWorkflow',
      'Watchdog: restarts the webhook outbox dispatcher if it stopped',
    ],
    [
      customerMeterRefresherWatchdogScheduleId,
      WATCHDOG_EVERY,
      'ensureCustomerMeterRefresherWorkflow',
      'Watchdog: restarts the customer meter refresher if it stopped',
    ],
    [
      benefitGrantDispatcherWatchdogScheduleId,
      WATCHDOG_EVERY,
      'ensureBenefitGrantDispatcherWorkflow',
      'Watchdog: restarts the benefit grant dispatcher if it stopped',
    ],
    [
      reconcileBenefitGrantsScheduleId,
      RECONCILE_EVERY,
      'reconcileBenefitGrantsWorkflow',
      'Reconciler: wakes the benefit grants whose workflow start was lost',
    ],
    [
      stuckWorkReviewScheduleId,
      STUCK_WORK_REVIEW_EVERY,
      'reviewStuckWorkWorkflow',
      'Stuck work: marks stuck runs TollgateStuck, unmarks those that moved again',
    ],
  ] as const;
  for (const [id, every, workflowType, staticSummary] of schedules) {
    const scheduleIdOfQueue = id(taskQueue);
    const staticDetails = `Started every ${every} by the schedule \`${scheduleIdOfQueue}\`.`;
    try {
      await client.schedule.create({
        scheduleId: scheduleIdOfQueue,
        spec: { intervals: [{ every }] },
        action: { type: 'startWorkflow', workflowType, taskQueue, staticSummary, staticDetails },
        // A slow run is not doubled by the next tick.
        policies: { overlap: ScheduleOverlapPolicy.SKIP },
      });
    } catch (error) {
      if (!(error instanceof ScheduleAlreadyRunning)) throw error;
      await describeScheduledRuns(client, scheduleIdOfQueue, { staticSummary, staticDetails });
    }
  }
  for (const retired of RETIRED_SCHEDULES) {
    await client.schedule
      .getHandle(retired(taskQueue))
      .delete()
      .catch((error: unknown) => {
        if (!(error instanceof ScheduleNotFoundError)) throw error;
      });
  }
  // These are long-lived rather than scheduled; the watchdogs above only restart them.
  await ensureLongLivedWorkflows(workflows);
}
