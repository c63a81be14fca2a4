import { Card } from '../components';

/**
 * Shown to members in place of a form or buttons that only owners and admins may use (spec §6;
 * the API answers 403 to members), so the page says why there is nothing to click.
 */
export function ManagersOnlyNote({ title, action }: { title: string; action: string }) {
  return (
    <Card title={title}>
      <p className="muted" data-testid="managers-only">
        Only owners and admins can {action}.
      </p>
    </Card>
  );
}
