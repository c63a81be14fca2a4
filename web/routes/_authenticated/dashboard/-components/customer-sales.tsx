import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatMoney } from '../../../../money/format';
import { Card, ErrorNote, formatDateTime, Pager, Truncated } from '../../../../components';
import { customerSummaryQuery } from '../../../../customers/queries';
import { ordersExportUrl, ordersQuery } from '../../../../orders/queries';
import { OrderNumberLink } from '../../../../orders/order-number-link';
import { OrderStatusBadge } from '../../../../orders/status';
import { ResourceCard, ResourceTable } from '../../../../resources/resource-page';
import { countOf } from '../../../../sales/format';
import { EmptyHint, ListSummary } from '../../../../sales/list-controls';

/** What the customer brought in: lifetime value per currency, orders and plans counted. */
export function CustomerSalesSummary({ customerId }: { customerId: string }) {
  const summary = useQuery(customerSummaryQuery(customerId));
  const data = summary.data;
  return (
    <Card title="Sales" testId="customer-sales">
      <ErrorNote message={summary.error?.message ?? null} />
      {data ? (
        <dl className="stat-grid">
          <div>
            <dt>Lifetime value</dt>
            <dd data-testid="customer-lifetime-value">
              {data.lifetime_value.length === 0
                ? '—'
                : data.lifetime_value.map((sum) => formatMoney(sum.amount, sum.currency)).join(' · ')}
            </dd>
          </div>
          <div>
            <dt>Orders</dt>
            <dd data-testid="customer-orders-count">{countOf(data.orders_count, 'order')}</dd>
          </div>
          <div>
            <dt>Subscriptions</dt>
            <dd>
              {countOf(data.subscriptions_count, 'subscription')}
              {data.active_subscriptions_count > 0 ? ` (${data.active_subscriptions_count} active)` : ''}
            </dd>
          </div>
          <div>
            <dt>Last order</dt>
            <dd>{formatDateTime(data.last_order_at)}</dd>
          </div>
        </dl>
      ) : null}
      <p className="muted">Lifetime value: paid orders less refunds, before tax.</p>
    </Card>
  );
}

/** The customer's orders, newest first, with their CSV export. */
export function CustomerOrders({
  organizationId,
  customerId,
}: {
  organizationId: string;
  customerId: string;
}) {
  const [page, setPage] = useState(1);
  const filters = { customerId };
  const orders = useQuery(ordersQuery(organizationId, page, filters));
  const total = orders.data?.pagination.total_count;
  return (
    <ResourceCard
      title="Orders"
      toolbar={
        <ListSummary
          count={total === undefined ? null : countOf(total, 'order')}
          exportUrl={ordersExportUrl(organizationId, filters)}
          exportLabel="Export CSV"
        />
      }
      error={orders.error?.message ?? null}
      items={orders.data?.items}
      footer={<Pager page={page} maxPage={orders.data?.pagination.max_page ?? 1} onPage={setPage} />}
    >
      {orders.data?.items.length === 0 ? <EmptyHint>No orders from this customer yet.</EmptyHint> : null}
      <ResourceTable
        items={orders.data?.items}
        rowTestId="customer-order-row"
        columns={[
          { header: 'Order', cell: (order) => <OrderNumberLink orderId={order.id} /> },
          { header: 'Created', className: 'nowrap', cell: (order) => formatDateTime(order.created_at) },
          { header: 'Product', cell: (order) => <Truncated text={order.description} /> },
          {
            header: 'Total',
            className: 'nowrap',
            cell: (order) => formatMoney(order.total_amount, order.currency),
          },
          { header: 'Status', cell: (order) => <OrderStatusBadge status={order.status} /> },
        ]}
      />
    </ResourceCard>
  );
}
