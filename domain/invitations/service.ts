import { randomUUID } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Db } from '../../infra/db.js';
import type { invitationWorkflow } from '../../workflows/invitations.js';
import { listOpenInvitationIds } from './repository.js';
import { INVITATION_SIGNALS, invitationWorkflowId, type SendInvitationEmailRequest } from './rules.js';

export type InvitationWorkflows = { temporal: Client; taskQueue: string };

/**
 * Asks the invitation's workflow to send the invitation email, starting the workflow if it does not
 * run yet (a new invitation) — one call for creation and re-sending.
 */
export async function requestInvitationEmail(
  { temporal, taskQueue }: InvitationWorkflows,
  invitationId: string,
) {
  const request: SendInvitationEmailRequest = { requestId: randomUUID() };
  await temporal.workflow.signalWithStart<typeof invitationWorkflow, [SendInvitationEmailRequest]>(
    'invitationWorkflow',
    {
      workflowId: invitationWorkflowId(invitationId),
      taskQueue,
      args: [{ invitationId, sendInitialEmail: false }],
      signal: INVITATION_SIGNALS.sendEmail,
      signalArgs: [request],
    },
  );
}

/**
 * Tells the workflow its invitation was accepted, rejected or canceled so it ends now rather than at
 * its next timer. Best effort: the workflow re-reads the row whenever it wakes.
 */
export async function notifyInvitationClosed({ temporal }: InvitationWorkflows, invitationId: string) {
  try {
    await temporal.workflow.getHandle(invitationWorkflowId(invitationId)).signal(INVITATION_SIGNALS.closed);
  } catch (error) {
    if (!(error instanceof WorkflowNotFoundError)) throw error;
  }
}

/** Grace for a just-created invitation whose workflow start is still on its way. */
export const RECONCILE_MIN_AGE_MS = 60_000;

/**
 * Starts the workflow of every open invitation that has none — the healing path for a crash or a
 * Temporal outage between writing an invitation and starting its workflow. A workflow started here
 * sends the invitation email itself. Only invitations older than RECONCILE_MIN_AGE_MS are
 * considered, so an original start that is merely slow is not raced into a second email.
 */
export async function startMissingInvitationWorkflows(
  db: Db,
  { temporal, taskQueue }: InvitationWorkflows,
  now = new Date(),
): Promise<{ started: string[] }> {
  const open = await listOpenInvitationIds(db, {
    now,
    createdBefore: new Date(now.getTime() - RECONCILE_MIN_AGE_MS),
  });
  const started: string[] = [];
  for (const { id } of open) {
    try {
      await temporal.workflow.start<typeof invitationWorkflow>('invitationWorkflow', {
        workflowId: invitationWorkflowId(id),
        taskQueue,
        args: [{ invitationId: id, sendInitialEmail: true }],
      });
      started.push(id);
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  }
  return { started };
}
