// When an invitation's workflow acts (spec §4, §9): a reminder 24 hours before expiry, the end at
// expiry. Pure, so the workflow replays it deterministically.

export const REMINDER_BEFORE_EXPIRY_MS = 24 * 60 * 60 * 1000;

export type InvitationState = { status: string; expiresAt: string };

export type InvitationStep =
  | { kind: 'end'; outcome: 'accepted' | 'rejected' | 'canceled' | 'deleted' }
  | { kind: 'expire' }
  | { kind: 'remind' }
  | { kind: 'wait'; untilMs: number };

export function invitationWorkflowId(invitationId: string): string {
  return `invitation:${invitationId}`;
}

/**
 * The next thing to do for an invitation. A reminder is due only if the invitation was meant to
 * live longer than the reminder lead time when its workflow began; otherwise it would arrive
 * together with the invitation itself.
 */
export function nextInvitationStep(
  state: InvitationState | null,
  context: { nowMs: number; workflowStartedMs: number; reminderSent: boolean },
): InvitationStep {
  if (!state) return { kind: 'end', outcome: 'deleted' };
  if (state.status !== 'pending') {
    const outcome = state.status === 'accepted' || state.status === 'rejected' ? state.status : 'canceled';
    return { kind: 'end', outcome };
  }
  const expiresAtMs = Date.parse(state.expiresAt);
  if (context.nowMs >= expiresAtMs) return { kind: 'expire' };
  const reminderAtMs = expiresAtMs - REMINDER_BEFORE_EXPIRY_MS;
  const reminderDue = !context.reminderSent && reminderAtMs >= context.workflowStartedMs;
  if (reminderDue && context.nowMs >= reminderAtMs) return { kind: 'remind' };
  return { kind: 'wait', untilMs: reminderDue ? reminderAtMs : expiresAtMs };
}

/** Signal names, shared by the workflow (defineSignal) and the code that signals it. */
export const INVITATION_SIGNALS = {
  sendEmail: 'sendInvitationEmail',
  closed: 'invitationClosed',
} as const;

export type SendInvitationEmailRequest = { requestId: string };

export type InvitationWorkflowInput = { invitationId: string; sendInitialEmail: boolean };
