import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { customerSchema, customerStateSchema } from '../../../../domain/customers/schemas';
import { deleteResource, getJson, sendJson } from '../../../api';
import {
  Card,
  ConfirmButton,
  ErrorNote,
  Field,
  formatDateTime,
  formValues,
  SuccessNote,
} from '../../../components';

export const Route = createFileRoute('/_authenticated/dashboard/customers/$customerId')({
  component: CustomerPage,
});

function CustomerPage() {
  const { customerId } = Route.useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const state = useQuery({
    queryKey: ['customer-state', customerId],
    queryFn: () => getJson(`/v1/customers/${customerId}/state`, customerStateSchema),
  });
  if (state.error) return <ErrorNote message={state.error.message} />;
  if (!state.data) return <p>Loading…</p>;
  const customer = state.data;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { email = '', name = '' } = formValues(event.currentTarget);
    try {
      await sendJson('PATCH', `/v1/customers/${customerId}`, { email, name: name || null }, customerSchema);
      setError(null);
      setSaved(true);
      await queryClient.invalidateQueries({ queryKey: ['customer-state', customerId] });
    } catch (failure) {
      setSaved(false);
      setError((failure as Error).message);
    }
  }

  return (
    <>
      <Card title={customer.email}>
        <dl className="details">
          <dt>Name</dt>
          <dd>{customer.name ?? '—'}</dd>
          <dt>External ID</dt>
          <dd>{customer.external_id ?? '—'}</dd>
          <dt>Created</dt>
          <dd>{formatDateTime(customer.created_at)}</dd>
          <dt>Billing address</dt>
          <dd>
            {customer.billing_address
              ? [
                  customer.billing_address.line1,
                  customer.billing_address.postal_code,
                  customer.billing_address.city,
                  customer.billing_address.country,
                ]
                  .filter(Boolean)
                  .join(', ')
              : '—'}
          </dd>
          <dt>Tax ID</dt>
          <dd>{customer.tax_id ? `${customer.tax_id[0]} (${customer.tax_id[1]})` : '—'}</dd>
        </dl>
      </Card>
      <Card title="State">
        <h3>Active subscriptions</h3>
        {customer.active_subscriptions.length === 0 ? <p className="muted">None.</p> : null}
        <h3>Granted benefits</h3>
        {customer.granted_benefits.length === 0 ? (
          <p className="muted">None.</p>
        ) : (
          <ul className="plain-list" data-testid="granted-benefits">
            {customer.granted_benefits.map((grant) => (
              <li key={grant.id}>
                {grant.benefit_type} since {formatDateTime(grant.granted_at)}
              </li>
            ))}
          </ul>
        )}
        <h3>Active meters</h3>
        {customer.active_meters.length === 0 ? <p className="muted">None.</p> : null}
      </Card>
      <Card title="Edit customer">
        <form onSubmit={onSubmit} className="inline-form" noValidate>
          <Field label="Customer email" name="email" type="email" defaultValue={customer.email} />
          <Field label="Customer name" name="name" required={false} defaultValue={customer.name ?? ''} />
          <button type="submit">Save customer</button>
        </form>
        <SuccessNote message={saved ? 'Saved.' : null} />
        <ErrorNote message={error} />
        <ConfirmButton
          label="Delete customer"
          question="Delete this customer? Their orders stay."
          onConfirm={async () => {
            await deleteResource(`/v1/customers/${customerId}`);
            await navigate({ to: '/dashboard/customers' });
          }}
        />
      </Card>
    </>
  );
}
