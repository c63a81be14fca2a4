import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { formatDateTime } from '../../../components';
import { customersQuery } from '../../../customers/queries';
import { prefetch } from '../../../loaders';
import { ResourceCard, ResourceTable } from '../../../resources/resource-page';
import { CustomerForm } from './-components/customer-form';

export const Route = createFileRoute('/_authenticated/dashboard/customers/')({
  loader: ({ context: { queryClient, organizationId } }) => {
    if (organizationId) prefetch(queryClient, customersQuery(organizationId, '', 1));
  },
  component: CustomersPage,
});

function CustomersPage() {
  const { organizationId } = Route.useRouteContext();
  if (!organizationId) return <p>Choose an organization to see its customers.</p>;
  return <Customers organizationId={organizationId} />;
}

function Customers({ organizationId }: { organizationId: string }) {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const customers = useQuery(customersQuery(organizationId, search, page));
  const maxPage = customers.data?.pagination.max_page ?? 1;
  return (
    <>
      <CustomerForm organizationId={organizationId} />
      <ResourceCard
        title="Customers"
        toolbar={
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
        }
        error={customers.error?.message ?? null}
        items={customers.data?.items}
        footer={
          <p className="muted">
            {customers.data?.pagination.total_count ?? 0} customers · page {page} of {Math.max(1, maxPage)}{' '}
            <button
              type="button"
              className="secondary"
              disabled={page <= 1}
              onClick={() => setPage(page - 1)}
            >
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
        }
      >
        <ResourceTable
          items={customers.data?.items}
          rowTestId="customer-row"
          columns={[
            {
              header: 'Email',
              cell: (customer) => (
                <Link to="/dashboard/customers/$customerId" params={{ customerId: customer.id }}>
                  {customer.email}
                </Link>
              ),
            },
            { header: 'Name', cell: (customer) => customer.name ?? '—' },
            { header: 'External ID', cell: (customer) => customer.external_id ?? '—' },
            { header: 'Created', cell: (customer) => formatDateTime(customer.created_at) },
          ]}
        />
      </ResourceCard>
    </>
  );
}
