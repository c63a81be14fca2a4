import { FormField } from './form-field';

export type TextFieldProps = {
  label: string;
  /** The API's path of the value, where its refusal lands. */
  field: string;
  error: string | undefined;
  /** What the form reads the value by on submit; controlled fields need none. */
  name?: string;
  required?: boolean;
  type?: string;
  inputMode?: 'numeric';
  maxLength?: number;
  defaultValue?: string;
  value?: string;
  onChange?: (text: string) => void;
};

/** A one-line input with its label and its error; labels say "(optional)" themselves where needed. */
export function TextField({ onChange, ...props }: TextFieldProps) {
  return (
    <FormField
      label={props.label}
      field={props.field}
      error={props.error}
      required={props.required}
      markOptional={false}
      className="field"
    >
      {(control) => (
        <input
          {...control}
          name={props.name}
          type={props.type ?? 'text'}
          inputMode={props.inputMode}
          maxLength={props.maxLength}
          defaultValue={props.defaultValue}
          value={props.value}
          onChange={onChange ? (event) => onChange(event.target.value) : undefined}
        />
      )}
    </FormField>
  );
}
