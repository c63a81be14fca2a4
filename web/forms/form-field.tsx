import { useId, type ReactNode } from 'react';

/** What a control needs to be tied to its label, hint and error for assistive technology. */
export type ControlProps = {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': boolean;
  'aria-required': boolean;
  /** The error key, so the form can move focus to the first field in error. */
  'data-field': string;
};

/**
 * A labelled form control with its hint and its error underneath. The control itself is rendered
 * by `children`, which receives the ids and ARIA attributes to spread on it.
 */
export function FormField(props: {
  label: string;
  field: string;
  error?: string | null;
  hint?: string | null;
  required?: boolean;
  /** Whether an optional field says "(optional)" after its label; forms whose labels say it already turn it off. */
  markOptional?: boolean;
  className?: string;
  children: (control: ControlProps) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [props.hint ? hintId : null, props.error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className={`checkout-field ${props.className ?? ''}`}>
      <label htmlFor={id}>
        {props.label}
        {props.required || props.markOptional === false ? null : (
          <span className="optional"> (optional)</span>
        )}
      </label>
      {props.children({
        id,
        'aria-describedby': describedBy || undefined,
        'aria-invalid': Boolean(props.error),
        'aria-required': props.required ?? false,
        'data-field': props.field,
      })}
      {props.hint ? (
        <p id={hintId} className="field-hint">
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p id={errorId} className="field-error">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

/** Moves focus to the first control of `form` that reports an error. */
export function focusFirstInvalid(form: HTMLFormElement | null): void {
  form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
}
