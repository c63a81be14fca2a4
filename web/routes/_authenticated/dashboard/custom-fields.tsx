import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import {
  CUSTOM_FIELD_TYPES,
  customFieldSchema,
  type CustomField,
  type CustomFieldType,
} from '../../../../domain/custom-fields/schemas';
import { deleteResource, sendJson } from '../../../api';
import { authClient } from '../../../auth/client';
import { Card, ConfirmButton, ErrorNote, formValues } from '../../../components';
import { customFieldsQuery } from '../../../catalog/queries';

export const Route = createFileRoute('/_authenticated/dashboard/custom-fields')({
  component: CustomFieldsPage,
});

const TYPE_LABELS: Record<CustomFieldType, string> = {
  text: 'Text',
  number: 'Number',
  date: 'Date',
  checkbox: 'Checkbox',
  select: 'Select',
};

type Option = { key: number; value: string; label: string };
let nextOptionKey = 0;
function newOption(value = '', label = ''): Option {
  nextOptionKey += 1;
  return { key: nextOptionKey, value, label };
}

/** The API refuses empty strings in properties (min length 1), so unset fields are left out. */
function present(entries: Record<string, string | number | boolean | undefined>) {
  return Object.fromEntries(
    Object.entries(entries).filter(([, value]) => value !== undefined && value !== ''),
  );
}

const optionalInteger = (value: string | undefined) => (value ? Number(value) : undefined);

function propertiesFrom(
  type: CustomFieldType,
  values: Record<string, string>,
  form: HTMLFormElement,
  options: Option[],
) {
  const common = {
    form_label: values.form_label,
    form_help_text: values.form_help_text,
    form_placeholder: values.form_placeholder,
  };
  switch (type) {
    case 'checkbox':
      return present(common);
    case 'date':
    case 'number':
      return present({ ...common, ge: optionalInteger(values.ge), le: optionalInteger(values.le) });
    case 'text':
      return present({
        ...common,
        textarea: (form.elements.namedItem('textarea') as HTMLInputElement).checked,
        min_length: optionalInteger(values.min_length),
        max_length: optionalInteger(values.max_length),
      });
    case 'select':
      return {
        ...present(common),
        options: options.map((option) => ({ value: option.value, label: option.label })),
      };
  }
}

function CustomFieldForm({
  organizationId,
  field,
  onDone,
}: {
  organizationId: string;
  field: CustomField | null;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const [type, setType] = useState<CustomFieldType>(field?.type ?? 'text');
  const [options, setOptions] = useState<Option[]>(
    field?.type === 'select'
      ? field.properties.options.map((option) => newOption(option.value, option.label))
      : [newOption()],
  );
  const [error, setError] = useState<string | null>(null);
  const properties = (field?.properties ?? {}) as Record<string, string | number | boolean | undefined>;
  const initial = (name: string) => (properties[name] === undefined ? '' : String(properties[name]));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = formValues(form);
    const body = {
      type,
      name: values.name,
      slug: values.slug,
      properties: propertiesFrom(type, values, form, options),
    };
    try {
      if (field) await sendJson('PATCH', `/v1/custom-fields/${field.id}`, body, customFieldSchema);
      else
        await sendJson(
          'POST',
          '/v1/custom-fields/',
          { ...body, organization_id: organizationId },
          customFieldSchema,
        );
      setError(null);
      await queryClient.invalidateQueries({ queryKey: ['custom-fields', organizationId] });
      onDone();
    } catch (failure) {
      setError((failure as Error).message);
    }
  }

  const input = (label: string, name: string, inputType = 'text') => (
    <label className="field">
      <span>{label}</span>
      <input name={name} type={inputType} defaultValue={initial(name)} />
    </label>
  );

  return (
    <Card title={field ? `Edit ${field.name}` : 'Create a custom field'}>
      <form onSubmit={onSubmit} className="stack" noValidate>
        <label className="field">
          <span>Field type</span>
          <select
            aria-label="Field type"
            value={type}
            disabled={Boolean(field)}
            onChange={(event) => setType(event.target.value as CustomFieldType)}
          >
            {CUSTOM_FIELD_TYPES.map((value) => (
              <option key={value} value={value}>
                {TYPE_LABELS[value]}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Field name</span>
          <input name="name" defaultValue={field?.name ?? ''} />
        </label>
        <label className="field">
          <span>Slug</span>
          <input name="slug" defaultValue={field?.slug ?? ''} placeholder="letters, digits and hyphens" />
        </label>
        {input('Label on the checkout form', 'form_label')}
        {input('Help text', 'form_help_text')}
        {type === 'checkbox' ? null : input('Placeholder', 'form_placeholder')}
        {type === 'text' ? (
          <>
            <label className="checkbox">
              <input type="checkbox" name="textarea" defaultChecked={properties.textarea === true} /> Several
              lines
            </label>
            {input('Minimum length', 'min_length', 'number')}
            {input('Maximum length', 'max_length', 'number')}
          </>
        ) : null}
        {type === 'number' || type === 'date' ? (
          <>
            {input('Minimum', 'ge', 'number')}
            {input('Maximum', 'le', 'number')}
          </>
        ) : null}
        {type === 'select' ? (
          <fieldset>
            <legend>Options</legend>
            {options.map((option, index) => (
              <div key={option.key} className="inline-form">
                <label className="field">
                  <span>{`Option ${index + 1} value`}</span>
                  <input
                    value={option.value}
                    onChange={(event) =>
                      setOptions(
                        options.map((other) =>
                          other.key === option.key ? { ...other, value: event.target.value } : other,
                        ),
                      )
                    }
                  />
                </label>
                <label className="field">
                  <span>{`Option ${index + 1} label`}</span>
                  <input
                    value={option.label}
                    onChange={(event) =>
                      setOptions(
                        options.map((other) =>
                          other.key === option.key ? { ...other, label: event.target.value } : other,
                        ),
                      )
                    }
                  />
                </label>
                <button
                  type="button"
                  className="secondary"
                  onClick={() => setOptions(options.filter((other) => other.key !== option.key))}
                >
                  {`Remove option ${index + 1}`}
                </button>
              </div>
            ))}
            <button type="button" className="secondary" onClick={() => setOptions([...options, newOption()])}>
              Add an option
            </button>
          </fieldset>
        ) : null}
        <div className="button-row">
          <button type="submit">{field ? 'Save field' : 'Create field'}</button>
          {field ? (
            <button type="button" className="secondary" onClick={onDone}>
              Cancel
            </button>
          ) : null}
        </div>
      </form>
      <ErrorNote message={error} />
    </Card>
  );
}

function CustomFieldsPage() {
  const active = authClient.useActiveOrganization();
  const organizationId = active.data?.id;
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<CustomField | null>(null);
  const [created, setCreated] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const fields = useQuery({ ...customFieldsQuery(organizationId ?? ''), enabled: Boolean(organizationId) });
  if (!organizationId) return <p>Choose an organization to see its custom fields.</p>;
  return (
    <>
      {editing ? (
        <CustomFieldForm
          key={editing.id}
          organizationId={organizationId}
          field={editing}
          onDone={() => setEditing(null)}
        />
      ) : (
        <CustomFieldForm
          key={`new-${created}`}
          organizationId={organizationId}
          field={null}
          onDone={() => setCreated(created + 1)}
        />
      )}
      <Card title="Custom fields">
        <ErrorNote message={fields.error?.message ?? error} />
        {fields.data?.items.length === 0 ? <p className="muted">No custom fields yet.</p> : null}
        <table className="data-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Slug</th>
              <th>Type</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {(fields.data?.items ?? []).map((field) => (
              <tr key={field.id} data-testid="custom-field-row">
                <td>{field.name}</td>
                <td>
                  <code>{field.slug}</code>
                </td>
                <td>
                  {TYPE_LABELS[field.type]}
                  {field.type === 'select'
                    ? ` (${field.properties.options.map((option) => option.label).join(', ')})`
                    : ''}
                </td>
                <td className="actions">
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Edit ${field.name}`}
                    onClick={() => setEditing(field)}
                  >
                    Edit
                  </button>
                  <ConfirmButton
                    label={`Delete ${field.name}`}
                    text="Delete"
                    question="Delete this field?"
                    onConfirm={async () => {
                      await deleteResource(`/v1/custom-fields/${field.id}`)
                        .then(() => setError(null))
                        .catch((failure: Error) => setError(failure.message));
                      await queryClient.invalidateQueries({ queryKey: ['custom-fields', organizationId] });
                    }}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
    </>
  );
}
