import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { deleteResource } from '../../../api';
import { benefitsQuery } from '../../../catalog/queries';
import { ConfirmButton, Truncated } from '../../../components';
import { prefetch } from '../../../loaders';
import { ManagersOnlyNote } from '../../../organizations/managers-only';
import { useCanManageActiveOrganization } from '../../../organizations/roles';
import { ResourceCard, ResourceList } from '../../../resources/resource-page';
import { BenefitForm } from './-components/benefit-form';
import { BENEFIT_TYPE_LABELS, describeBenefit } from './-components/benefit-labels';

export const Route = createFileRoute('/_authenticated/dashboard/benefits/')({
  loader: ({ context: { queryClient, organizationId } }) => {
    if (organizationId) prefetch(queryClient, benefitsQuery(organizationId));
  },
  component: BenefitsPage,
});

function BenefitsPage() {
  const { organizationId } = Route.useRouteContext();
  if (!organizationId) return <p>Choose an organization to see its benefits.</p>;
  return <Benefits organizationId={organizationId} />;
}

function Benefits({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient();
  const canManage = useCanManageActiveOrganization(Route.useRouteContext().session.user.id);
  const [error, setError] = useState<string | null>(null);
  const benefits = useQuery(benefitsQuery(organizationId));
  return (
    <>
      {canManage ? <BenefitForm organizationId={organizationId} /> : null}
      {canManage === false ? (
        <ManagersOnlyNote title="Create a benefit" action="create and delete benefits" />
      ) : null}
      <ResourceCard
        title="Benefits"
        error={benefits.error?.message ?? error}
        items={benefits.data?.items}
        empty="No benefits yet."
      >
        <ResourceList items={benefits.data?.items} rowTestId="benefit-row">
          {(benefit) => (
            <>
              <Link to="/dashboard/benefits/$benefitId" params={{ benefitId: benefit.id }}>
                <Truncated text={benefit.description}>
                  <strong>{benefit.description}</strong>
                </Truncated>
              </Link>{' '}
              · {BENEFIT_TYPE_LABELS[benefit.type]} {describeBenefit(benefit)}{' '}
              {canManage && benefit.deletable ? (
                <ConfirmButton
                  label={`Delete ${benefit.description}`}
                  text="Delete"
                  question="Delete this benefit?"
                  onConfirm={async () => {
                    await deleteResource(`/v1/benefits/${benefit.id}`).catch((failure: Error) =>
                      setError(failure.message),
                    );
                    await queryClient.invalidateQueries({ queryKey: ['benefits', organizationId] });
                  }}
                />
              ) : null}
            </>
          )}
        </ResourceList>
      </ResourceCard>
    </>
  );
}
