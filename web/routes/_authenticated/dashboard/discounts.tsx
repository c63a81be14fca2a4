import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import type { Discount } from '../../../../domain/discounts/schemas';
import { discountsQuery, productsQuery } from '../../../catalog/queries';
import { formatDateTime, Truncated } from '../../../components';
import { prefetch } from '../../../loaders';
import { formatMoney } from '../../../money/format';
import { ManagersOnly, managersOnlyActions } from '../../../organizations/managers-only';
import { useCanManageActiveOrganization } from '../../../organizations/roles';
import { DeleteButton, ResourceCard, ResourceTable, useEditor } from '../../../resources/resource-page';
import { DiscountForm } from './-components/discount-form';
import { PageTitle } from '../../../shell/page-title';

export const Route = createFileRoute('/_authenticated/dashboard/discounts')({
  loader: ({ context: { queryClient, organizationId } }) => {
    if (!organizationId) return;
    prefetch(queryClient, discountsQuery(organizationId));
    // The form's product picker.
    prefetch(queryClient, productsQuery(organizationId, false));
  },
  component: DiscountsPage,
});

function valueOf(discount: Discount): string {
  const value =
    discount.type === 'fixed'
      ? `${formatMoney(discount.amount ?? 0, discount.currency ?? 'usd')} off`
      : `${(discount.basis_points ?? 0) / 100} % off`;
  const duration =
    discount.duration === 'repeating' ? `for ${discount.duration_in_months} months` : discount.duration;
  return `${value}, ${duration}`;
}

function DiscountsPage() {
  return (
    <>
      <PageTitle title="Discounts" />
      <DiscountsPageContent />
    </>
  );
}

function DiscountsPageContent() {
  const { organizationId } = Route.useRouteContext();
  if (!organizationId) return <p>Choose an organization to see its discounts.</p>;
  return <Discounts organizationId={organizationId} />;
}

function Discounts({ organizationId }: { organizationId: string }) {
  const canManage = useCanManageActiveOrganization(Route.useRouteContext().session.user.id);
  const editor = useEditor<Discount>();
  const [error, setError] = useState<string | null>(null);
  const discounts = useQuery(discountsQuery(organizationId));
  const rowActions = managersOnlyActions<Discount>({
    canManage,
    header: null,
    onEdit: editor.edit,
    more: (discount) => (
      <DeleteButton
        label={`Delete ${discount.name}`}
        question="Delete this discount?"
        path={`/v1/discounts/${discount.id}`}
        listKey={['discounts', organizationId]}
        onError={setError}
      />
    ),
  });
  return (
    <>
      <ManagersOnly canManage={canManage} title="Create a discount" action="create, edit or delete discounts">
        <DiscountForm
          key={editor.formKey}
          organizationId={organizationId}
          discount={editor.editing}
          onDone={editor.onDone}
        />
      </ManagersOnly>
      <ResourceCard title="Discounts" error={discounts.error?.message ?? error} items={discounts.data?.items}>
        <ResourceTable
          items={discounts.data?.items}
          rowTestId="discount-row"
          columns={[
            { header: 'Name', cell: (discount) => <Truncated text={discount.name} /> },
            {
              header: 'Code',
              cell: (discount) => (discount.code ? <Truncated text={discount.code} /> : '—'),
            },
            { header: 'Value', cell: valueOf },
            {
              header: 'Products',
              testId: 'discount-products',
              cell: (discount) =>
                discount.products.length === 0 ? (
                  'All products'
                ) : (
                  <Truncated text={discount.products.map((product) => product.name).join(', ')} />
                ),
            },
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
            ...rowActions,
          ]}
        />
      </ResourceCard>
    </>
  );
}
