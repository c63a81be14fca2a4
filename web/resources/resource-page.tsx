import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { deleteResource } from '../api';
import { Card, ConfirmButton, countOf, ErrorNote } from '../components';

/**
 * The create/edit toggle of a catalog page. The page renders one form with `formKey`, `editing`
 * and `onDone`: it edits the chosen item until saved or cancelled, else it creates; a fresh key
 * after each creation mounts an empty form.
 */
export function useEditor<T extends { id: string }>() {
  const [editing, setEditing] = useState<T | null>(null);
  const [created, setCreated] = useState(0);
  return {
    editing,
    edit: setEditing,
    formKey: editing ? editing.id : `new-${created}`,
    onDone: editing ? () => setEditing(null) : () => setCreated((count) => count + 1),
  };
}

/** A row's "Edit" button, named after the item for screen readers. */
export function EditButton({ name, onClick }: { name: string; onClick: () => void }) {
  return (
    <button type="button" className="secondary" aria-label={`Edit ${name}`} onClick={onClick}>
      Edit
    </button>
  );
}

/**
 * A row's "Delete" button: it asks first, then deletes `path` and reads the list under `listKey`
 * again, whether or not the API agreed; a refusal goes to `onError`.
 */
export function DeleteButton(props: {
  label: string;
  question: string;
  path: string;
  listKey: QueryKey;
  onError: (message: string) => void;
  onDeleted?: () => void;
}) {
  const queryClient = useQueryClient();
  return (
    <ConfirmButton
      label={props.label}
      text="Delete"
      question={props.question}
      onConfirm={async () => {
        await deleteResource(props.path).then(props.onDeleted, (failure: Error) =>
          props.onError(failure.message),
        );
        await queryClient.invalidateQueries({ queryKey: props.listKey });
      }}
    />
  );
}

/** A create or edit form in its card, with the API's answer below it when the save failed. */
export function ResourceForm(props: {
  title: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  error: string | null;
  /** The form's layout class. */
  layout?: 'stack' | 'stacked-form' | 'inline-form';
  /** Above the form, e.g. a secret to copy after a creation. */
  notice?: ReactNode;
  /** A new key mounts an empty form. */
  formKey?: number;
  children: ReactNode;
}) {
  return (
    <Card title={props.title}>
      {props.notice}
      {/* noValidate: the API checks the fields, and its answer is what the page shows. */}
      <form key={props.formKey} onSubmit={props.onSubmit} className={props.layout ?? 'stack'} noValidate>
        {props.children}
      </form>
      <ErrorNote message={props.error} />
    </Card>
  );
}

/** Save (or create) and, while editing, Cancel. */
export function FormButtons(props: {
  label: string;
  isEditing: boolean;
  onCancel: () => void;
  busy?: boolean;
}) {
  return (
    <div className="button-row">
      <button type="submit" disabled={props.busy}>
        {props.label}
      </button>
      {props.isEditing ? (
        <button type="button" className="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      ) : null}
    </div>
  );
}

/**
 * The list card of a resource page: optional controls (filters, search), the latest error, a note
 * when the list is loaded and empty, the list itself and what follows it (pagination).
 */
export function ResourceCard(props: {
  title: string;
  toolbar?: ReactNode;
  error: string | null;
  items: readonly unknown[] | null | undefined;
  /** Shown when the loaded list is empty: what it will hold and how to start, e.g. a link. */
  empty?: ReactNode;
  /** How many there are in all (`pagination.total_count`), shown under the title. */
  count?: { total: number | undefined; one: string; other: string };
  footer?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card title={props.title}>
      {props.count && props.count.total !== undefined && props.count.total > 0 ? (
        <p className="muted" data-testid="list-count">
          {countOf(props.count.total, props.count.one, props.count.other)}
        </p>
      ) : null}
      {props.toolbar}
      <ErrorNote message={props.error} />
      {props.empty && props.items?.length === 0 ? <p className="muted empty-state">{props.empty}</p> : null}
      {props.children}
      {props.footer}
    </Card>
  );
}

export type Column<T> = {
  header: ReactNode;
  cell: (item: T) => ReactNode;
  className?: string;
  testId?: string;
};

/** A table of items, one row each (`rowTestId` names the rows for tests). */
export function ResourceTable<T extends { id: string }>(props: {
  columns: Column<T>[];
  items: readonly T[] | null | undefined;
  rowTestId: string;
}) {
  // Wide tables scroll inside their card rather than widening the page.
  return (
    <div className="data-table-scroll">
      <table className="data-table">
        <thead>
          <tr>
            {props.columns.map((column, index) => (
              <th key={index}>{column.header}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {(props.items ?? []).map((item) => (
            <tr key={item.id} data-testid={props.rowTestId}>
              {props.columns.map((column, index) => (
                <td key={index} className={column.className} data-testid={column.testId}>
                  {column.cell(item)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Items as a plain list, for resources whose rows are a line of text and actions. */
export function ResourceList<T extends { id: string }>(props: {
  items: readonly T[] | null | undefined;
  rowTestId: string;
  itemClassName?: string;
  children: (item: T) => ReactNode;
}) {
  return (
    <ul className="plain-list">
      {(props.items ?? []).map((item) => (
        <li key={item.id} className={props.itemClassName} data-testid={props.rowTestId}>
          {props.children(item)}
        </li>
      ))}
    </ul>
  );
}
