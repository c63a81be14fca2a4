import { useQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import { authClient } from '../../../auth/client';
import { Card, ErrorNote, formatDateTime, Pager } from '../../../components';
import { formatMoney } from '../../../checkouts/money';
import { checkoutsQuery } from '../../../checkouts/queries';
import { CheckoutStatusBadge } from '../../../orders/status';

export const Route = createFileRoute('/_authenticated/dashboard/checkouts')({
  validateSearch: z.object({ page: z.coerce.number().int().min(1).optional().catch(undefined) }),
  component: CheckoutsPage,
});

function CheckoutsPage() {
  const active = authClient.useActiveOrganization();
  const organizationId = active.data?.id;
  const page = Route.useSearch().page ?? 1;
  const navigate = useNavigate({ from: Route.fullPath });
  const checkouts = useQuery({
    ...checkoutsQuery(organizationId ?? '', page),
    enabled: Boolean(organizationId),
  });
  if (!organizationId) return <p>Choose an organization to see its checkouts.</p>;
  return (
    <Card title="Checkouts">
      <ErrorNote message={checkouts.error?.message ?? null} />
      <table className="data-table">
        <thead>
          <tr>
            <th>Created</th>
            <th>Status</th>
            <th>Product</th>
            <th>Customer</th>
            <th>Amount</th>
            <th>Expires</th>
          </tr>
        </thead>
        <tbody>
          {(checkouts.data?.items ?? []).map((checkout) => (
            <tr key={checkout.id} data-testid="checkout-row">
              <td>{formatDateTime(checkout.created_at)}</td>
              <td>
                <CheckoutStatusBadge status={checkout.status} />
              </td>
              <td>{checkout.product.name}</td>
              <td>{checkout.customer_email ?? '—'}</td>
              <td>{formatMoney(checkout.total_amount, checkout.currency)}</td>
              <td>
                {checkout.status === 'open' ? (
                  <a href={checkout.url} target="_blank" rel="noreferrer">
                    {formatDateTime(checkout.expires_at)}
                  </a>
                ) : (
                  formatDateTime(checkout.expires_at)
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {checkouts.data?.items.length === 0 ? <p className="muted">No checkouts yet.</p> : null}
      <Pager
        page={page}
        maxPage={checkouts.data?.pagination.max_page ?? 1}
        onPage={(next) => void navigate({ search: { page: next } })}
      />
    </Card>
  );
}
