import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import type { Meter } from '../../../../domain/meters/schemas';
import { metersQuery } from '../../../catalog/queries';
import { Truncated } from '../../../components';
import { prefetch } from '../../../loaders';
import { ManagersOnly } from '../../../organizations/managers-only';
import { useCanManageActiveOrganization } from '../../../organizations/roles';
import { EditButton, ResourceCard, ResourceTable, useEditor } from '../../../resources/resource-page';
import { MeterForm } from './-components/meter-form';
import { describeAggregation, describeFilter } from './-components/meter-labels';
import { PageTitle } from '../../../shell/page-title';

export const Route = createFileRoute('/_authenticated/dashboard/meters/')({
  loader: ({ context: { queryClient, organizationId } }) => {
    if (organizationId) prefetch(queryClient, metersQuery(organizationId));
  },
  component: MetersPage,
});

function MetersPage() {
  return (
    <>
      <PageTitle title="Meters" />
      <MetersPageContent />
    </>
  );
}

function MetersPageContent() {
  const { organizationId } = Route.useRouteContext();
  if (!organizationId) return <p>Choose an organization to see its meters.</p>;
  return <Meters organizationId={organizationId} />;
}

function Meters({ organizationId }: { organizationId: string }) {
  const canManage = useCanManageActiveOrganization(Route.useRouteContext().session.user.id);
  const editor = useEditor<Meter>();
  const meters = useQuery(metersQuery(organizationId));
  return (
    <>
      <ManagersOnly canManage={canManage} title="Create a meter" action="create or edit meters">
        <MeterForm
          key={editor.formKey}
          organizationId={organizationId}
          meter={editor.editing}
          onDone={editor.onDone}
        />
      </ManagersOnly>
      <ResourceCard
        title="Meters"
        error={meters.error?.message ?? null}
        items={meters.data?.items}
        empty="No meters yet."
      >
        <ResourceTable
          items={meters.data?.items}
          rowTestId="meter-row"
          columns={[
            {
              header: 'Name',
              cell: (meter) => (
                <Link to="/dashboard/meters/$meterId" params={{ meterId: meter.id }}>
                  <Truncated text={meter.name} />
                </Link>
              ),
            },
            {
              header: 'Counts events where',
              testId: 'meter-filter',
              cell: (meter) => describeFilter(meter.filter),
            },
            { header: 'Aggregation', cell: (meter) => describeAggregation(meter.aggregation) },
            ...(canManage
              ? [
                  {
                    header: 'Actions',
                    cell: (meter: Meter) => (
                      <EditButton name={meter.name} onClick={() => editor.edit(meter)} />
                    ),
                  },
                ]
              : []),
          ]}
        />
      </ResourceCard>
    </>
  );
}
