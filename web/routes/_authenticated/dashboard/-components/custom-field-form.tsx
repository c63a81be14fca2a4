import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  CUSTOM_FIELD_TYPES,
  customFieldSchema,
  type CustomField,
  type CustomFieldType,
} from '../../../../../domain/custom-fields/schemas';
import { sendJson } from '../../../../api';
import { formValues } from '../../../../components';
import { FormButtons, ResourceForm } from '../../../../resources/resource-page';

export const CUSTOM_FIELD_TYPE_LABELS: Record<CustomFieldType, string> = {
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

export function CustomFieldForm({
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
    <ResourceForm
      title={field ? `Edit ${field.name}` : 'Create a custom field'}
      onSubmit={onSubmit}
      error={error}
    >
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
              {CUSTOM_FIELD_TYPE_LABELS[value]}
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
      <FormButtons
        label={field ? 'Save field' : 'Create field'}
        isEditing={Boolean(field)}
        onCancel={onDone}
      />
    </ResourceForm>
  );
}
