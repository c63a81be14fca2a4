import { TEXT_MAX_LENGTH } from '../../../../../domain/platform/schemas';
import type { FormErrors, FormWords } from '../../../../forms/messages';
import { TextField } from '../../../../forms/text-field';
import { EMAIL_WORDS, textWords } from '../../../../forms/words';

/** The customer API's limits (domain/customers/schemas.ts). */
const MAX_LENGTHS = { email: 320, name: TEXT_MAX_LENGTH.name, external_id: 255 } as const;

export const CUSTOMER_WORDS: FormWords = {
  email: EMAIL_WORDS,
  name: textWords(MAX_LENGTHS.name),
  external_id: textWords(MAX_LENGTHS.external_id),
};

/** One of a customer's text fields, with its limit and its error; labels say "(optional)" themselves where needed. */
export function CustomerField(props: {
  field: keyof typeof MAX_LENGTHS;
  label: string;
  errors: FormErrors;
  required?: boolean;
  defaultValue?: string;
}) {
  return (
    <TextField
      label={props.label}
      name={props.field}
      field={props.field}
      error={props.errors.fields[props.field]}
      required={props.required}
      type={props.field === 'email' ? 'email' : 'text'}
      maxLength={MAX_LENGTHS[props.field]}
      defaultValue={props.defaultValue}
    />
  );
}
