import type { FormEvent } from 'react';
import { authClient, errorMessage } from '../../../../auth/client';
import { Card, Field, formatDateTime, formValues } from '../../../../components';
import type { ManagedUser, OnResult } from './managed-user';

const DAY_SECONDS = 24 * 60 * 60;

export function BanCard({ user, onResult }: { user: ManagedUser; onResult: OnResult }) {
  async function ban(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { reason = '', days = '' } = formValues(event.currentTarget);
    const result = await authClient.admin.banUser({
      userId: user.id,
      banReason: reason || undefined,
      banExpiresIn: days ? Number(days) * DAY_SECONDS : undefined,
    });
    await onResult(errorMessage(result.error));
  }
  async function unban() {
    const result = await authClient.admin.unbanUser({ userId: user.id });
    await onResult(errorMessage(result.error));
  }
  if (user.banned) {
    return (
      <Card title="Ban">
        <p data-testid="ban-status">
          Banned{user.banReason ? `: ${user.banReason}` : ''} (
          {user.banExpires ? `until ${formatDateTime(user.banExpires)}` : 'until unbanned'}).
        </p>
        <button type="button" onClick={() => void unban()}>
          Unban user
        </button>
      </Card>
    );
  }
  return (
    <Card title="Ban">
      <p>A ban ends every session of the user at once and refuses their sign-in.</p>
      <form onSubmit={ban} className="inline-form">
        <Field label="Reason" name="reason" required={false} />
        <Field label="Days (empty: until unbanned)" name="days" type="number" required={false} />
        <button type="submit" className="danger">
          Ban user
        </button>
      </form>
    </Card>
  );
}
