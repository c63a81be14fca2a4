import { Fragment, useState, type ReactNode } from 'react';
import { DEFAULT_TIME_ZONE, formatDay, formatInstant, isKnownTimeZone } from '../domain/dates/rules';

export function Field(props: {
  label: string;
  name: string;
  type?: string;
  autoComplete?: string;
  required?: boolean;
  defaultValue?: string;
  inputMode?: 'numeric' | 'email' | 'text' | 'url';
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

export function SuccessNote({ message }: { message: string | null }) {
  return message ? (
    <p className="success-note" role="status">
      {message}
    </p>
  ) : null;
}

export function Card({ title, testId, children }: { title: string; testId?: string; children: ReactNode }) {
  return (
    <section className="card" aria-label={title} data-testid={testId}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/**
 * A destructive action in two steps: the first click asks, "Confirm" acts. Inline rather than
 * `window.confirm`, so the question is part of the page (readable, testable, styleable).
 */
export function ConfirmButton(props: {
  /** The button's accessible name, e.g. "Remove ivan@example.com". */
  label: string;
  /** What it shows, when shorter than the label (e.g. "Remove" in a table row). */
  text?: string;
  question: string;
  onConfirm: () => Promise<void> | void;
  className?: string;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!asking) {
    return (
      <button
        type="button"
        className={props.className ?? 'secondary'}
        aria-label={props.label}
        onClick={() => setAsking(true)}
      >
        {props.text ?? props.label}
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label={props.question}>
      <span>{props.question}</span>
      <button
        type="button"
        className="danger"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void Promise.resolve(props.onConfirm()).finally(() => {
            setBusy(false);
            setAsking(false);
          });
        }}
      >
        Confirm
      </button>
      <button type="button" className="secondary" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}

// Dates for people (domain/dates/rules.ts): the viewer's locale, the organization's time zone. The
// page's frame (the dashboard's, the portal's) sets the zone with `DatesIn` before its pages render.
let displayTimeZone = DEFAULT_TIME_ZONE;
const viewerTimeZone = new Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * Shows the dates of `children` in `timeZone` (the organization's). A new zone mounts the pages
 * anew, so every date on them changes with it.
 */
export function DatesIn({ timeZone, children }: { timeZone: string; children: ReactNode }) {
  // A zone this browser cannot name (newer than its time zone data) falls back to UTC.
  const zone = isKnownTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE;
  // Set while rendering, before the children read it; the same value on every render of a zone.
  displayTimeZone = zone;
  return <Fragment key={zone}>{children}</Fragment>;
}

/** The zone pages show dates in, for what says it in words ("Times are in Europe/Berlin"). */
export function currentTimeZone(): string {
  return displayTimeZone;
}

/**
 * A timestamp for people; `fallback` when there is none (e.g. "never"). The zone is named when the
 * viewer's own clocks differ, so "3:04 PM" never means two instants.
 */
export function formatDateTime(value: string | Date | null | undefined, fallback = '—'): string {
  if (!value) return fallback;
  return formatInstant(value, { timeZone: displayTimeZone, withZone: displayTimeZone !== viewerTimeZone });
}

/** A day for people (renewals, period ends), without the time. */
export function formatDate(value: string | Date | null | undefined, fallback = '—'): string {
  return value ? formatDay(value, { timeZone: displayTimeZone }) : fallback;
}

/**
 * Text that may be long (emails, names) in a table cell or a list line: cut with an ellipsis
 * instead of widening the layout; the whole text stays in the tooltip and for screen readers.
 */
export function Truncated({ text, children }: { text: string; children?: ReactNode }) {
  return (
    <span className="truncate" title={text}>
      {children ?? text}
    </span>
  );
}

/** Reads a submitted form's named text fields. */
export function formValues(form: HTMLFormElement): Record<string, string> {
  return Object.fromEntries([...new FormData(form).entries()].map(([key, value]) => [key, String(value)]));
}

/**
 * Previous/next for Polar-style paginated lists (`max_page` from the list's pagination). A list
 * that fits on one page shows none: two disabled buttons say nothing.
 */
export function Pager(props: { page: number; maxPage: number; onPage: (page: number) => void }) {
  const pages = Math.max(1, props.maxPage);
  if (pages <= 1 && props.page <= 1) return null;
  return (
    <nav className="pager" aria-label="Pages">
      <button
        type="button"
        className="secondary"
        disabled={props.page <= 1}
        onClick={() => props.onPage(props.page - 1)}
      >
        Previous page
      </button>
      <span>
        Page {props.page} of {pages}
      </span>
      <button
        type="button"
        className="secondary"
        disabled={props.page >= pages}
        onClick={() => props.onPage(props.page + 1)}
      >
        Next page
      </button>
    </nav>
  );
}

const countFormat = new Intl.NumberFormat();

/** "1 order", "1,204 orders": the noun agrees with the count. */
export function countOf(count: number, one: string, other: string): string {
  return `${countFormat.format(count)} ${new Intl.PluralRules('en').select(count) === 'one' ? one : other}`;
}
