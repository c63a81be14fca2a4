import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type Client,
} from '@temporalio/client';
import type { WebhookWorkflows } from '../domain/webhooks/service.js';

export const RECONCILE_EVERY = '5 minutes';
export const HOUSEKEEPING_EVERY = '1 hour';
export const WEBHOOK_DISPATCHER_WATCHDOG_EVERY = '5 minutes';

/** `<what>:<task queue>`: several deployments may share one namespace. */
const scheduleId = (what: string) => (taskQueue: string) => `${what}:${taskQueue}`;

export const reconcileInvitationsScheduleId = scheduleId('reconcile-invitations');
export const reconcileCheckoutsScheduleId = scheduleId('reconcile-checkouts');
export const reconcileRefundsScheduleId = scheduleId('reconcile-refunds');
export const reconcileSubscriptionsScheduleId = scheduleId('reconcile-subscriptions');
export const redeliverProcessorEventsScheduleId = scheduleId('redeliver-processor-events');
export const housekeepingScheduleId = scheduleId('housekeeping');
export const webhookDispatcherWatchdogScheduleId = scheduleId('webhook-dispatcher-watchdog');

/** Schedules of earlier versions, deleted at start so they stop starting workflows that are gone. */
const RETIRED_SCHEDULES = [scheduleId('reconcile-commerce')];

/**
 * Creates the deployment's schedules if they do not exist yet, and starts the outbox dispatcher;
 * safe to call from every worker start.
 */
export async function ensureSchedules(
  client: Client,
  taskQueue: string,
  webhooks: Pick<WebhookWorkflows, 'ensureDispatcher'>,
): Promise<void> {
  const schedules = [
    [reconcileInvitationsScheduleId, RECONCILE_EVERY, 'reconcileInvitationsWorkflow'],
    [reconcileCheckoutsScheduleId, RECONCILE_EVERY, 'reconcileCheckoutsWorkflow'],
    [reconcileRefundsScheduleId, RECONCILE_EVERY, 'reconcileRefundsWorkflow'],
    [reconcileSubscriptionsScheduleId, RECONCILE_EVERY, 'reconcileSubscriptionsWorkflow'],
    [redeliverProcessorEventsScheduleId, RECONCILE_EVERY, 'redeliverProcessorEventsWorkflow'],
    [housekeepingScheduleId, HOUSEKEEPING_EVERY, 'housekeepingWorkflow'],
    [
      webhookDispatcherWatchdogScheduleId,
      WEBHOOK_DISPATCHER_WATCHDOG_EVERY,
      'ensureWebhookDispatcherWorkflow',
    ],
  ] as const;
  for (const [id, every, workflowType] of schedules) {
    try {
      await client.schedule.create({
        scheduleId: id(taskQueue),
        spec: { intervals: [{ every }] },
        action: { type: 'startWorkflow', workflowType, taskQueue },
        // A slow run is not doubled by the next tick.
        policies: { overlap: ScheduleOverlapPolicy.SKIP },
      });
    } catch (error) {
      if (!(error instanceof ScheduleAlreadyRunning)) throw error;
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
  // The outbox dispatcher is long-lived rather than scheduled; the watchdog above only restarts it.
  await webhooks.ensureDispatcher();
}
