import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';

export const RECONCILE_INVITATIONS_EVERY = '5 minutes';

export function reconcileInvitationsScheduleId(taskQueue: string): string {
  return `reconcile-invitations:${taskQueue}`;
}

/** Creates the deployment's schedules if they do not exist yet; safe to call from every worker start. */
export async function ensureSchedules(client: Client, taskQueue: string): Promise<void> {
  try {
    await client.schedule.create({
      scheduleId: reconcileInvitationsScheduleId(taskQueue),
      spec: { intervals: [{ every: RECONCILE_INVITATIONS_EVERY }] },
      action: { type: 'startWorkflow', workflowType: 'reconcileInvitationsWorkflow', taskQueue },
      // A slow run is not doubled by the next tick.
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  }
}
