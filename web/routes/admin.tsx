import { createFileRoute, Navigate, Outlet } from '@tanstack/react-router';
import { authClient, hasRole } from '../auth/client';

export const Route = createFileRoute('/admin')({ component: AdminLayout });

/** Better Auth refuses non-admins anyway; this says so before any call is made. */
function AdminLayout() {
  const session = authClient.useSession();
  if (session.isPending || (session.isRefetching && !session.data)) return <p>Loading…</p>;
  if (!session.data) return <Navigate to="/sign-in" />;
  if (!hasRole(session.data.user.role, 'admin')) {
    return (
      <section>
        <h1>Users</h1>
        <p className="error-note" role="alert">
          You are not allowed to manage users: this page is for administrators.
        </p>
      </section>
    );
  }
  return <Outlet />;
}
