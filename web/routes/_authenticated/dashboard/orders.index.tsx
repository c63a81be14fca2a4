import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import { formatMoney } from '../../../checkouts/money';
import { formatDateTime, Pager } from '../../../components';
import { prefetch } from '../../../loaders';
import { ordersQuery } from '../../../orders/queries';
import { OrderStatusBadge } from '../../../orders/status';
import { ResourceCard, ResourceTable } from '../../../resources/resource-page';

export const Route = createFileRoute('/_authenticated/dashboard/orders/')({
  validateSearch: z.object({ page: z.coerce.number().int().min(1).optional().catch(undefined) }),
  loaderDeps: ({ search }) => ({ page: search.page ?? 1 }),
  loader: ({ context: { queryClient, organizationId }, deps: { page } }) => {
    if (organizationId) prefetch(queryClient, ordersQuery(organizationId, page));
  },
  component: OrdersPage,
});

function OrdersPage() {
  const { organizationId } = Route.useRouteContext();
  if (!organizationId) return <p>Choose an organization to see its orders.</p>;
  return <Orders organizationId={organizationId} />;
}

function Orders({ organizationId }: { organizationId: string }) {
  const page = Route.useSearch().page ?? 1;
  const navigate = useNavigate({ from: Route.fullPath });
  const orders = useQuery(ordersQuery(organizationId, page));
  return (
    <ResourceCard
      title="Orders"
      error={orders.error?.message ?? null}
      items={orders.data?.items}
      empty="No orders yet."
      footer={
        <Pager
          page={page}
          maxPage={orders.data?.pagination.max_page ?? 1}
          onPage={(next) => void navigate({ search: { page: next } })}
        />
      }
    >
      <ResourceTable
        items={orders.data?.items}
        rowTestId="order-row"
        columns={[
          {
            header: 'Order',
            cell: (order) => (
              <Link to="/dashboard/orders/$orderId" params={{ orderId: order.id }}>
                {order.id.slice(0, 8)}
              </Link>
            ),
          },
          { header: 'Created', cell: (order) => formatDateTime(order.created_at) },
          { header: 'Customer', cell: (order) => order.customer.email },
          { header: 'Product', cell: (order) => order.product.name },
          { header: 'Total', cell: (order) => formatMoney(order.total_amount, order.currency) },
          { header: 'Status', cell: (order) => <OrderStatusBadge status={order.status} /> },
        ]}
      />
    </ResourceCard>
  );
}
