import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  CUSTOM_FIELD_TYPES,
  customFieldSchema,
  type CustomField,
  type CustomFieldType,
} from '../../../../../domain/custom-fields/schemas';
import { TEXT_MAX_LENGTH } from '../../../../../domain/platform/schemas';
import { sendJson } from '../../../../api';
import { FormField, focusFirstInvalid } from '../../../../forms/form-field';
import { formValues } from '../../../../components';
import { formErrorsInWords, NO_ERRORS, type FormErrors, type FormWords } from '../../../../forms/messages';
import { TextField } from '../../../../forms/text-field';
import { nameWords, textWords } from '../../../../forms/words';
import { FormButtons, ResourceForm } from '../../../../resources/resource-page';
import '../../../../forms/forms.css';

/** The custom fields API's limits (domain/custom-fields/schemas.ts). */
const SLUG_MAX_LENGTH = 100;
const HELP_TEXT_MAX_LENGTH = 1000;
const WHOLE_NUMBER = 'Enter a whole number.';

const CUSTOM_FIELD_WORDS: FormWords = {
  name: nameWords('field name', { max: TEXT_MAX_LENGTH.name }),
  slug: {
    too_small: 'Enter a slug, such as company-size.',
    invalid_type: 'Enter a slug, such as company-size.',
    too_big: `Enter at most ${SLUG_MAX_LENGTH} characters.`,
    invalid_format: 'A slug may contain only letters, digits and hyphens, such as company-size.',
  },
  'properties.form_label': textWords(TEXT_MAX_LENGTH.name),
  'properties.form_help_text': textWords(HELP_TEXT_MAX_LENGTH),
  'properties.form_placeholder': textWords(TEXT_MAX_LENGTH.name),
  'properties.min_length': { other: 'Enter a whole number of characters, 0 or more.' },
  'properties.max_length': { other: 'Enter a whole number of characters, 0 or more.' },
  'properties.ge': { other: WHOLE_NUMBER },
  'properties.le': { other: WHOLE_NUMBER },
  'properties.options': { too_small: 'Add at least one option.' },
  'properties.options.*.value': nameWords('value', { max: TEXT_MAX_LENGTH.name }),
  'properties.options.*.label': nameWords('label', { max: TEXT_MAX_LENGTH.name }),
};

/** Each text property's limit. */
const PROPERTY_MAX_LENGTHS: Record<string, number> = {
  form_label: TEXT_MAX_LENGTH.name,
  form_help_text: HELP_TEXT_MAX_LENGTH,
  form_placeholder: TEXT_MAX_LENGTH.name,
};

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
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
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
      setErrors(NO_ERRORS);
      await queryClient.invalidateQueries({ queryKey: ['custom-fields', organizationId] });
      onDone();
    } catch (failure) {
      setErrors(formErrorsInWords(failure, CUSTOM_FIELD_WORDS));
      requestAnimationFrame(() => focusFirstInvalid(form));
    }
  }

  const input = (label: string, name: string, inputType = 'text') => (
    <TextField
      label={label}
      name={name}
      field={`properties.${name}`}
      error={errors.fields[`properties.${name}`]}
      type={inputType}
      maxLength={PROPERTY_MAX_LENGTHS[name]}
      defaultValue={initial(name)}
    />
  );
  const optionInput = (option: Option, index: number, part: 'value' | 'label') => (
    <TextField
      label={`Option ${index + 1} ${part}`}
      field={`properties.options.${index}.${part}`}
      error={errors.fields[`properties.options.${index}.${part}`]}
      required
      maxLength={TEXT_MAX_LENGTH.name}
      value={option[part]}
      onChange={(text) =>
        setOptions(options.map((other) => (other.key === option.key ? { ...other, [part]: text } : other)))
      }
    />
  );

  return (
    <ResourceForm
      title={field ? `Edit ${field.name}` : 'Create a custom field'}
      onSubmit={onSubmit}
      error={errors.form}
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
      <FormField label="Field name" field="name" error={errors.fields.name} required className="field">
        {(control) => (
          <input {...control} name="name" maxLength={TEXT_MAX_LENGTH.name} defaultValue={field?.name ?? ''} />
        )}
      </FormField>
      <FormField label="Slug" field="slug" error={errors.fields.slug} required className="field">
        {(control) => (
          <input
            {...control}
            name="slug"
            maxLength={SLUG_MAX_LENGTH}
            defaultValue={field?.slug ?? ''}
            placeholder="letters, digits and hyphens"
          />
        )}
      </FormField>
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
              {optionInput(option, index, 'value')}
              {optionInput(option, index, 'label')}
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
          {errors.fields['properties.options'] ? (
            <p className="field-error">{errors.fields['properties.options']}</p>
          ) : null}
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
