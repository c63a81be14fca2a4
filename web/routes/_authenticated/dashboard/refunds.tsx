import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import { formatMoney } from '../../../money/format';
import { formatDateTime, Pager } from '../../../components';
import { prefetch } from '../../../loaders';
import { OrderNumberLink } from '../../../orders/order-number-link';
import { REFUND_POLL_MS, refundsQuery } from '../../../orders/queries';
import { REFUND_REASON_LABELS, RefundStatusBadge } from '../../../orders/status';
import { ResourceCard, ResourceTable } from '../../../resources/resource-page';
import { PageTitle } from '../../../shell/page-title';

export const Route = createFileRoute('/_authenticated/dashboard/refunds')({
  validateSearch: z.object({ page: z.coerce.number().int().min(1).optional().catch(undefined) }),
  loaderDeps: ({ search }) => ({ page: search.page ?? 1 }),
  loader: ({ context: { queryClient, organizationId }, deps: { page } }) => {
    if (organizationId) prefetch(queryClient, refundsQuery(organizationId, page));
  },
  component: RefundsPage,
});

function RefundsPage() {
  return (
    <>
      <PageTitle title="Refunds" />
      <RefundsPageContent />
    </>
  );
}

function RefundsPageContent() {
  const { organizationId } = Route.useRouteContext();
  if (!organizationId) return <p>Choose an organization to see its refunds.</p>;
  return <Refunds organizationId={organizationId} />;
}

function Refunds({ organizationId }: { organizationId: string }) {
  const page = Route.useSearch().page ?? 1;
  const navigate = useNavigate({ from: Route.fullPath });
  const refunds = useQuery({
    ...refundsQuery(organizationId, page),
    refetchInterval: (query) =>
      query.state.data?.items.some((refund) => refund.status === 'pending') ? REFUND_POLL_MS : false,
  });
  return (
    <ResourceCard
      title="Refunds"
      error={refunds.error?.message ?? null}
      items={refunds.data?.items}
      count={{ total: refunds.data?.pagination.total_count, one: 'refund', other: 'refunds' }}
      empty={
        <>
          No refunds yet. To give money back, open an order from <Link to="/dashboard/orders">Orders</Link>{' '}
          and choose “Refund”.
        </>
      }
      footer={
        <Pager
          page={page}
          maxPage={refunds.data?.pagination.max_page ?? 1}
          onPage={(next) => void navigate({ search: { page: next } })}
        />
      }
    >
      <ResourceTable
        items={refunds.data?.items}
        rowTestId="refund-row"
        columns={[
          { header: 'Created', cell: (refund) => formatDateTime(refund.created_at) },
          { header: 'Order', cell: (refund) => <OrderNumberLink orderId={refund.order_id} /> },
          { header: 'Amount', cell: (refund) => formatMoney(refund.amount, refund.currency) },
          { header: 'Tax', cell: (refund) => formatMoney(refund.tax_amount, refund.currency) },
          { header: 'Reason', cell: (refund) => REFUND_REASON_LABELS[refund.reason] },
          { header: 'Status', cell: (refund) => <RefundStatusBadge status={refund.status} /> },
        ]}
      />
    </ResourceCard>
  );
}
