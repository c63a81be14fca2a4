import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import { dayIn } from '../../../../domain/dates/rules';
import { currentTimeZone } from '../../../components';
import { prefetch } from '../../../loaders';
import { organizationProfileQuery } from '../../../organizations/queries';
import { DEFAULT_OVERVIEW_RANGE, OVERVIEW_RANGE_IDS, overviewWindows } from '../../../overview/format';
import { Overview } from '../../../overview/overview';
import { hasOrdersQuery, metricsQuery } from '../../../overview/queries';
import { CreateOrganizationForm } from './-components/create-organization-form';
import { PageTitle } from '../../../shell/page-title';

export const Route = createFileRoute('/_authenticated/dashboard/')({
  validateSearch: z.object({ range: z.enum(OVERVIEW_RANGE_IDS).optional().catch(undefined) }),
  loaderDeps: ({ search }) => ({ range: search.range ?? DEFAULT_OVERVIEW_RANGE }),
  loader: ({ context: { queryClient, organizationId }, deps: { range } }) => {
    if (!organizationId) return;
    prefetch(queryClient, hasOrdersQuery(organizationId));
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
  const range = Route.useSearch().range ?? DEFAULT_OVERVIEW_RANGE;
  const navigate = useNavigate({ from: Route.fullPath });
  if (!organizationId) {
    return (
      <>
        <p data-testid="no-active-organization">Create or choose an organization to see its overview.</p>
        <CreateOrganizationForm />
      </>
    );
  }
  return (
    <Overview
      organizationId={organizationId}
      range={range}
      timeZone={currentTimeZone()}
      onRange={(next) => void navigate({ search: { range: next } })}
    />
  );
}
