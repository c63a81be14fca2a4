import type { FormEvent } from 'react';
import { authClient, errorMessage } from '../../../../auth/client';
import { formValues } from '../../../../components';

export function RenameTeamForm({
  team,
  onDone,
}: {
  team: { id: string; name: string };
  onDone: (error: string | null) => void;
}) {
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
