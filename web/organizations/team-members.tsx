import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { authClient, errorMessage } from '../auth/client';
import { useSession } from '../auth/session';
import { Card, ErrorNote, formValues, Truncated } from '../components';
import { myTeamsQuery, organizationKeys, teamMembersQuery } from './queries';
import { canManage } from './roles';
import type { ActiveOrganization } from './types';

export function TeamMembersCard({
  organization,
  team,
}: {
  organization: ActiveOrganization;
  team: { id: string; name: string };
}) {
  const queryClient = useQueryClient();
  const userId = useSession().data?.user.id;
  // Spec §6: changing a team's members is a team update, for owners and admins.
  const isManager = canManage(organization.members.find((member) => member.userId === userId)?.role);
  const myTeams = useQuery(myTeamsQuery);
  const isInTeam = Boolean(myTeams.data?.some((mine) => mine.id === team.id));
  const members = useQuery({ ...teamMembersQuery(team.id), enabled: isInTeam });
  const [error, setError] = useState<string | null>(null);

  const memberIds = new Set((isInTeam ? members.data : [])?.map((member) => member.userId));
  const userOf = (userId: string) =>
    organization.members.find((member) => member.userId === userId)?.user ?? { name: userId, email: '' };
  const candidates = organization.members.filter((member) => !memberIds.has(member.userId));

  async function refresh() {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: organizationKeys.teamMembers(team.id) }),
      queryClient.invalidateQueries({ queryKey: organizationKeys.myTeams }),
    ]);
  }

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { userId = '' } = formValues(event.currentTarget);
    const result = await authClient.organization.addTeamMember({
      teamId: team.id,
      userId,
      organizationId: organization.id,
    });
    setError(errorMessage(result.error));
    await refresh();
  }

  async function remove(userId: string) {
    const result = await authClient.organization.removeTeamMember({
      teamId: team.id,
      userId,
      organizationId: organization.id,
    });
    setError(errorMessage(result.error));
    await refresh();
  }

  return (
    <Card title={`Members of ${team.name}`}>
      {myTeams.isSuccess && !isInTeam ? (
        <p>Only members of a team can see who is in it. Add yourself to see its members.</p>
      ) : null}
      <ErrorNote message={members.error?.message ?? myTeams.error?.message ?? null} />
      <ul className="plain-list">
        {(isInTeam ? (members.data ?? []) : []).map((member) => {
          const user = userOf(member.userId);
          return (
            <li key={member.id} data-testid="team-member">
              <Truncated text={user.email ? `${user.name} (${user.email})` : user.name} />{' '}
              {isManager ? (
                <button
                  type="button"
                  className="link-button"
                  aria-label={`Remove ${user.email || user.name} from ${team.name}`}
                  onClick={() => void remove(member.userId)}
                >
                  Remove from team
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
      {isManager && candidates.length > 0 ? (
        <form onSubmit={add} className="inline-form">
          <label className="field">
            <span>Member to add</span>
            <select name="userId" aria-label="Member to add" required>
              {candidates.map((member) => (
                <option key={member.userId} value={member.userId}>
                  {member.user.name} ({member.user.email})
                </option>
              ))}
            </select>
          </label>
          <button type="submit">Add to team</button>
        </form>
      ) : null}
      <ErrorNote message={error} />
    </Card>
  );
}
