import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import { authClient } from '../../../auth/client';
import { Card, ErrorNote, formatDateTime, Pager } from '../../../components';
import { formatMoney } from '../../../checkouts/money';
import { REFUND_POLL_MS, refundsQuery } from '../../../orders/queries';
import { REFUND_REASON_LABELS, RefundStatusBadge } from '../../../orders/status';

export const Route = createFileRoute('/_authenticated/dashboard/refunds')({
  validateSearch: z.object({ page: z.coerce.number().int().min(1).optional().catch(undefined) }),
  component: RefundsPage,
});

function RefundsPage() {
  const active = authClient.useActiveOrganization();
  const organizationId = active.data?.id;
  const page = Route.useSearch().page ?? 1;
  const navigate = useNavigate({ from: Route.fullPath });
  const refunds = useQuery({
    ...refundsQuery(organizationId ?? '', page),
    enabled: Boolean(organizationId),
    refetchInterval: (query) =>
      query.state.data?.items.some((refund) => refund.status === 'pending') ? REFUND_POLL_MS : false,
  });
  if (!organizationId) return <p>Choose an organization to see its refunds.</p>;
  return (
    <Card title="Refunds">
      <ErrorNote message={refunds.error?.message ?? null} />
      <table className="data-table">
        <thead>
          <tr>
            <th>Created</th>
            <th>Order</th>
            <th>Amount</th>
            <th>Tax</th>
            <th>Reason</th>
            <th>Status</th>
          </tr>
        </thead>
        <tbody>
          {(refunds.data?.items ?? []).map((refund) => (
            <tr key={refund.id} data-testid="refund-row">
              <td>{formatDateTime(refund.created_at)}</td>
              <td>
                <Link to="/dashboard/orders/$orderId" params={{ orderId: refund.order_id }}>
                  {refund.order_id.slice(0, 8)}
                </Link>
              </td>
              <td>{formatMoney(refund.amount, refund.currency)}</td>
              <td>{formatMoney(refund.tax_amount, refund.currency)}</td>
              <td>{REFUND_REASON_LABELS[refund.reason]}</td>
              <td>
                <RefundStatusBadge status={refund.status} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {refunds.data?.items.length === 0 ? <p className="muted">No refunds yet.</p> : null}
      <Pager
        page={page}
        maxPage={refunds.data?.pagination.max_page ?? 1}
        onPage={(next) => void navigate({ search: { page: next } })}
      />
    </Card>
  );
}
