import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { TestClock } from '../../../../../domain/test-clocks/schemas';
import { FormField } from '../../../../forms/form-field';
import { Card, ErrorNote } from '../../../../components';
import {
  addDays,
  addMonths,
  advanceTestClock,
  testClockQuery,
  toLocalInput,
} from '../../../../test-clocks/queries';
import { formErrorsInWords, type FormWords } from '../../../../forms/messages';

// Without `other`: "after the clock's time" is the service's rule, said in its own words.
const WORDS: FormWords = {
  frozen_time: {
    invalid_format: 'Choose a valid date and time.',
    invalid_type: 'Choose a valid date and time.',
  },
};
type Errors = { fields: Record<string, string>; form: string | null };
const NO_ERRORS: Errors = { fields: {}, form: null };

const STEPS: { label: string; next: (from: Date) => Date }[] = [
  { label: 'Advance 1 day', next: (from) => addDays(from, 1) },
  { label: 'Advance 1 month', next: (from) => addMonths(from, 1) },
  { label: 'Advance 1 year', next: (from) => addMonths(from, 12) },
];

/** Moves the clock forward by a step or to a chosen time; offered only while it is ready. */
export function TestClockAdvance({ clock }: { clock: TestClock }) {
  const queryClient = useQueryClient();
  const frozenTime = new Date(clock.frozen_time);
  const [custom, setCustom] = useState(() => toLocalInput(addDays(frozenTime, 1)));
  const [errors, setErrors] = useState<Errors>(NO_ERRORS);
  const [isBusy, setBusy] = useState(false);
  const isAdvancing = clock.status === 'advancing';

  async function advance(to: Date) {
    setBusy(true);
    try {
      const updated = await advanceTestClock(clock.id, to);
      queryClient.setQueryData(testClockQuery(clock.id).queryKey, updated);
      setErrors(NO_ERRORS);
      setCustom(toLocalInput(addDays(new Date(updated.frozen_time), 1)));
      await queryClient.invalidateQueries({ queryKey: ['test-clocks', clock.organization_id] });
    } catch (failure) {
      setErrors(formErrorsInWords(failure, WORDS));
    } finally {
      setBusy(false);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const to = new Date(custom);
    if (!custom || Number.isNaN(to.getTime())) {
      setErrors({ fields: { frozen_time: 'Choose the date and time to advance the clock to.' }, form: null });
      return;
    }
    void advance(to);
  }

  const disabled = isBusy || isAdvancing;
  return (
    <Card title="Advance the clock">
      <div className="actions">
        {STEPS.map((step) => (
          <button
            key={step.label}
            type="button"
            className="secondary"
            disabled={disabled}
            onClick={() => void advance(step.next(frozenTime))}
          >
            {step.label}
          </button>
        ))}
      </div>
      <form className="inline-form" onSubmit={onSubmit} noValidate>
        <FormField label="Advance to" field="frozen_time" required error={errors.fields.frozen_time}>
          {(control) => (
            <input
              {...control}
              type="datetime-local"
              value={custom}
              onChange={(event) => {
                setCustom(event.target.value);
                setErrors(NO_ERRORS);
              }}
            />
          )}
        </FormField>
        <button type="submit" disabled={disabled}>
          Advance
        </button>
      </form>
      {isAdvancing ? (
        <p className="muted" role="status">
          The clock’s subscriptions are catching up with its new time; renewals appear below as they happen.
        </p>
      ) : null}
      <ErrorNote message={errors.form} />
    </Card>
  );
}
