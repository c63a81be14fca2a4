import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Outlet } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { DEFAULT_TIME_ZONE } from '../../../../domain/dates/rules';
import { DatesIn } from '../../../components';
import { prefetch } from '../../../loaders';
import { organizationProfileQuery } from '../../../organizations/queries';
import { MyInvitations } from '../../../organizations/my-invitations';
import { ProcessorProblemBanner } from '../../../organizations/processor-problem';
import { DashboardShell } from '../../../shell/shell';
import { VerifyEmailNotice } from './-components/verify-email-notice';

export const Route = createFileRoute('/_authenticated/dashboard')({
  // The pages below read and load the active organization's data.
  beforeLoad: ({ context }) => ({ organizationId: context.session.session.activeOrganizationId ?? null }),
  loader: ({ context: { queryClient, organizationId } }) => {
    if (organizationId) prefetch(queryClient, organizationProfileQuery(organizationId));
  },
  component: DashboardLayout,
});

function DashboardLayout() {
  const { session, organizationId } = Route.useRouteContext();
  const { user } = session;
  return (
    <DashboardShell organizationId={organizationId} user={user}>
      {user.emailVerified ? null : <VerifyEmailNotice email={user.email} />}
      <MyInvitations emailVerified={user.emailVerified} />
      {organizationId ? (
        <OrganizationDates organizationId={organizationId}>
          <ProcessorProblemBanner organizationId={organizationId} userId={user.id} />
          <Outlet />
        </OrganizationDates>
      ) : (
        <Outlet />
      )}
    </DashboardShell>
  );
}

/**
 * Every page's dates in the organization's time zone; the pages wait for it (one read, cached and
 * started by the loader) rather than show dates that would change a moment later.
 */
function OrganizationDates({ organizationId, children }: { organizationId: string; children: ReactNode }) {
  const profile = useQuery(organizationProfileQuery(organizationId));
  if (profile.isPending) return <p>Loading…</p>;
  return <DatesIn timeZone={profile.data?.time_zone ?? DEFAULT_TIME_ZONE}>{children}</DatesIn>;
}
