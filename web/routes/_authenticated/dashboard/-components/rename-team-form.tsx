import { useState, type FormEvent } from 'react';
import { authClient } from '../../../../auth/client';
import { FormField } from '../../../../forms/form-field';
import { formValues } from '../../../../components';
import { authErrorsInWords, NO_ERRORS, type FormErrors } from '../../../../forms/messages';
import { TEAM_CODES, TEAM_NAME_MAX_LENGTH, TEAM_WORDS } from '../../../../organizations/words';

export function RenameTeamForm({
  team,
  onDone,
}: {
  team: { id: string; name: string };
  onDone: (error: string | null) => void;
}) {
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = (formValues(event.currentTarget).name ?? '').trim();
    if (!name) return setErrors({ fields: { name: 'Enter a name.' }, form: null });
    const result = await authClient.organization.updateTeam({ teamId: team.id, data: { name } });
    if (!result.error) return onDone(null);
    const refused = authErrorsInWords(result.error, TEAM_WORDS, TEAM_CODES);
    // A refusal about the name stays in the form; any other is the page's.
    if (refused.fields.name) setErrors(refused);
    else onDone(refused.form);
  }
  return (
    <form
      onSubmit={(event) => void onSubmit(event)}
      className="inline-form"
      aria-label={`Rename ${team.name}`}
      noValidate
    >
      <FormField
        label={`New name for ${team.name}`}
        field="name"
        error={errors.fields.name}
        required
        className="field"
      >
        {(control) => (
          <input {...control} name="name" defaultValue={team.name} maxLength={TEAM_NAME_MAX_LENGTH} />
        )}
      </FormField>
      <button type="submit">Save name</button>
      <button type="button" className="secondary" onClick={() => onDone(null)}>
        Cancel
      </button>
    </form>
  );
}
