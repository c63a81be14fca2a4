import { useState } from 'react';
import { authClient, errorMessage } from '../auth/client';
import { Card, ConfirmButton, ErrorNote, Truncated } from '../components';
import { canManage, memberActions, ROLE_LABELS, type OrganizationRole } from './roles';
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
  const actionsOn = (member: (typeof organization.members)[number]) =>
    memberActions(me ?? null, member, organization.members);
  const canLeave = me ? actionsOn(me).canLeave : false;

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
          {organization.members.map((member) => {
            const actions = actionsOn(member);
            return (
              <tr key={member.id} data-testid="member-row">
                <td>
                  <Truncated text={member.user.name} />
                </td>
                <td>
                  <Truncated text={member.user.email} />
                </td>
                <td data-testid="member-role">{member.role}</td>
                {isManager ? (
                  <td className="actions">
                    {actions.roles.length > 0 ? (
                      <select
                        aria-label={`Change role of ${member.user.email}`}
                        value=""
                        onChange={(event) =>
                          void changeRole(member.id, event.target.value as OrganizationRole)
                        }
                      >
                        <option value="" disabled>
                          Change role…
                        </option>
                        {actions.roles.map((role) => (
                          <option key={role} value={role}>
                            {ROLE_LABELS[role]}
                          </option>
                        ))}
                      </select>
                    ) : null}
                    {actions.canRemove ? (
                      <ConfirmButton
                        label={`Remove ${member.user.email}`}
                        text="Remove"
                        question={`Remove ${member.user.email} from ${organization.name}?`}
                        onConfirm={() => remove(member.id)}
                      />
                    ) : null}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="button-row">
        {canLeave ? (
          <ConfirmButton
            label="Leave organization"
            question={`Leave ${organization.name}? You lose access to it.`}
            onConfirm={leave}
          />
        ) : (
          <p className="muted" data-testid="sole-owner-note">
            You are the only owner: make another member an owner before you can leave.
          </p>
        )}
      </div>
      <ErrorNote message={error} />
    </Card>
  );
}
