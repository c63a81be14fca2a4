import { useEffect, useState, type ReactNode } from 'react';
import { nextSorting } from './format';
import './sales.css';

/** A column header that sorts the list by its field; the arrow shows the current direction. */
export function SortHeader(props: {
  label: string;
  field: string;
  sorting: string;
  onSort: (sorting: string) => void;
  /** Amounts and dates read best largest or newest first. */
  firstDirection?: 'asc' | 'desc';
}) {
  const direction =
    props.sorting === props.field ? 'ascending' : props.sorting === `-${props.field}` ? 'descending' : null;
  const next = nextSorting(props.sorting, props.field, props.firstDirection ?? 'asc');
  return (
    <button
      type="button"
      className="sort-header"
      data-sort={direction ?? 'none'}
      aria-label={`Sort by ${props.label.toLowerCase()}, ${next.startsWith('-') ? 'descending' : 'ascending'}${
        direction ? ` (now ${direction})` : ''
      }`}
      onClick={() => props.onSort(next)}
    >
      {props.label}
      <span aria-hidden="true" className="sort-arrow">
        {direction === 'ascending' ? '↑' : direction === 'descending' ? '↓' : '↕'}
      </span>
    </button>
  );
}

/** Filters above a list: a row of fields that wraps on narrow screens. */
export function FilterBar({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="filter-bar" role="search" aria-label={label}>
      {children}
    </div>
  );
}

/** The count of what the filters keep and the CSV export of exactly that. */
export function ListSummary(props: { count: string | null; exportUrl: string; exportLabel: string }) {
  return (
    <p className="list-summary">
      <span className="muted" aria-live="polite">
        {props.count ?? ' '}
      </span>
      <a className="button secondary" href={props.exportUrl} download>
        {props.exportLabel}
      </a>
    </p>
  );
}

/** The note of an empty list: what to do next, with a link there. */
export function EmptyHint({ children }: { children: ReactNode }) {
  return (
    <p className="muted empty-hint" data-testid="empty-hint">
      {children}
    </p>
  );
}

/**
 * A search box whose text lives in the URL: the box keeps what is typed itself (an input driven
 * by the URL alone can drop keystrokes while the router catches up) and follows the URL when it
 * changes from elsewhere (Clear filters, back).
 */
export function SearchField(props: {
  label: string;
  value: string;
  placeholder: string;
  onSearch: (text: string) => void;
}) {
  const [text, setText] = useState(props.value);
  useEffect(() => {
    setText((current) => (current === props.value ? current : props.value));
  }, [props.value]);
  return (
    <label className="field">
      <span>{props.label}</span>
      <input
        type="search"
        value={text}
        placeholder={props.placeholder}
        onChange={(event) => {
          setText(event.target.value);
          props.onSearch(event.target.value);
        }}
      />
    </label>
  );
}

/** A filter that picks one value of a few, "All …" first: choosing it clears the filter. */
export function ChoiceFilter(props: {
  label: string;
  allLabel: string;
  value: string | undefined;
  options: readonly { value: string; label: string }[];
  onChange: (value: string | undefined) => void;
}) {
  return (
    <label className="field">
      <span>{props.label}</span>
      <select value={props.value ?? ''} onChange={(event) => props.onChange(event.target.value || undefined)}>
        <option value="">{props.allLabel}</option>
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}
