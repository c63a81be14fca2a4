import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { notificationSettingsSchema } from '../../domain/organizations/schemas';
import { getJson, sendJson } from '../api';
import { Card, ErrorNote } from '../components';
import { organizationKeys } from './queries';

/** The signed-in member's own notifications from the organization (docs/web.md). */
export const notificationSettingsQuery = (organizationId: string) =>
  queryOptions({
    queryKey: [...organizationKeys.all(organizationId), 'notification-settings'],
    queryFn: () =>
      getJson(`/v1/organizations/${organizationId}/notification-settings`, notificationSettingsSchema),
  });

/**
 * The member's own "New order" email switch: every member may change theirs (each role may see
 * orders), and only theirs. Owners and admins get it until they switch it off; members once they
 * switch it on.
 */
export function NotificationSettingsCard({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient();
  const settings = useQuery(notificationSettingsQuery(organizationId));
  const [error, setError] = useState<string | null>(null);
  // The box follows the click at once; the answer (or a refusal) settles it.
  const [choosing, setChoosing] = useState<boolean | null>(null);

  async function choose(newOrderEmail: boolean) {
    setChoosing(newOrderEmail);
    setError(null);
    await sendJson(
      'PATCH',
      `/v1/organizations/${organizationId}/notification-settings`,
      { new_order_email: newOrderEmail },
      notificationSettingsSchema,
    ).then(
      (saved) => queryClient.setQueryData(notificationSettingsQuery(organizationId).queryKey, saved),
      (failure: Error) => setError(failure.message),
    );
    setChoosing(null);
  }

  return (
    <div id="notifications">
      <Card title="Your notifications">
        <ErrorNote message={settings.error?.message ?? error} />
        {settings.data ? (
          <>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={choosing ?? settings.data.new_order_email}
                disabled={choosing !== null}
                onChange={(event) => void choose(event.target.checked)}
              />
              Email me each new order
            </label>
            <p className="field-hint">
              Once an order is paid: its number, product, amount and customer, with a link to it. Only you
              receive your emails: this switch changes no one else&apos;s.{' '}
              {settings.data.new_order_email_default
                ? 'Owners and admins get it unless they switch it off.'
                : 'Members get it once they switch it on.'}
            </p>
          </>
        ) : settings.isPending ? (
          <p>Loading…</p>
        ) : null}
      </Card>
    </div>
  );
}
