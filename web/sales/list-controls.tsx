import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { productChoiceLabel } from '../catalog/format';
import { productsQuery } from '../catalog/queries';
import { nextSorting } from './format';
import './sales.css';

/** A column header that sorts the list by its field; the arrow shows the current direction. */
function SortHeader(props: {
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

/** Makes the sorting headers of a list sorted by `sorting`; a click hands `onSort` the header's next sorting. */
export function sortHeadersOf(sorting: string, onSort: (sorting: string) => void) {
  return (label: string, field: string, firstDirection: 'asc' | 'desc' = 'asc') => (
    <SortHeader
      label={label}
      field={field}
      sorting={sorting}
      firstDirection={firstDirection}
      onSort={onSort}
    />
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
function ChoiceFilter(props: {
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

/** The search params the orders and checkouts lists share: the search text, a status, a product id. */
type SalesSearch<Status extends string> = { q?: string; status?: Status; product?: string };

/**
 * The filters of the orders and checkouts lists: the search, the status, the product (any of the
 * organization's unarchived products), the list's own filters (`children`), and "Clear filters"
 * once any of them is set.
 */
export function SalesFilterBar<Status extends string>(props: {
  label: string;
  organizationId: string;
  searchPlaceholder: string;
  search: SalesSearch<Status>;
  statuses: readonly Status[];
  statusLabels: Record<Status, string>;
  isFiltered: boolean;
  onRefine: (change: SalesSearch<Status>) => void;
  onClear: () => void;
  children?: ReactNode;
}) {
  const products = useQuery(productsQuery(props.organizationId, false));
  return (
    <FilterBar label={props.label}>
      <SearchField
        label="Search"
        value={props.search.q ?? ''}
        placeholder={props.searchPlaceholder}
        onSearch={(text) => props.onRefine({ q: text || undefined })}
      />
      <ChoiceFilter
        label="Status"
        allLabel="All statuses"
        value={props.search.status}
        options={props.statuses.map((status) => ({ value: status, label: props.statusLabels[status] }))}
        onChange={(status) => props.onRefine({ status: status as Status | undefined })}
      />
      <ChoiceFilter
        label="Product"
        allLabel="All products"
        value={props.search.product}
        options={(products.data?.items ?? []).map((product) => ({
          value: product.id,
          label: productChoiceLabel(product),
        }))}
        onChange={(product) => props.onRefine({ product })}
      />
      {props.children}
      {props.isFiltered ? (
        <button type="button" className="secondary" onClick={props.onClear}>
          Clear filters
        </button>
      ) : null}
    </FilterBar>
  );
}
