import { useState } from 'react';
import { authClient, errorMessage } from '../auth/client';
import { Card, ConfirmButton, ErrorNote } from '../components';
import { canManage, ORGANIZATION_ROLES, ROLE_LABELS, type OrganizationRole } from './roles';
import type { ActiveOrganization } from './types';

export function MembersCard({
  organization,
  currentUserId,
}: {
  organization: ActiveOrganization;
  currentUserId: string;
}) {
  const organizations = authClient.useListOrganizations();
  const [error, setError] = useState<string | null>(null);
  const me = organization.members.find((member) => member.userId === currentUserId);
  const isManager = canManage(me?.role);

  async function changeRole(memberId: string, role: OrganizationRole) {
    const result = await authClient.organization.updateMemberRole({
      memberId,
      role,
      organizationId: organization.id,
    });
    setError(errorMessage(result.error));
  }

  async function remove(memberId: string) {
    const result = await authClient.organization.removeMember({
      memberIdOrEmail: memberId,
      organizationId: organization.id,
    });
    setError(errorMessage(result.error));
  }

  async function leave() {
    const result = await authClient.organization.leave({ organizationId: organization.id });
    setError(errorMessage(result.error));
    // Leaving clears the active organization (the session refreshes by itself); the list does not.
    if (!result.error) organizations.refetch();
  }

  return (
    <Card title="Members">
      <table>
        <thead>
          <tr>
            <th>Name</th>
            <th>Email</th>
            <th>Role</th>
            {isManager ? <th>Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {organization.members.map((member) => (
            <tr key={member.id} data-testid="member-row">
              <td>{member.user.name}</td>
              <td>{member.user.email}</td>
              <td data-testid="member-role">{member.role}</td>
              {isManager ? (
                <td className="actions">
                  <select
                    aria-label={`Change role of ${member.user.email}`}
                    value=""
                    onChange={(event) => void changeRole(member.id, event.target.value as OrganizationRole)}
                  >
                    <option value="" disabled>
                      Change role…
                    </option>
                    {ORGANIZATION_ROLES.filter((role) => role !== member.role).map((role) => (
                      <option key={role} value={role}>
                        {ROLE_LABELS[role]}
                      </option>
                    ))}
                  </select>
                  {member.userId === currentUserId ? null : (
                    <ConfirmButton
                      label={`Remove ${member.user.email}`}
                      text="Remove"
                      question={`Remove ${member.user.email} from ${organization.name}?`}
                      onConfirm={() => remove(member.id)}
                    />
                  )}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="button-row">
        <ConfirmButton
          label="Leave organization"
          question={`Leave ${organization.name}? You lose access to it.`}
          onConfirm={leave}
        />
      </div>
      <ErrorNote message={error} />
    </Card>
  );
}
