import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import { authClient } from '../../../auth/client';
import { prefetch } from '../../../loaders';
import { InvitationsCard } from '../../../organizations/invitations';
import { MembersCard } from '../../../organizations/members';
import { canManage } from '../../../organizations/roles';
import { DEFAULT_OVERVIEW_RANGE, OVERVIEW_RANGE_IDS, overviewWindows } from '../../../overview/format';
import { Overview } from '../../../overview/overview';
import { hasOrdersQuery, metricsQuery } from '../../../overview/queries';
import { CreateOrganizationForm } from './-components/create-organization-form';

export const Route = createFileRoute('/_authenticated/dashboard/')({
  validateSearch: z.object({ range: z.enum(OVERVIEW_RANGE_IDS).optional().catch(undefined) }),
  loaderDeps: ({ search }) => ({ range: search.range ?? DEFAULT_OVERVIEW_RANGE }),
  loader: ({ context: { queryClient, organizationId }, deps: { range } }) => {
    if (!organizationId) return;
    const windows = overviewWindows(range, new Date());
    prefetch(queryClient, metricsQuery(organizationId, windows.current));
    prefetch(queryClient, metricsQuery(organizationId, windows.previous));
    prefetch(queryClient, hasOrdersQuery(organizationId));
  },
  component: DashboardHome,
});

/** The landing page: the active organization's Overview, then its members and a new organization. */
function DashboardHome() {
  const { session, organizationId } = Route.useRouteContext();
  const userId = session.user.id;
  const range = Route.useSearch().range ?? DEFAULT_OVERVIEW_RANGE;
  const navigate = useNavigate({ from: Route.fullPath });
  const active = authClient.useActiveOrganization();
  const organization = active.data;
  const me = organization?.members.find((member) => member.userId === userId);
  return (
    <>
      {organizationId ? (
        <Overview
          organizationId={organizationId}
          range={range}
          onRange={(next) => void navigate({ search: { range: next } })}
        />
      ) : null}
      {organization ? (
        <>
          <MembersCard organization={organization} currentUserId={userId} />
          {canManage(me?.role) ? <InvitationsCard organization={organization} /> : null}
        </>
      ) : (
        <p data-testid="no-active-organization">Create or choose an organization to see its members.</p>
      )}
      <CreateOrganizationForm />
    </>
  );
}
