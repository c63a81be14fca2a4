import { condition, defineQuery, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { InvitationActivities } from '../activities/invitations.js';
import {
  INVITATION_SIGNALS,
  nextInvitationStep,
  type InvitationWorkflowInput,
  type SendInvitationEmailRequest,
} from '../domain/invitations/rules.js';
import { isoUtc, WAITING_FOR_QUERY } from '../domain/operators/rules.js';
import { operatorView } from './operators.js';

const { loadInvitationState, sendInvitationEmail, notifyInviterOfExpiry } =
  proxyActivities<InvitationActivities>({
    startToCloseTimeout: '30 seconds',
    // SMTP and PostgreSQL hiccups are retried; every send is idempotent, so retries never double an email.
    retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
  });

export const sendInvitationEmailSignal = defineSignal<[SendInvitationEmailRequest]>(
  INVITATION_SIGNALS.sendEmail,
);
export const invitationClosedSignal = defineSignal(INVITATION_SIGNALS.closed);
/** Who the invitation waits for and until when, in words (docs/architecture.md, "Operators"). */
export const invitationWaitingForQuery = defineQuery<string>(WAITING_FOR_QUERY);

const OUTCOME_WORDS: Record<InvitationOutcome, string> = {
  accepted: 'the invitee accepted',
  rejected: 'the invitee declined',
  canceled: 'the invitation was canceled',
  deleted: 'the invitation was deleted',
  expired: 'the invitation expired',
};

export type InvitationOutcome = 'accepted' | 'rejected' | 'canceled' | 'deleted' | 'expired';

/**
 * `invitation:<id>`: lives while the invitation is pending. Sends the invitation email (and each
 * re-send), one reminder before expiry, and tells the inviter when it expires. It re-reads the row
 * whenever it wakes, so changes made without a signal (a re-invite that cancels it) are respected.
 */
export async function invitationWorkflow(input: InvitationWorkflowInput): Promise<InvitationOutcome> {
  const { invitationId } = input;
  const emailRequests: string[] = input.sendInitialEmail ? ['initial'] : [];
  let closedSignalled = false;
  setHandler(sendInvitationEmailSignal, ({ requestId }) => {
    emailRequests.push(requestId);
  });
  setHandler(invitationClosedSignal, () => {
    closedSignalled = true;
  });

  const workflowStartedMs = Date.now();
  let reminderSent = false;
  const view = operatorView(invitationWaitingForQuery);
  for (;;) {
    view.working('reading the invitation');
    const state = await loadInvitationState(invitationId);
    const step = nextInvitationStep(state, { nowMs: Date.now(), workflowStartedMs, reminderSent });
    if (step.kind === 'end') {
      view.status(step.outcome);
      view.finished(OUTCOME_WORDS[step.outcome]);
      return step.outcome;
    }
    if (step.kind === 'expire') {
      view.working('telling the inviter that the invitation expired');
      await notifyInviterOfExpiry(invitationId);
      view.status('expired');
      view.finished(OUTCOME_WORDS.expired);
      return 'expired';
    }
    const requestId = emailRequests.shift();
    if (requestId !== undefined) {
      view.working('sending the invitation email');
      await sendInvitationEmail({ invitationId, requestId, kind: 'invitation' });
      continue;
    }
    if (step.kind === 'remind') {
      view.working('sending the reminder email');
      await sendInvitationEmail({ invitationId, requestId: 'reminder', kind: 'reminder' });
      reminderSent = true;
      continue;
    }
    closedSignalled = false;
    // A wait is a pending invitation's: the row was read.
    const expiresAtMs = Date.parse(state!.expiresAt);
    const expires = step.untilMs === expiresAtMs;
    view.waiting(
      'the invitee to accept or decline',
      { atMs: step.untilMs, then: expires ? 'the invitation expires' : 'the reminder email goes out' },
      expires
        ? 'The inviter is told if it expires unanswered.'
        : `A reminder goes out then, unless they answer; the invitation expires at ${isoUtc(expiresAtMs)}.`,
    );
    await condition(
      () => closedSignalled || emailRequests.length > 0,
      Math.max(1, step.untilMs - Date.now()),
    );
  }
}

const { reconcileInvitations } = proxyActivities<InvitationActivities>({
  startToCloseTimeout: '2 minutes',
});

/** Run by the `reconcile-invitations` schedule: starts workflows that invitations are missing. */
export async function reconcileInvitationsWorkflow(): Promise<{ started: string[] }> {
  return reconcileInvitations();
}
