import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { adminKeys, userQuery, userSessionsQuery } from '../../../admin/queries';
import { authClient, errorMessage, hasRole } from '../../../auth/client';
import { Card, ConfirmButton, ErrorNote, Field, formatDateTime, formValues } from '../../../components';

export const Route = createFileRoute('/_authenticated/admin/users/$userId')({ component: UserPage });

const DAY_SECONDS = 24 * 60 * 60;

type ManagedUser = {
  id: string;
  name: string;
  email: string;
  role?: string | null;
  banned?: boolean | null;
  banReason?: string | null;
  banExpires?: Date | string | null;
};

function RoleCard({ user, onResult }: { user: ManagedUser; onResult: (error: string | null) => void }) {
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

function BanCard({ user, onResult }: { user: ManagedUser; onResult: (error: string | null) => void }) {
  async function ban(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { reason = '', days = '' } = formValues(event.currentTarget);
    const result = await authClient.admin.banUser({
      userId: user.id,
      banReason: reason || undefined,
      banExpiresIn: days ? Number(days) * DAY_SECONDS : undefined,
    });
    onResult(errorMessage(result.error));
  }
  async function unban() {
    const result = await authClient.admin.unbanUser({ userId: user.id });
    onResult(errorMessage(result.error));
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

function SessionsCard({ user, onResult }: { user: ManagedUser; onResult: (error: string | null) => void }) {
  const sessions = useQuery(userSessionsQuery(user.id));
  async function revoke(sessionToken: string) {
    const result = await authClient.admin.revokeUserSession({ sessionToken });
    onResult(errorMessage(result.error));
  }
  async function revokeAll() {
    const result = await authClient.admin.revokeUserSessions({ userId: user.id });
    onResult(errorMessage(result.error));
  }
  const list = sessions.data?.sessions ?? [];
  return (
    <Card title="Sessions">
      <ErrorNote message={sessions.error?.message ?? null} />
      {sessions.isSuccess && list.length === 0 ? <p>No active sessions.</p> : null}
      {list.length > 0 ? (
        <>
          <table>
            <thead>
              <tr>
                <th>Started</th>
                <th>Expires</th>
                <th>Address</th>
                <th>Browser</th>
                <th>
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((session, index) => (
                <tr key={session.id} data-testid="session-row">
                  <td>{formatDateTime(session.createdAt)}</td>
                  <td>{formatDateTime(session.expiresAt)}</td>
                  <td>{session.ipAddress || '—'}</td>
                  <td>{session.userAgent || '—'}</td>
                  <td>
                    <ConfirmButton
                      label={`Revoke session ${index + 1}`}
                      text="Revoke"
                      question="End this session?"
                      onConfirm={() => revoke(session.token)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="button-row">
            <ConfirmButton
              label="Revoke all sessions"
              question={`Sign ${user.email} out everywhere?`}
              onConfirm={revokeAll}
            />
          </div>
        </>
      ) : null}
    </Card>
  );
}

function UserPage() {
  const { userId } = Route.useParams();
  const queryClient = useQueryClient();
  const user = useQuery(userQuery(userId));
  const [error, setError] = useState<string | null>(null);

  const onResult = (result: string | null) => {
    setError(result);
    void queryClient.invalidateQueries({ queryKey: adminKeys.users });
  };

  async function impersonate() {
    const result = await authClient.admin.impersonateUser({ userId });
    if (result.error) return setError(errorMessage(result.error));
    // A full load: every cached query belonged to the administrator.
    window.location.assign('/dashboard');
  }

  return (
    <section>
      <p>
        <Link to="/admin/users">← All users</Link>
      </p>
      <ErrorNote message={user.error?.message ?? null} />
      {user.data ? (
        <>
          <h1>{user.data.name}</h1>
          <p>
            {user.data.email} · {user.data.emailVerified ? 'email verified' : 'email not verified'} · joined{' '}
            {formatDateTime(user.data.createdAt)}
          </p>
          <ErrorNote message={error} />
          <RoleCard user={user.data} onResult={onResult} />
          <BanCard user={user.data} onResult={onResult} />
          <Card title="Impersonation">
            <p>See Tollgate as {user.data.name} does, until you stop impersonating.</p>
            <button type="button" onClick={() => void impersonate()}>
              Impersonate {user.data.name}
            </button>
          </Card>
          <SessionsCard user={user.data} onResult={onResult} />
        </>
      ) : null}
    </section>
  );
}
