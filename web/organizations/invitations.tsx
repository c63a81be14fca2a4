import { useState, type FormEvent } from 'react';
import { authClient, errorMessage } from '../auth/client';
import { Card, ErrorNote, Field, formatDateTime, formValues } from '../components';
import { ORGANIZATION_ROLES, ROLE_LABELS, type OrganizationRole } from './roles';
import type { ActiveOrganization } from './types';

export function InvitationsCard({ organization }: { organization: ActiveOrganization }) {
  const [error, setError] = useState<string | null>(null);

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
      <ul className="plain-list">
        {pending.map((invitation) => (
          <li key={invitation.id} data-testid="pending-invitation">
            {invitation.email} ({invitation.role}) — expires {formatDateTime(invitation.expiresAt)}{' '}
            <button type="button" className="link-button" onClick={() => void cancel(invitation.id)}>
              Cancel
            </button>
          </li>
        ))}
      </ul>
    </Card>
  );
}
