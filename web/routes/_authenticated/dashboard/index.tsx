import { useQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import { dayIn } from '../../../../domain/dates/rules';
import { currentTimeZone } from '../../../components';
import { prefetch } from '../../../loaders';
import { organizationProfileQuery } from '../../../organizations/queries';
import { DEFAULT_OVERVIEW_RANGE, OVERVIEW_RANGE_IDS, overviewWindows } from '../../../overview/format';
import { Overview } from '../../../overview/overview';
import { hasOrdersQuery, metricDashboardsQuery, metricsQuery } from '../../../overview/queries';
import {
  DashboardPicker,
  DeleteDashboardButton,
  SaveDashboardForm,
  storedPin,
  storePin,
} from '../../../overview/saved-dashboards';
import { useCanManageActiveOrganization } from '../../../organizations/roles';
import { CreateOrganizationForm } from './-components/create-organization-form';
import { PageTitle } from '../../../shell/page-title';

export const Route = createFileRoute('/_authenticated/dashboard/')({
  validateSearch: z.object({
    range: z.enum(OVERVIEW_RANGE_IDS).optional().catch(undefined),
    /** A saved dashboard pinned in the address (docs/metrics.md, "Dashboards"). */
    dashboard: z.uuid().optional().catch(undefined),
  }),
  loaderDeps: ({ search }) => ({ range: search.range ?? DEFAULT_OVERVIEW_RANGE }),
  loader: ({ context: { queryClient, organizationId }, deps: { range } }) => {
    if (!organizationId) return;
    prefetch(queryClient, hasOrdersQuery(organizationId));
    prefetch(queryClient, metricDashboardsQuery(organizationId));
    // The windows are the organization's days: known once its profile is (the layout reads it).
    const timeZone = queryClient.getQueryData(organizationProfileQuery(organizationId).queryKey)?.time_zone;
    if (!timeZone) return;
    const windows = overviewWindows(range, dayIn(new Date(), timeZone));
    prefetch(queryClient, metricsQuery(organizationId, windows.current, timeZone));
    prefetch(queryClient, metricsQuery(organizationId, windows.previous, timeZone));
  },
  component: DashboardHome,
});

function DashboardHome() {
  return (
    <>
      <PageTitle title="Overview" />
      <DashboardHomeContent />
    </>
  );
}

/**
 * The landing page: the active organization's Overview (its members have a page of their own).
 * Without one, what a new seller needs first: an organization.
 */
function DashboardHomeContent() {
  const { organizationId } = Route.useRouteContext();
  if (!organizationId) {
    return (
      <>
        <p data-testid="no-active-organization">Create or choose an organization to see its overview.</p>
        <CreateOrganizationForm />
      </>
    );
  }
  return <OrganizationOverview organizationId={organizationId} />;
}

/** The Overview of the standard cards, or of the saved dashboard the viewer pinned. */
function OrganizationOverview({ organizationId }: { organizationId: string }) {
  const search = Route.useSearch();
  const range = search.range ?? DEFAULT_OVERVIEW_RANGE;
  const navigate = useNavigate({ from: Route.fullPath });
  const canManage = useCanManageActiveOrganization(Route.useRouteContext().session.user.id);
  const dashboards = useQuery(metricDashboardsQuery(organizationId)).data ?? [];
  const pinnedId = search.dashboard ?? storedPin(organizationId);
  const pinned = dashboards.find((dashboard) => dashboard.id === pinnedId) ?? null;
  const pin = (dashboardId: string | null) => {
    storePin(organizationId, dashboardId);
    void navigate({ search: { range: search.range, dashboard: dashboardId ?? undefined } });
  };
  return (
    <Overview
      organizationId={organizationId}
      range={range}
      timeZone={currentTimeZone()}
      onRange={(next) => void navigate({ search: { range: next, dashboard: search.dashboard } })}
      dashboard={pinned}
      controls={
        <div className="overview-dashboards">
          <DashboardPicker dashboards={dashboards} pinned={pinned} onPin={pin} />
          {canManage && pinned ? (
            <DeleteDashboardButton
              organizationId={organizationId}
              dashboard={pinned}
              onDeleted={() => pin(null)}
            />
          ) : null}
          {canManage ? (
            <SaveDashboardForm organizationId={organizationId} onSaved={(saved) => pin(saved.id)} />
          ) : null}
        </div>
      }
    />
  );
}
