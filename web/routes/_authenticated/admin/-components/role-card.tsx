import type { FormEvent } from 'react';
import { authClient, errorMessage, hasRole } from '../../../../auth/client';
import { Card, formValues } from '../../../../components';
import type { ManagedUser, OnResult } from './managed-user';

export function RoleCard({ user, onResult }: { user: ManagedUser; onResult: OnResult }) {
  const isAdmin = hasRole(user.role, 'admin');
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { role = 'user' } = formValues(event.currentTarget);
    const result = await authClient.admin.setRole({ userId: user.id, role: role as 'user' | 'admin' });
    onResult(errorMessage(result.error));
  }
  return (
    <Card title="Role">
      <form onSubmit={onSubmit} className="inline-form">
        <label className="field">
          <span>Role</span>
          <select
            name="role"
            aria-label="Role"
            defaultValue={isAdmin ? 'admin' : 'user'}
            key={user.role ?? 'user'}
          >
            <option value="user">User</option>
            <option value="admin">Admin</option>
          </select>
        </label>
        <button type="submit">Save role</button>
      </form>
    </Card>
  );
}
