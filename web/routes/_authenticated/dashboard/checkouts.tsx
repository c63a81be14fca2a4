import { useQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import { formatMoney } from '../../../checkouts/money';
import { checkoutsQuery } from '../../../checkouts/queries';
import { formatDateTime, Pager } from '../../../components';
import { prefetch } from '../../../loaders';
import { CheckoutStatusBadge } from '../../../orders/status';
import { ResourceCard, ResourceTable } from '../../../resources/resource-page';

export const Route = createFileRoute('/_authenticated/dashboard/checkouts')({
  validateSearch: z.object({ page: z.coerce.number().int().min(1).optional().catch(undefined) }),
  loaderDeps: ({ search }) => ({ page: search.page ?? 1 }),
  loader: ({ context: { queryClient, organizationId }, deps: { page } }) => {
    if (organizationId) prefetch(queryClient, checkoutsQuery(organizationId, page));
  },
  component: CheckoutsPage,
});

function CheckoutsPage() {
  const { organizationId } = Route.useRouteContext();
  if (!organizationId) return <p>Choose an organization to see its checkouts.</p>;
  return <Checkouts organizationId={organizationId} />;
}

function Checkouts({ organizationId }: { organizationId: string }) {
  const page = Route.useSearch().page ?? 1;
  const navigate = useNavigate({ from: Route.fullPath });
  const checkouts = useQuery(checkoutsQuery(organizationId, page));
  return (
    <ResourceCard
      title="Checkouts"
      error={checkouts.error?.message ?? null}
      items={checkouts.data?.items}
      empty="No checkouts yet."
      footer={
        <Pager
          page={page}
          maxPage={checkouts.data?.pagination.max_page ?? 1}
          onPage={(next) => void navigate({ search: { page: next } })}
        />
      }
    >
      <ResourceTable
        items={checkouts.data?.items}
        rowTestId="checkout-row"
        columns={[
          { header: 'Created', cell: (checkout) => formatDateTime(checkout.created_at) },
          { header: 'Status', cell: (checkout) => <CheckoutStatusBadge status={checkout.status} /> },
          { header: 'Product', cell: (checkout) => checkout.product.name },
          { header: 'Customer', cell: (checkout) => checkout.customer_email ?? '—' },
          { header: 'Amount', cell: (checkout) => formatMoney(checkout.total_amount, checkout.currency) },
          {
            header: 'Expires',
            cell: (checkout) =>
              checkout.status === 'open' ? (
                <a href={checkout.url} target="_blank" rel="noreferrer">
                  {formatDateTime(checkout.expires_at)}
                </a>
              ) : (
                formatDateTime(checkout.expires_at)
              ),
          },
        ]}
      />
    </ResourceCard>
  );
}
