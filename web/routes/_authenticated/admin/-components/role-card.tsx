import { useState, type FormEvent } from 'react';
import { authClient, errorMessage, hasRole } from '../../../../auth/client';
import { Card, formValues } from '../../../../components';
import type { ManagedUser, OnResult } from './managed-user';

export function RoleCard({ user, onResult }: { user: ManagedUser; onResult: OnResult }) {
  const isAdmin = hasRole(user.role, 'admin');
  // Until the page shows the saved role: a choice made meanwhile would be reset by its arrival.
  const [saving, setSaving] = useState(false);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { role = 'user' } = formValues(event.currentTarget);
    setSaving(true);
    try {
      const result = await authClient.admin.setRole({ userId: user.id, role: role as 'user' | 'admin' });
      await onResult(errorMessage(result.error));
    } finally {
      setSaving(false);
    }
  }
  return (
    <Card title="Role">
      <form onSubmit={onSubmit} className="inline-form" aria-busy={saving}>
        <label className="field">
          <span>Role</span>
          <select
            name="role"
            aria-label="Role"
            defaultValue={isAdmin ? 'admin' : 'user'}
            key={user.role ?? 'user'}
            disabled={saving}
          >
            <option value="user">User</option>
            <option value="admin">Admin</option>
          </select>
        </label>
        <button type="submit" disabled={saving}>
          Save role
        </button>
      </form>
    </Card>
  );
}
