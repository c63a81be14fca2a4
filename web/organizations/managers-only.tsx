import type { ReactNode } from 'react';
import { Card } from '../components';
import { EditButton, type Column } from '../resources/resource-page';

/**
 * A form only owners and admins may use (spec §6; the API answers 403 to members). Members get a
 * note in its place, so the page says why there is nothing to click; while the organization's
 * roles load (`canManage` null) neither shows.
 */
export function ManagersOnly(props: {
  canManage: boolean | null;
  title: string;
  action: string;
  children: ReactNode;
}) {
  if (props.canManage === null) return null;
  if (props.canManage) return props.children;
  return <ManagersOnlyNote title={props.title} action={props.action} />;
}

function ManagersOnlyNote({ title, action }: { title: string; action: string }) {
  return (
    <Card title={title}>
      <p className="muted" data-testid="managers-only">
        Only owners and admins can {action}.
      </p>
    </Card>
  );
}

/**
 * The column of each row's "Edit" button and its other actions (`more`), for owners and admins
 * only: members get no such column, and nobody does while the organization's roles load.
 */
export function managersOnlyActions<T extends { name: string }>(props: {
  canManage: boolean | null;
  header: string | null;
  onEdit: (item: T) => void;
  more: (item: T) => ReactNode;
}): Column<T>[] {
  if (!props.canManage) return [];
  return [
    {
      header: props.header,
      className: 'actions',
      cell: (item) => (
        <>
          <EditButton name={item.name} onClick={() => props.onEdit(item)} />
          {props.more(item)}
        </>
      ),
    },
  ];
}
