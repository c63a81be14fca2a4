import { randomUUID } from 'node:crypto';
import type { Db } from '../../infra/db.js';
import { listOpenInvitationIds } from './repository.js';

/** What invitations ask of their `invitation:<id>` workflows; temporal/invitations.ts implements it. */
export type InvitationWorkflows = {
  /** Asks the workflow to send the email `requestId` once, starting it for a new invitation. */
  requestEmail(invitationId: string, requestId: string): Promise<void>;
  /** The invitation was accepted, rejected or canceled: wakes the workflow if it still runs. */
  signalClosed(invitationId: string): Promise<void>;
  /**
   * Starts the workflow of each of these invitations that has none running; a workflow started so
   * sends the invitation email itself. Answers their workflow ids.
   */
  startMissing(invitationIds: string[]): Promise<string[]>;
};

/**
 * Asks the invitation's workflow to send the invitation email, starting the workflow if it does not
 * run yet (a new invitation) — one call for creation and re-sending.
 */
export async function requestInvitationEmail(workflows: InvitationWorkflows, invitationId: string) {
  await workflows.requestEmail(invitationId, randomUUID());
}

/**
 * Tells the workflow its invitation was accepted, rejected or canceled so it ends now rather than at
 * its next timer. Best effort: the workflow re-reads the row whenever it wakes.
 */
export async function notifyInvitationClosed(workflows: InvitationWorkflows, invitationId: string) {
  await workflows.signalClosed(invitationId);
}

/** Grace for a just-created invitation whose workflow start is still on its way. */
export const RECONCILE_MIN_AGE_MS = 60_000;

/**
 * Starts the workflow of every open invitation that has none — the healing path for a crash or a
 * Temporal outage between writing an invitation and starting its workflow. Only invitations older
 * than RECONCILE_MIN_AGE_MS are considered, so an original start that is merely slow is not raced
 * into a second email.
 */
export async function reconcileInvitationWorkflows(
  db: Db,
  workflows: InvitationWorkflows,
  now = new Date(),
): Promise<{ started: string[] }> {
  const open = await listOpenInvitationIds(db, {
    now,
    createdBefore: new Date(now.getTime() - RECONCILE_MIN_AGE_MS),
  });
  return { started: await workflows.startMissing(open.map(({ id }) => id)) };
}
