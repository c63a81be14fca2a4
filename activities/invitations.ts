import { invitationEmail, invitationExpiredEmail, invitationReminderEmail } from '../domain/emails/rules.js';
import { findInvitationForEmail, findInvitationState } from '../domain/invitations/repository.js';
import type { InvitationState } from '../domain/invitations/rules.js';
import { reconcileInvitationWorkflows, type InvitationWorkflows } from '../domain/invitations/service.js';
import type { Db } from '../infra/db.js';
import type { Mailer } from '../domain/emails/mailer.js';

export type InvitationActivityDeps = {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  workflows: { invitations: InvitationWorkflows };
};

export function createInvitationActivities({ db, mailer, publicUrl, workflows }: InvitationActivityDeps) {
  const invitationUrl = (id: string) => `${publicUrl}/invitations/${id}`;

  return {
    async loadInvitationState(invitationId: string): Promise<InvitationState | null> {
      const row = await findInvitationState(db, invitationId);
      return row ? { status: row.status, expiresAt: row.expiresAt.toISOString() } : null;
    },

    /** Idempotent per request (and once for the reminder): a retried activity sends nothing twice. */
    async sendInvitationEmail(input: {
      invitationId: string;
      requestId: string;
      kind: 'invitation' | 'reminder';
    }) {
      const invitation = await findInvitationForEmail(db, input.invitationId);
      if (!invitation || invitation.status !== 'pending') return 'skipped';
      const url = invitationUrl(invitation.id);
      const email =
        input.kind === 'reminder'
          ? invitationReminderEmail({
              organizationName: invitation.organization.name,
              url,
              expiresAt: invitation.expiresAt,
              timeZone: invitation.organization.timeZone,
            })
          : invitationEmail({
              inviterName: invitation.inviter.name,
              organizationName: invitation.organization.name,
              role: invitation.role ?? 'member',
              url,
              expiresAt: invitation.expiresAt,
              timeZone: invitation.organization.timeZone,
            });
      const key =
        input.kind === 'reminder'
          ? `invitation:${invitation.id}:reminder`
          : `invitation:${invitation.id}:${input.requestId}`;
      return mailer.send({ to: invitation.email, idempotencyKey: key, ...email });
    },

    async notifyInviterOfExpiry(invitationId: string) {
      const invitation = await findInvitationForEmail(db, invitationId);
      if (!invitation) return 'skipped';
      return mailer.send({
        to: invitation.inviter.email,
        idempotencyKey: `invitation:${invitation.id}:expired`,
        ...invitationExpiredEmail({
          inviterName: invitation.inviter.name,
          inviteeEmail: invitation.email,
          organizationName: invitation.organization.name,
          url: `${publicUrl}/`,
        }),
      });
    },

    /** Heals open invitations whose workflow start was lost. */
    async reconcileInvitations() {
      return reconcileInvitationWorkflows(db, workflows.invitations);
    },
  };
}

export type InvitationActivities = ReturnType<typeof createInvitationActivities>;
