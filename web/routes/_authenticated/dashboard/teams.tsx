import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { authClient, errorMessage } from '../../../auth/client';
import { Card, ConfirmButton, ErrorNote, Field, formValues } from '../../../components';
import { organizationKeys, teamsQuery } from '../../../organizations/queries';
import { TeamMembersCard } from '../../../organizations/team-members';

export const Route = createFileRoute('/_authenticated/dashboard/teams')({ component: TeamsPage });

type Team = { id: string; name: string };

function RenameTeam({ team, onDone }: { team: Team; onDone: (error: string | null) => void }) {
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { name = '' } = formValues(event.currentTarget);
    const result = await authClient.organization.updateTeam({ teamId: team.id, data: { name } });
    onDone(errorMessage(result.error));
  }
  return (
    <form onSubmit={onSubmit} className="inline-form" aria-label={`Rename ${team.name}`}>
      <label className="field">
        <span>New name for {team.name}</span>
        <input name="name" defaultValue={team.name} required minLength={1} />
      </label>
      <button type="submit">Save name</button>
      <button type="button" className="secondary" onClick={() => onDone(null)}>
        Cancel
      </button>
    </form>
  );
}

function TeamsPage() {
  const active = authClient.useActiveOrganization();
  const organization = active.data;
  const queryClient = useQueryClient();
  const teams = useQuery({ ...teamsQuery(organization?.id ?? ''), enabled: Boolean(organization) });
  const [renaming, setRenaming] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (!organization) return <p>Create or choose an organization to see its teams.</p>;

  const refresh = () => queryClient.invalidateQueries({ queryKey: organizationKeys.teams(organization.id) });

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const { name = '' } = formValues(form);
    const result = await authClient.organization.createTeam({ name, organizationId: organization?.id });
    setError(errorMessage(result.error));
    if (!result.error) form.reset();
    await refresh();
  }

  async function remove(teamId: string) {
    const result = await authClient.organization.removeTeam({ teamId, organizationId: organization?.id });
    setError(errorMessage(result.error));
    if (!result.error && selected === teamId) setSelected(null);
    await refresh();
  }

  const selectedTeam = teams.data?.find((team) => team.id === selected);
  return (
    <>
      <Card title="Teams">
        <form onSubmit={create} className="inline-form">
          <Field label="Team name" name="name" />
          <button type="submit">Create team</button>
        </form>
        <ErrorNote message={error ?? teams.error?.message ?? null} />
        <ul className="plain-list">
          {(teams.data ?? []).map((team) => (
            <li key={team.id} data-testid="team-row" className="row">
              {renaming === team.id ? (
                <RenameTeam
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
              )}
            </li>
          ))}
        </ul>
      </Card>
      {selectedTeam ? <TeamMembersCard organization={organization} team={selectedTeam} /> : null}
    </>
  );
}
