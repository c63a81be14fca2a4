import { createFileRoute, Outlet } from '@tanstack/react-router';
import { MyInvitations } from '../../../organizations/my-invitations';
import { DashboardShell } from '../../../shell/shell';
import { VerifyEmailNotice } from './-components/verify-email-notice';

export const Route = createFileRoute('/_authenticated/dashboard')({
  // The pages below read and load the active organization's data.
  beforeLoad: ({ context }) => ({ organizationId: context.session.session.activeOrganizationId ?? null }),
  component: DashboardLayout,
});

function DashboardLayout() {
  const { session, organizationId } = Route.useRouteContext();
  const { user } = session;
  return (
    <DashboardShell organizationId={organizationId} user={user}>
      <h1 className="shell-title">Dashboard</h1>
      {user.emailVerified ? null : <VerifyEmailNotice email={user.email} />}
      <MyInvitations emailVerified={user.emailVerified} />
      <Outlet />
    </DashboardShell>
  );
}
