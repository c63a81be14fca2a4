import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { formatDateTime, Pager, Truncated } from '../../../components';
import { prefetch } from '../../../loaders';
import { useCanManageActiveOrganization } from '../../../organizations/roles';
import { ResourceCard, ResourceTable } from '../../../resources/resource-page';
import { settingsQuery } from '../../../system/queries';
import { TEST_CLOCK_POLL_MS, testClocksQuery } from '../../../test-clocks/queries';
import { clockName, LIVE_MODE_NOTE, TestClockStatusBadge } from '../../../test-clocks/status';
import { TestClockForm } from './-components/test-clock-form';
import { PageTitle } from '../../../shell/page-title';

export const Route = createFileRoute('/_authenticated/dashboard/test-clocks/')({
  loader: ({ context: { queryClient, organizationId } }) => {
    if (organizationId) prefetch(queryClient, testClocksQuery(organizationId, 1));
  },
  component: TestClocksPage,
});

function TestClocksPage() {
  return (
    <>
      <PageTitle title="Test clocks" />
      <TestClocksPageContent />
    </>
  );
}

function TestClocksPageContent() {
  const { organizationId } = Route.useRouteContext();
  const settings = useQuery(settingsQuery);
  if (!organizationId) return <p>Choose an organization to see its test clocks.</p>;
  if (settings.data?.mode === 'live') return <p className="notice">{LIVE_MODE_NOTE}</p>;
  return <TestClocks organizationId={organizationId} />;
}

function TestClocks({ organizationId }: { organizationId: string }) {
  const [page, setPage] = useState(1);
  const canManage = useCanManageActiveOrganization(Route.useRouteContext().session.user.id);
  const clocks = useQuery({
    ...testClocksQuery(organizationId, page),
    refetchInterval: (query) =>
      query.state.data?.items.some((clock) => clock.status === 'advancing') ? TEST_CLOCK_POLL_MS : false,
  });
  return (
    <>
      {canManage ? <TestClockForm organizationId={organizationId} /> : null}
      {canManage === false ? (
        <p className="muted">Only owners and admins can create and advance test clocks.</p>
      ) : null}
      <ResourceCard
        title="Test clocks"
        error={clocks.error?.message ?? null}
        items={clocks.data?.items}
        empty="No test clocks yet."
        footer={<Pager page={page} maxPage={clocks.data?.pagination.max_page ?? 1} onPage={setPage} />}
      >
        <ResourceTable
          items={clocks.data?.items}
          rowTestId="test-clock-row"
          columns={[
            {
              header: 'Clock',
              cell: (clock) => (
                <Link to="/dashboard/test-clocks/$testClockId" params={{ testClockId: clock.id }}>
                  <Truncated text={clockName(clock)} />
                </Link>
              ),
            },
            { header: 'Time', cell: (clock) => formatDateTime(clock.frozen_time) },
            { header: 'Status', cell: (clock) => <TestClockStatusBadge status={clock.status} /> },
            { header: 'Customers', cell: (clock) => clock.customer_ids.length },
          ]}
        />
      </ResourceCard>
    </>
  );
}
