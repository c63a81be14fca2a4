import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  meterSchema,
  PROPERTY_AGGREGATION_FUNCTIONS,
  type Aggregation,
  type Meter,
} from '../../../../../domain/meters/schemas';
import { TEXT_MAX_LENGTH } from '../../../../../domain/platform/schemas';
import { sendJson } from '../../../../api';
import { FormField, focusFirstInvalid } from '../../../../forms/form-field';
import { formValues } from '../../../../components';
import { formErrorsInWords, NO_ERRORS, type FormErrors, type FormWords } from '../../../../forms/messages';
import { nameWords } from '../../../../forms/words';
import { FormButtons, ResourceForm } from '../../../../resources/resource-page';
import {
  FILTER_WORDS,
  fromDraft,
  GroupEditor,
  newFilterDraft,
  toDraft,
  type GroupDraft,
} from './meter-filter-editor';
import '../../../../forms/forms.css';

const METER_WORDS: FormWords = {
  name: nameWords('meter name', { min: 3, max: TEXT_MAX_LENGTH.name }),
  'aggregation.property': nameWords('property to aggregate', { max: TEXT_MAX_LENGTH.name }),
  ...FILTER_WORDS,
};

export function MeterForm({
  organizationId,
  meter,
  onDone,
}: {
  organizationId: string;
  meter: Meter | null;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<GroupDraft>(() => (meter ? toDraft(meter.filter) : newFilterDraft()));
  const [func, setFunc] = useState<Aggregation['func']>(meter?.aggregation.func ?? 'count');
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = formValues(form);
    const body = {
      name: values.name,
      filter: fromDraft(filter),
      aggregation: func === 'count' ? { func } : { func, property: values.aggregation_property },
    };
    try {
      if (meter) await sendJson('PATCH', `/v1/meters/${meter.id}`, body, meterSchema);
      else await sendJson('POST', '/v1/meters/', { ...body, organization_id: organizationId }, meterSchema);
      setErrors(NO_ERRORS);
      await queryClient.invalidateQueries({ queryKey: ['meters', organizationId] });
      onDone();
    } catch (failure) {
      setErrors(formErrorsInWords(failure, METER_WORDS));
      requestAnimationFrame(() => focusFirstInvalid(form));
    }
  }

  return (
    <ResourceForm
      title={meter ? `Edit ${meter.name}` : 'Create a meter'}
      onSubmit={onSubmit}
      error={errors.form}
    >
      <FormField label="Meter name" field="name" error={errors.fields.name} required className="field">
        {(control) => (
          <input {...control} name="name" maxLength={TEXT_MAX_LENGTH.name} defaultValue={meter?.name ?? ''} />
        )}
      </FormField>
      <GroupEditor group={filter} path="" errors={errors.fields} onChange={setFilter} />
      <div className="inline-form">
        <label className="field">
          <span>Aggregation</span>
          <select
            aria-label="Aggregation"
            value={func}
            onChange={(event) => setFunc(event.target.value as Aggregation['func'])}
          >
            <option value="count">count events</option>
            {PROPERTY_AGGREGATION_FUNCTIONS.map((value) => (
              <option key={value} value={value}>
                {value} of a property
              </option>
            ))}
          </select>
        </label>
        {func === 'count' ? null : (
          <FormField
            label="Aggregated property"
            field="aggregation.property"
            error={errors.fields['aggregation.property']}
            required
            className="field"
          >
            {(control) => (
              <input
                {...control}
                name="aggregation_property"
                maxLength={TEXT_MAX_LENGTH.name}
                defaultValue={meter?.aggregation.func === 'count' ? '' : (meter?.aggregation.property ?? '')}
              />
            )}
          </FormField>
        )}
      </div>
      <FormButtons
        label={meter ? 'Save meter' : 'Create meter'}
        isEditing={Boolean(meter)}
        onCancel={onDone}
      />
    </ResourceForm>
  );
}
