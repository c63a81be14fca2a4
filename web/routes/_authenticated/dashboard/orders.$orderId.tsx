import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { checkoutWorkflowId } from '../../../../domain/checkouts/rules';
import { subscriptionWorkflowId } from '../../../../domain/subscriptions/rules';
import { WorkflowLink } from '../../../system/workflow-link';
import { formatMoney } from '../../../money/format';
import { Card, ErrorNote, formatDateTime } from '../../../components';
import { prefetch } from '../../../loaders';
import { orderQuery, orderRefundsQuery, orderTimelineQuery, REFUND_POLL_MS } from '../../../orders/queries';
import { RefundDialog } from '../../../orders/refund-dialog';
import { ResourceCard, ResourceList } from '../../../resources/resource-page';
import {
  BILLING_REASON_LABELS,
  OrderStatusBadge,
  REFUND_REASON_LABELS,
  RefundStatusBadge,
} from '../../../orders/status';
import { OrderBillingForm } from './-components/order-billing-form';
import { OrderInvoice } from './-components/order-invoice';
import { OrderTimeline } from './-components/order-timeline';
import { OrderDisputes, orderDisputesQuery } from '../../../orders/disputes';
import { useCanManageActiveOrganization } from '../../../organizations/roles';
import { orderNumber } from '../../../../domain/orders/rules';
import { PageTitle } from '../../../shell/page-title';

export const Route = createFileRoute('/_authenticated/dashboard/orders/$orderId')({
  loader: ({ context: { queryClient }, params: { orderId } }) => {
    prefetch(queryClient, orderQuery(orderId));
    prefetch(queryClient, orderRefundsQuery(orderId));
    prefetch(queryClient, orderTimelineQuery(orderId));
    prefetch(queryClient, orderDisputesQuery(orderId));
  },
  component: OrderPage,
});

function OrderPage() {
  const { orderId } = Route.useParams();
  const order = useQuery(orderQuery(orderId));
  return (
    <>
      <PageTitle title={order.data ? `Order ${orderNumber(order.data.id)}` : 'Order'} />
      <OrderPageContent />
    </>
  );
}

function OrderPageContent() {
  const { orderId } = Route.useParams();
  const canManage = useCanManageActiveOrganization(Route.useRouteContext().session.user.id);
  const refunds = useQuery({
    ...orderRefundsQuery(orderId),
    refetchInterval: (query) =>
      query.state.data?.items.some((refund) => refund.status === 'pending') ? REFUND_POLL_MS : false,
  });
  const refundList = refunds.data?.items ?? [];
  const hasPendingRefund = refundList.some((refund) => refund.status === 'pending');
  const settledRefunds = refundList
    .filter((refund) => refund.status === 'succeeded')
    .reduce((sum, refund) => sum + refund.amount, 0);
  // A refund settles in its workflow, which then updates the order: poll until the order's
  // refunded amount has caught up with the refunds (the two queries refresh independently).
  const order = useQuery({
    ...orderQuery(orderId),
    refetchInterval: (query) =>
      hasPendingRefund || (query.state.data && query.state.data.refunded_amount !== settledRefunds)
        ? REFUND_POLL_MS
        : false,
  });
  if (order.error) return <ErrorNote message={order.error.message} />;
  if (!order.data) return <p>Loading…</p>;
  const data = order.data;
  const money = (amount: number) => formatMoney(amount, data.currency);

  return (
    <>
      <p>
        <Link to="/dashboard/orders">← All orders</Link>
      </p>
      <Card title="Details">
        <dl className="details" data-testid="order-details">
          <dt>Status</dt>
          <dd>
            <OrderStatusBadge status={data.status} />
          </dd>
          <dt>Created</dt>
          <dd>{formatDateTime(data.created_at)}</dd>
          <dt>Customer</dt>
          <dd>
            <Link to="/dashboard/customers/$customerId" params={{ customerId: data.customer.id }}>
              {data.customer.email}
            </Link>
            {data.customer.name ? ` (${data.customer.name})` : ''}
          </dd>
          <dt>Product</dt>
          <dd>{data.description}</dd>
          <dt>Billing reason</dt>
          <dd>{BILLING_REASON_LABELS[data.billing_reason]}</dd>
          {data.subscription_id ? (
            <>
              <dt>Subscription</dt>
              <dd>
                <Link
                  to="/dashboard/subscriptions/$subscriptionId"
                  params={{ subscriptionId: data.subscription_id }}
                >
                  View subscription
                </Link>
              </dd>
            </>
          ) : null}
          {data.checkout_id || data.subscription_id ? (
            <>
              {/* Orders have no workflow of their own: the one that made and charged this one. */}
              <dt>Made by</dt>
              <dd>
                <WorkflowLink
                  workflowId={
                    data.subscription_id
                      ? subscriptionWorkflowId(data.subscription_id)
                      : checkoutWorkflowId(data.checkout_id!)
                  }
                />
              </dd>
            </>
          ) : null}
          {data.discount ? (
            <>
              <dt>Discount</dt>
              <dd>{data.discount.code ?? data.discount.name}</dd>
            </>
          ) : null}
        </dl>
        <div className="actions">
          <RefundDialog order={data} />
          <OrderInvoice order={data} />
        </div>
      </Card>

      <Card title="Items">
        <table className="data-table">
          <thead>
            <tr>
              <th>Item</th>
              <th>Amount</th>
              <th>Tax</th>
            </tr>
          </thead>
          <tbody>
            {data.items.map((item) => (
              <tr key={item.id}>
                <td>{item.label}</td>
                <td>{money(item.amount)}</td>
                <td>{money(item.tax_amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <dl className="details amounts" data-testid="order-amounts">
          <dt>Subtotal</dt>
          <dd>{money(data.subtotal_amount)}</dd>
          <dt>Discount</dt>
          <dd>−{money(data.discount_amount)}</dd>
          <dt>Net</dt>
          <dd>{money(data.net_amount)}</dd>
          <dt>Tax</dt>
          <dd>{money(data.tax_amount)}</dd>
          <dt>Total</dt>
          <dd>{money(data.total_amount)}</dd>
          <dt>Refunded</dt>
          <dd data-testid="refunded-amount">
            {money(data.refunded_amount)}
            {data.refunded_tax_amount > 0 ? ` + ${money(data.refunded_tax_amount)} tax` : ''}
          </dd>
        </dl>
      </Card>

      <OrderDisputes orderId={data.id} canManage={canManage} />

      <OrderTimeline orderId={data.id} />

      <ResourceCard
        title="Refunds"
        error={refunds.error?.message ?? null}
        items={refunds.data?.items}
        empty="No refunds."
      >
        <ResourceList items={refunds.data?.items} rowTestId="order-refund-row">
          {(refund) => (
            <>
              {formatDateTime(refund.created_at)} · {money(refund.amount)}
              {refund.tax_amount > 0 ? ` + ${money(refund.tax_amount)} tax` : ''} ·{' '}
              {REFUND_REASON_LABELS[refund.reason]} <RefundStatusBadge status={refund.status} />
            </>
          )}
        </ResourceList>
      </ResourceCard>

      <OrderBillingForm order={data} />
    </>
  );
}
