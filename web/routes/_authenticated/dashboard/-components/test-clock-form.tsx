import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { TEXT_MAX_LENGTH } from '../../../../../domain/platform/schemas';
import { testClockSchema } from '../../../../../domain/test-clocks/schemas';
import { sendJson } from '../../../../api';
import { FormField } from '../../../../forms/form-field';
import { Card, ErrorNote } from '../../../../components';
import { formErrorsInWords, type FormWords } from '../../../../forms/messages';
import { textWords } from '../../../../forms/words';
import { toLocalInput } from '../../../../test-clocks/queries';

const WORDS: FormWords = {
  name: textWords(TEXT_MAX_LENGTH.name),
  frozen_time: {
    invalid_format: 'Choose a valid date and time.',
    invalid_type: 'Choose a valid date and time.',
  },
};
type Errors = { fields: Record<string, string>; form: string | null };

/** Creates a clock frozen at the chosen time (now unless changed) and opens it. */
export function TestClockForm({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [startsAt, setStartsAt] = useState(() => toLocalInput(new Date()));
  const [errors, setErrors] = useState<Errors>({ fields: {}, form: null });
  const [isBusy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const frozenTime = new Date(startsAt);
    if (!startsAt || Number.isNaN(frozenTime.getTime())) {
      setErrors({ fields: { frozen_time: 'Choose the date and time the clock starts at.' }, form: null });
      return;
    }
    setBusy(true);
    try {
      const clock = await sendJson(
        'POST',
        '/v1/test-clocks/',
        { organization_id: organizationId, name: name.trim() || null, frozen_time: frozenTime.toISOString() },
        testClockSchema,
      );
      await queryClient.invalidateQueries({ queryKey: ['test-clocks', organizationId] });
      await navigate({ to: '/dashboard/test-clocks/$testClockId', params: { testClockId: clock.id } });
    } catch (failure) {
      setErrors(formErrorsInWords(failure, WORDS));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card title="Create a test clock">
      <p className="muted">
        Customers you attach to a clock live in its time: their subscriptions start at it, and renew when you
        advance it.
      </p>
      <form className="stack" onSubmit={(event) => void onSubmit(event)} noValidate>
        <FormField label="Clock name" field="name" error={errors.fields.name}>
          {(control) => (
            <input
              {...control}
              maxLength={TEXT_MAX_LENGTH.name}
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
          )}
        </FormField>
        <FormField label="Start time" field="frozen_time" required error={errors.fields.frozen_time}>
          {(control) => (
            <input
              {...control}
              type="datetime-local"
              value={startsAt}
              onChange={(event) => setStartsAt(event.target.value)}
            />
          )}
        </FormField>
        <ErrorNote message={errors.form} />
        <div className="button-row">
          <button type="submit" disabled={isBusy}>
            {isBusy ? 'Creating…' : 'Create test clock'}
          </button>
        </div>
      </form>
    </Card>
  );
}
