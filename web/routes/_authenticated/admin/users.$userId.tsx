import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { adminKeys, userQuery, userSessionsQuery } from '../../../admin/queries';
import { authClient, errorMessage } from '../../../auth/client';
import { Card, ErrorNote, formatDateTime } from '../../../components';
import { prefetch } from '../../../loaders';
import { BanCard } from './-components/ban-card';
import { RoleCard } from './-components/role-card';
import { SessionsCard } from './-components/sessions-card';

export const Route = createFileRoute('/_authenticated/admin/users/$userId')({
  loader: ({ context: { queryClient }, params: { userId } }) => {
    prefetch(queryClient, userQuery(userId));
    prefetch(queryClient, userSessionsQuery(userId));
  },
  component: UserPage,
});

function UserPage() {
  const { userId } = Route.useParams();
  const queryClient = useQueryClient();
  const user = useQuery(userQuery(userId));
  const [error, setError] = useState<string | null>(null);

  const onResult = async (result: string | null) => {
    setError(result);
    await queryClient.invalidateQueries({ queryKey: adminKeys.users });
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
