import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { ensureWebhookDispatcher } from '../domain/webhooks/service.js';

export const RECONCILE_INVITATIONS_EVERY = '5 minutes';
export const HOUSEKEEPING_EVERY = '1 hour';
export const WEBHOOK_DISPATCHER_WATCHDOG_EVERY = '5 minutes';
export const RECONCILE_COMMERCE_EVERY = '5 minutes';

export function reconcileCommerceScheduleId(taskQueue: string): string {
  return `reconcile-commerce:${taskQueue}`;
}

export function reconcileInvitationsScheduleId(taskQueue: string): string {
  return `reconcile-invitations:${taskQueue}`;
}

export function housekeepingScheduleId(taskQueue: string): string {
  return `housekeeping:${taskQueue}`;
}

export function webhookDispatcherWatchdogScheduleId(taskQueue: string): string {
  return `webhook-dispatcher-watchdog:${taskQueue}`;
}

/** Creates the deployment's schedules if they do not exist yet; safe to call from every worker start. */
export async function ensureSchedules(client: Client, taskQueue: string): Promise<void> {
  const schedules = [
    {
      scheduleId: reconcileInvitationsScheduleId(taskQueue),
      every: RECONCILE_INVITATIONS_EVERY,
      workflowType: 'reconcileInvitationsWorkflow',
    },
    {
      scheduleId: housekeepingScheduleId(taskQueue),
      every: HOUSEKEEPING_EVERY,
      workflowType: 'housekeepingWorkflow',
    },
    {
      scheduleId: reconcileCommerceScheduleId(taskQueue),
      every: RECONCILE_COMMERCE_EVERY,
      workflowType: 'reconcileCommerceWorkflow',
    },
    {
      scheduleId: webhookDispatcherWatchdogScheduleId(taskQueue),
      every: WEBHOOK_DISPATCHER_WATCHDOG_EVERY,
      workflowType: 'ensureWebhookDispatcherWorkflow',
    },
  ];
  for (const { scheduleId, every, workflowType } of schedules) {
    try {
      await client.schedule.create({
        scheduleId,
        spec: { intervals: [{ every }] },
        action: { type: 'startWorkflow', workflowType, taskQueue },
        // A slow run is not doubled by the next tick.
        policies: { overlap: ScheduleOverlapPolicy.SKIP },
      });
    } catch (error) {
      if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    }
  }
  // The outbox dispatcher is long-lived rather than scheduled; the watchdog above only restarts it.
  await ensureWebhookDispatcher({ temporal: client, taskQueue });
}
