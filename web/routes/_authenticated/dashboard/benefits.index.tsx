import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { benefitsQuery } from '../../../catalog/queries';
import { Truncated } from '../../../components';
import { prefetch } from '../../../loaders';
import { ManagersOnly } from '../../../organizations/managers-only';
import { useCanManageActiveOrganization } from '../../../organizations/roles';
import { DeleteButton, ResourceCard, ResourceList } from '../../../resources/resource-page';
import { BenefitForm } from './-components/benefit-form';
import { BENEFIT_TYPE_LABELS, describeBenefit } from './-components/benefit-labels';
import { PageTitle } from '../../../shell/page-title';

export const Route = createFileRoute('/_authenticated/dashboard/benefits/')({
  loader: ({ context: { queryClient, organizationId } }) => {
    if (organizationId) prefetch(queryClient, benefitsQuery(organizationId));
  },
  component: BenefitsPage,
});

function BenefitsPage() {
  return (
    <>
      <PageTitle title="Benefits" />
      <BenefitsPageContent />
    </>
  );
}

function BenefitsPageContent() {
  const { organizationId } = Route.useRouteContext();
  if (!organizationId) return <p>Choose an organization to see its benefits.</p>;
  return <Benefits organizationId={organizationId} />;
}

function Benefits({ organizationId }: { organizationId: string }) {
  const canManage = useCanManageActiveOrganization(Route.useRouteContext().session.user.id);
  const [error, setError] = useState<string | null>(null);
  const benefits = useQuery(benefitsQuery(organizationId));
  return (
    <>
      <ManagersOnly canManage={canManage} title="Create a benefit" action="create and delete benefits">
        <BenefitForm organizationId={organizationId} />
      </ManagersOnly>
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
                <DeleteButton
                  label={`Delete ${benefit.description}`}
                  question="Delete this benefit?"
                  path={`/v1/benefits/${benefit.id}`}
                  listKey={['benefits', organizationId]}
                  onError={setError}
                />
              ) : null}
            </>
          )}
        </ResourceList>
      </ResourceCard>
    </>
  );
}
