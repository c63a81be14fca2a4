import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import type { Benefit, BenefitType } from '../../../../domain/benefits/schemas';
import { deleteResource } from '../../../api';
import { benefitsQuery } from '../../../catalog/queries';
import { ConfirmButton } from '../../../components';
import { prefetch } from '../../../loaders';
import { ResourceCard, ResourceList } from '../../../resources/resource-page';
import { BENEFIT_TYPE_LABELS, BenefitForm } from './-components/benefit-form';

export const Route = createFileRoute('/_authenticated/dashboard/benefits')({
  loader: ({ context: { queryClient, organizationId } }) => {
    if (organizationId) prefetch(queryClient, benefitsQuery(organizationId));
  },
  component: BenefitsPage,
});

function describe(benefit: Benefit): string {
  const properties = benefit.properties as Record<string, unknown>;
  switch (benefit.type) {
    case 'discord':
      return `role ${String(properties.role_id)} on server ${String(properties.guild_id)}`;
    case 'github_repository':
      return `${String(properties.repository_owner)}/${String(properties.repository_name)} (${String(properties.permission)})`;
    case 'downloadables':
      return `${(properties.files as string[]).length} file(s)`;
    case 'meter_credit':
      return `${String(properties.units)} units`;
    default:
      return '';
  }
}

function BenefitsPage() {
  const { organizationId } = Route.useRouteContext();
  if (!organizationId) return <p>Choose an organization to see its benefits.</p>;
  return <Benefits organizationId={organizationId} />;
}

function Benefits({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const benefits = useQuery(benefitsQuery(organizationId));
  return (
    <>
      <BenefitForm organizationId={organizationId} />
      <ResourceCard title="Benefits" error={benefits.error?.message ?? error} items={benefits.data?.items}>
        <ResourceList items={benefits.data?.items} rowTestId="benefit-row">
          {(benefit) => (
            <>
              <strong>{benefit.description}</strong> · {BENEFIT_TYPE_LABELS[benefit.type as BenefitType]}{' '}
              {describe(benefit)}{' '}
              {benefit.deletable ? (
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
