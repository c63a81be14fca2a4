import type { ReactNode } from 'react';

export function Field(props: {
  label: string;
  name: string;
  type?: string;
  autoComplete?: string;
  required?: boolean;
  defaultValue?: string;
  inputMode?: 'numeric' | 'email' | 'text';
}) {
  return (
    <label className="field">
      <span>{props.label}</span>
      <input
        name={props.name}
        type={props.type ?? 'text'}
        autoComplete={props.autoComplete}
        required={props.required ?? true}
        defaultValue={props.defaultValue}
        inputMode={props.inputMode}
      />
    </label>
  );
}

export function ErrorNote({ message }: { message: string | null }) {
  return message ? (
    <p className="error-note" role="alert">
      {message}
    </p>
  ) : null;
}

export function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card" aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/** Reads a submitted form's named text fields. */
export function formValues(form: HTMLFormElement): Record<string, string> {
  return Object.fromEntries([...new FormData(form).entries()].map(([key, value]) => [key, String(value)]));
}
