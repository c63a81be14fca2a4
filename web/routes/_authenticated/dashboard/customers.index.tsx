import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { customerSchema } from '../../../../domain/customers/schemas';
import { listResourceSchema } from '../../../../domain/platform/schemas';
import { getJson, sendJson } from '../../../api';
import { authClient } from '../../../auth/client';
import { Card, ErrorNote, Field, formatDateTime, formValues } from '../../../components';

export const Route = createFileRoute('/_authenticated/dashboard/customers/')({ component: CustomersPage });

const customerListSchema = listResourceSchema(customerSchema);
const PAGE_SIZE = 20;

function CreateCustomer({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const { email = '', name, external_id: externalId } = formValues(form);
    try {
      await sendJson(
        'POST',
        '/v1/customers/',
        { organization_id: organizationId, email, name: name || null, external_id: externalId || null },
        customerSchema,
      );
      setError(null);
      form.reset();
      await queryClient.invalidateQueries({ queryKey: ['customers', organizationId] });
    } catch (failure) {
      setError((failure as Error).message);
    }
  }
  return (
    <Card title="Add a customer">
      <form onSubmit={onSubmit} className="inline-form" noValidate>
        <Field label="Customer email" name="email" type="email" />
        <Field label="Customer name" name="name" required={false} />
        <Field label="External ID" name="external_id" required={false} />
        <button type="submit">Add customer</button>
      </form>
      <ErrorNote message={error} />
    </Card>
  );
}

function CustomersPage() {
  const active = authClient.useActiveOrganization();
  const organizationId = active.data?.id;
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const customers = useQuery({
    queryKey: ['customers', organizationId, search, page],
    enabled: Boolean(organizationId),
    queryFn: () => {
      const query = new URLSearchParams({
        organization_id: organizationId!,
        page: String(page),
        limit: String(PAGE_SIZE),
      });
      if (search) query.set('query', search);
      return getJson(`/v1/customers/?${query.toString()}`, customerListSchema);
    },
  });
  if (!organizationId) return <p>Choose an organization to see its customers.</p>;
  const maxPage = customers.data?.pagination.max_page ?? 1;
  return (
    <>
      <CreateCustomer organizationId={organizationId} />
      <Card title="Customers">
        <label className="field">
          <span>Search customers</span>
          <input
            type="search"
            value={search}
            placeholder="Email, name or external ID"
            onChange={(event) => {
              setSearch(event.target.value);
              setPage(1);
            }}
          />
        </label>
        <ErrorNote message={customers.error?.message ?? null} />
        <table className="data-table">
          <thead>
            <tr>
              <th>Email</th>
              <th>Name</th>
              <th>External ID</th>
              <th>Created</th>
            </tr>
          </thead>
          <tbody>
            {(customers.data?.items ?? []).map((customer) => (
              <tr key={customer.id} data-testid="customer-row">
                <td>
                  <Link to="/dashboard/customers/$customerId" params={{ customerId: customer.id }}>
                    {customer.email}
                  </Link>
                </td>
                <td>{customer.name ?? '—'}</td>
                <td>{customer.external_id ?? '—'}</td>
                <td>{formatDateTime(customer.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="muted">
          {customers.data?.pagination.total_count ?? 0} customers · page {page} of {Math.max(1, maxPage)}{' '}
          <button type="button" className="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </button>{' '}
          <button
            type="button"
            className="secondary"
            disabled={page >= maxPage}
            onClick={() => setPage(page + 1)}
          >
            Next
          </button>
        </p>
      </Card>
    </>
  );
}
