import type { AttachedCustomField } from '../../domain/custom-fields/schemas';
import { FormField } from '../forms/form-field';
import type { CustomFieldInput as Value } from './form';

/** One custom field of the product, with the control its type calls for. */
export function CustomFieldInput(props: {
  attached: AttachedCustomField;
  field: string;
  value: Value | undefined;
  error: string | undefined;
  onChange: (value: Value) => void;
}) {
  const { custom_field: customField, required } = props.attached;
  const label = customField.properties.form_label ?? customField.name;
  const hint = customField.properties.form_help_text ?? null;
  const placeholder = customField.properties.form_placeholder;
  const text = typeof props.value === 'string' ? props.value : '';

  if (customField.type === 'checkbox') {
    return (
      <div className="checkout-field">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={props.value === true}
            aria-invalid={Boolean(props.error)}
            aria-required={required}
            data-field={props.field}
            onChange={(event) => props.onChange(event.target.checked)}
          />
          {label}
          {required ? null : <span className="optional"> (optional)</span>}
        </label>
        {hint ? <p className="field-hint">{hint}</p> : null}
        {props.error ? <p className="field-error">{props.error}</p> : null}
      </div>
    );
  }

  return (
    <FormField label={label} field={props.field} required={required} hint={hint} error={props.error}>
      {(control) => {
        switch (customField.type) {
          case 'select':
            return (
              <select {...control} value={text} onChange={(event) => props.onChange(event.target.value)}>
                <option value="">{placeholder ?? 'Choose…'}</option>
                {customField.properties.options.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            );
          case 'number':
            return (
              <input
                {...control}
                type="number"
                inputMode="decimal"
                min={customField.properties.ge}
                max={customField.properties.le}
                placeholder={placeholder}
                value={text}
                onChange={(event) => props.onChange(event.target.value)}
              />
            );
          case 'date':
            return (
              <input
                {...control}
                type="date"
                placeholder={placeholder}
                value={text}
                onChange={(event) => props.onChange(event.target.value)}
              />
            );
          case 'text':
            return customField.properties.textarea ? (
              <textarea
                {...control}
                rows={3}
                minLength={customField.properties.min_length}
                maxLength={customField.properties.max_length}
                placeholder={placeholder}
                value={text}
                onChange={(event) => props.onChange(event.target.value)}
              />
            ) : (
              <input
                {...control}
                minLength={customField.properties.min_length}
                maxLength={customField.properties.max_length}
                placeholder={placeholder}
                value={text}
                onChange={(event) => props.onChange(event.target.value)}
              />
            );
        }
      }}
    </FormField>
  );
}
