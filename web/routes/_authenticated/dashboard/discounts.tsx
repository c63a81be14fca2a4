import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import type { Discount } from '../../../../domain/discounts/schemas';
import { deleteResource } from '../../../api';
import { discountsQuery } from '../../../catalog/queries';
import { ConfirmButton, formatDateTime } from '../../../components';
import { prefetch } from '../../../loaders';
import { ResourceCard, ResourceTable } from '../../../resources/resource-page';
import { DiscountForm } from './-components/discount-form';

export const Route = createFileRoute('/_authenticated/dashboard/discounts')({
  loader: ({ context: { queryClient, organizationId } }) => {
    if (organizationId) prefetch(queryClient, discountsQuery(organizationId));
  },
  component: DiscountsPage,
});

function valueOf(discount: Discount): string {
  const value =
    discount.type === 'fixed'
      ? `${((discount.amount ?? 0) / 100).toFixed(2)} ${discount.currency?.toUpperCase() ?? ''} off`
      : `${(discount.basis_points ?? 0) / 100} % off`;
  const duration =
    discount.duration === 'repeating' ? `for ${discount.duration_in_months} months` : discount.duration;
  return `${value}, ${duration}`;
}

function DiscountsPage() {
  const { organizationId } = Route.useRouteContext();
  if (!organizationId) return <p>Choose an organization to see its discounts.</p>;
  return <Discounts organizationId={organizationId} />;
}

function Discounts({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const discounts = useQuery(discountsQuery(organizationId));
  return (
    <>
      <DiscountForm organizationId={organizationId} />
      <ResourceCard title="Discounts" error={discounts.error?.message ?? error} items={discounts.data?.items}>
        <ResourceTable
          items={discounts.data?.items}
          rowTestId="discount-row"
          columns={[
            { header: 'Name', cell: (discount) => discount.name },
            { header: 'Code', cell: (discount) => discount.code ?? '—' },
            { header: 'Value', cell: valueOf },
            {
              header: 'Redemptions',
              cell: (discount) => (
                <>
                  {discount.redemptions_count}
                  {discount.max_redemptions ? ` / ${discount.max_redemptions}` : ''}
                </>
              ),
            },
            {
              header: 'Valid',
              cell: (discount) => (
                <>
                  {formatDateTime(discount.starts_at, 'any time')} –{' '}
                  {formatDateTime(discount.ends_at, 'no end')}
                </>
              ),
            },
            {
              header: null,
              cell: (discount) => (
                <ConfirmButton
                  label={`Delete ${discount.name}`}
                  text="Delete"
                  question="Delete this discount?"
                  onConfirm={async () => {
                    await deleteResource(`/v1/discounts/${discount.id}`).catch((failure: Error) =>
                      setError(failure.message),
                    );
                    await queryClient.invalidateQueries({ queryKey: ['discounts', organizationId] });
                  }}
                />
              ),
            },
          ]}
        />
      </ResourceCard>
    </>
  );
}
