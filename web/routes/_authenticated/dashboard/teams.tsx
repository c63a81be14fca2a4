import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { authClient, errorMessage } from '../../../auth/client';
import { ConfirmButton, Field, formValues } from '../../../components';
import { prefetch } from '../../../loaders';
import { organizationKeys, teamsQuery } from '../../../organizations/queries';
import { TeamMembersCard } from '../../../organizations/team-members';
import type { ActiveOrganization } from '../../../organizations/types';
import { ResourceCard, ResourceList } from '../../../resources/resource-page';
import { RenameTeamForm } from './-components/rename-team-form';

export const Route = createFileRoute('/_authenticated/dashboard/teams')({
  loader: ({ context: { queryClient, organizationId } }) => {
    if (organizationId) prefetch(queryClient, teamsQuery(organizationId));
  },
  component: TeamsPage,
});

function TeamsPage() {
  const organization = authClient.useActiveOrganization().data;
  if (!organization) return <p>Create or choose an organization to see its teams.</p>;
  return <Teams organization={organization} />;
}

function Teams({ organization }: { organization: ActiveOrganization }) {
  const queryClient = useQueryClient();
  const teams = useQuery(teamsQuery(organization.id));
  const [renaming, setRenaming] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: organizationKeys.teams(organization.id) });

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const { name = '' } = formValues(form);
    const result = await authClient.organization.createTeam({ name, organizationId: organization.id });
    setError(errorMessage(result.error));
    if (!result.error) form.reset();
    await refresh();
  }

  async function remove(teamId: string) {
    const result = await authClient.organization.removeTeam({ teamId, organizationId: organization.id });
    setError(errorMessage(result.error));
    if (!result.error && selected === teamId) setSelected(null);
    await refresh();
  }

  const selectedTeam = teams.data?.find((team) => team.id === selected);
  return (
    <>
      <ResourceCard
        title="Teams"
        toolbar={
          <form onSubmit={create} className="inline-form">
            <Field label="Team name" name="name" />
            <button type="submit">Create team</button>
          </form>
        }
        error={error ?? teams.error?.message ?? null}
        items={teams.data}
      >
        <ResourceList items={teams.data} rowTestId="team-row" itemClassName="row">
          {(team) =>
            renaming === team.id ? (
              <RenameTeamForm
                team={team}
                onDone={(renameError) => {
                  setError(renameError);
                  if (!renameError) setRenaming(null);
                  void refresh();
                }}
              />
            ) : (
              <>
                <span className="grow">{team.name}</span>
                <button
                  type="button"
                  className="secondary"
                  aria-label={`Members of ${team.name}`}
                  onClick={() => setSelected(team.id)}
                >
                  Members
                </button>
                <button
                  type="button"
                  className="secondary"
                  aria-label={`Rename ${team.name}`}
                  onClick={() => setRenaming(team.id)}
                >
                  Rename
                </button>
                <ConfirmButton
                  label={`Remove ${team.name}`}
                  text="Remove"
                  question={`Remove the team ${team.name}?`}
                  onConfirm={() => remove(team.id)}
                />
              </>
            )
          }
        </ResourceList>
      </ResourceCard>
      {selectedTeam ? <TeamMembersCard organization={organization} team={selectedTeam} /> : null}
    </>
  );
}
