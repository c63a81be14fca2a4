import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { authClient, errorMessage } from '../../../auth/client';
import { FormField } from '../../../forms/form-field';
import { ConfirmButton, ErrorNote, formValues, Truncated } from '../../../components';
import { authErrorsInWords, NO_ERRORS, type FormErrors } from '../../../forms/messages';
import { prefetch } from '../../../loaders';
import { canManage } from '../../../organizations/roles';
import { TEAM_CODES, TEAM_NAME_MAX_LENGTH, TEAM_WORDS } from '../../../organizations/words';
import { organizationKeys, teamsQuery } from '../../../organizations/queries';
import { TeamMembersCard } from '../../../organizations/team-members';
import type { ActiveOrganization } from '../../../organizations/types';
import { ResourceCard, ResourceList } from '../../../resources/resource-page';
import { RenameTeamForm } from './-components/rename-team-form';
import { PageTitle } from '../../../shell/page-title';

export const Route = createFileRoute('/_authenticated/dashboard/teams')({
  loader: ({ context: { queryClient, organizationId } }) => {
    if (organizationId) prefetch(queryClient, teamsQuery(organizationId));
  },
  component: TeamsPage,
});

function TeamsPage() {
  return (
    <>
      <PageTitle title="Teams" />
      <TeamsPageContent />
    </>
  );
}

function TeamsPageContent() {
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
  const [createErrors, setCreateErrors] = useState<FormErrors>(NO_ERRORS);
  const userId = Route.useRouteContext().session.user.id;
  const isManager = canManage(organization.members.find((member) => member.userId === userId)?.role);

  const refresh = () => queryClient.invalidateQueries({ queryKey: organizationKeys.teams(organization.id) });

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const name = (formValues(form).name ?? '').trim();
    if (!name) return setCreateErrors({ fields: { name: 'Enter a team name.' }, form: null });
    const result = await authClient.organization.createTeam({ name, organizationId: organization.id });
    setCreateErrors(result.error ? authErrorsInWords(result.error, TEAM_WORDS, TEAM_CODES) : NO_ERRORS);
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
          isManager ? (
            <>
              <form onSubmit={(event) => void create(event)} className="inline-form" noValidate>
                <FormField
                  label="Team name"
                  field="name"
                  error={createErrors.fields.name}
                  required
                  className="field"
                >
                  {(control) => <input {...control} name="name" maxLength={TEAM_NAME_MAX_LENGTH} />}
                </FormField>
                <button type="submit">Create team</button>
              </form>
              <ErrorNote message={createErrors.form} />
            </>
          ) : (
            <p className="muted" data-testid="managers-only">
              Only owners and admins can create, rename or remove teams.
            </p>
          )
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
                <span className="grow">
                  <Truncated text={team.name} />
                </span>
                <button
                  type="button"
                  className="secondary"
                  aria-label={`Members of ${team.name}`}
                  onClick={() => setSelected(team.id)}
                >
                  Members
                </button>
                {isManager ? (
                  <>
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
                ) : null}
              </>
            )
          }
        </ResourceList>
      </ResourceCard>
      {selectedTeam ? <TeamMembersCard organization={organization} team={selectedTeam} /> : null}
    </>
  );
}
