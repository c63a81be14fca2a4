import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import { authClient } from '../../../auth/client';
import { Card, ErrorNote, formatDateTime, Pager } from '../../../components';
import { formatMoney } from '../../../checkouts/money';
import { ordersQuery } from '../../../orders/queries';
import { OrderStatusBadge } from '../../../orders/status';

export const Route = createFileRoute('/_authenticated/dashboard/orders/')({
  validateSearch: z.object({ page: z.coerce.number().int().min(1).optional().catch(undefined) }),
  component: OrdersPage,
});

function OrdersPage() {
  const active = authClient.useActiveOrganization();
  const organizationId = active.data?.id;
  const page = Route.useSearch().page ?? 1;
  const navigate = useNavigate({ from: Route.fullPath });
  const orders = useQuery({ ...ordersQuery(organizationId ?? '', page), enabled: Boolean(organizationId) });
  if (!organizationId) return <p>Choose an organization to see its orders.</p>;
  return (
    <Card title="Orders">
      <ErrorNote message={orders.error?.message ?? null} />
      <table className="data-table">
        <thead>
          <tr>
            <th>Order</th>
            <th>Created</th>
            <th>Customer</th>
            <th>Product</th>
            <th>Total</th>
            <th>Status</th>
          </tr>
        </thead>
        <tbody>
          {(orders.data?.items ?? []).map((order) => (
            <tr key={order.id} data-testid="order-row">
              <td>
                <Link to="/dashboard/orders/$orderId" params={{ orderId: order.id }}>
                  {order.id.slice(0, 8)}
                </Link>
              </td>
              <td>{formatDateTime(order.created_at)}</td>
              <td>{order.customer.email}</td>
              <td>{order.product.name}</td>
              <td>{formatMoney(order.total_amount, order.currency)}</td>
              <td>
                <OrderStatusBadge status={order.status} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {orders.data?.items.length === 0 ? <p className="muted">No orders yet.</p> : null}
      <Pager
        page={page}
        maxPage={orders.data?.pagination.max_page ?? 1}
        onPage={(next) => void navigate({ search: { page: next } })}
      />
    </Card>
  );
}
