import { useState, type FormEvent } from 'react';
import { authClient, errorMessage } from '../auth/client';
import { Card, ErrorNote, Field, formatDateTime, formValues, SuccessNote } from '../components';
import { ORGANIZATION_ROLES, ROLE_LABELS, type OrganizationRole } from './roles';
import type { ActiveOrganization } from './types';

export function InvitationsCard({ organization }: { organization: ActiveOrganization }) {
  const [error, setError] = useState<string | null>(null);
  const [resent, setResent] = useState<string | null>(null);

  async function invite(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const { email = '', role = 'member' } = formValues(form);
    const result = await authClient.organization.inviteMember({
      email,
      role: role as OrganizationRole,
      organizationId: organization.id,
    });
    if (result.error) return setError(errorMessage(result.error));
    setError(null);
    form.reset();
  }

  async function cancel(invitationId: string) {
    const result = await authClient.organization.cancelInvitation({ invitationId });
    setError(errorMessage(result.error));
  }

  // Sends the email again and gives the invitation a fresh expiry (Better Auth's `resend`).
  async function resend(invitation: { id: string; email: string; role: string }) {
    const result = await authClient.organization.inviteMember({
      email: invitation.email,
      role: invitation.role as OrganizationRole,
      organizationId: organization.id,
      resend: true,
    });
    setError(errorMessage(result.error));
    setResent(result.error ? null : invitation.email);
  }

  const pending = organization.invitations.filter((invitation) => invitation.status === 'pending');
  return (
    <Card title="Invitations">
      <form onSubmit={invite} className="inline-form">
        <Field label="Email to invite" name="email" type="email" />
        <label className="field">
          <span>Role</span>
          <select name="role" aria-label="Role" defaultValue="member">
            {ORGANIZATION_ROLES.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Send invitation</button>
      </form>
      <ErrorNote message={error} />
      <SuccessNote message={resent ? `We sent the invitation to ${resent} again.` : null} />
      <ul className="plain-list">
        {pending.map((invitation) => (
          <li key={invitation.id} data-testid="pending-invitation">
            {invitation.email} ({invitation.role}) — expires {formatDateTime(invitation.expiresAt)}{' '}
            <button type="button" className="link-button" onClick={() => void resend(invitation)}>
              Resend
            </button>{' '}
            <button type="button" className="link-button" onClick={() => void cancel(invitation.id)}>
              Cancel
            </button>
          </li>
        ))}
      </ul>
    </Card>
  );
}
