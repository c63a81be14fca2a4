import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  meterSchema,
  PROPERTY_AGGREGATION_FUNCTIONS,
  type Aggregation,
  type Meter,
} from '../../../../../domain/meters/schemas';
import { sendJson } from '../../../../api';
import { formValues } from '../../../../components';
import { FormButtons, ResourceForm } from '../../../../resources/resource-page';
import { fromDraft, GroupEditor, newFilterDraft, toDraft, type GroupDraft } from './meter-filter-editor';

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
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const values = formValues(event.currentTarget);
    const body = {
      name: values.name,
      filter: fromDraft(filter),
      aggregation: func === 'count' ? { func } : { func, property: values.aggregation_property },
    };
    try {
      if (meter) await sendJson('PATCH', `/v1/meters/${meter.id}`, body, meterSchema);
      else await sendJson('POST', '/v1/meters/', { ...body, organization_id: organizationId }, meterSchema);
      setError(null);
      await queryClient.invalidateQueries({ queryKey: ['meters', organizationId] });
      onDone();
    } catch (failure) {
      setError((failure as Error).message);
    }
  }

  return (
    <ResourceForm title={meter ? `Edit ${meter.name}` : 'Create a meter'} onSubmit={onSubmit} error={error}>
      <label className="field">
        <span>Meter name</span>
        <input name="name" defaultValue={meter?.name ?? ''} />
      </label>
      <GroupEditor group={filter} path="" onChange={setFilter} />
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
          <label className="field">
            <span>Aggregated property</span>
            <input
              name="aggregation_property"
              defaultValue={meter?.aggregation.func === 'count' ? '' : (meter?.aggregation.property ?? '')}
            />
          </label>
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
