import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import { formatDateTime, Pager, Truncated } from '../../../components';
import { customersExportUrl, customersQuery } from '../../../customers/queries';
import { prefetch } from '../../../loaders';
import { ResourceCard, ResourceTable } from '../../../resources/resource-page';
import { countOf } from '../../../sales/format';
import { EmptyHint, FilterBar, ListSummary, SearchField, sortHeadersOf } from '../../../sales/list-controls';
import { CustomerForm } from './-components/customer-form';
import { PageTitle } from '../../../shell/page-title';

const SORTINGS = ['created_at', '-created_at', 'email', '-email', 'name', '-name'] as const;

export const Route = createFileRoute('/_authenticated/dashboard/customers/')({
  validateSearch: z.object({
    page: z.coerce.number().int().min(1).optional().catch(undefined),
    q: z.string().max(256).optional().catch(undefined),
    sort: z.enum(SORTINGS).optional().catch(undefined),
  }),
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient, organizationId }, deps }) => {
    if (organizationId) {
      prefetch(
        queryClient,
        customersQuery(organizationId, deps.q?.trim() ?? '', deps.page ?? 1, deps.sort ?? '-created_at'),
      );
    }
  },
  component: CustomersPage,
});

type Search = ReturnType<typeof Route.useSearch>;

function CustomersPage() {
  return (
    <>
      <PageTitle title="Customers" />
      <CustomersPageContent />
    </>
  );
}

function CustomersPageContent() {
  const { organizationId } = Route.useRouteContext();
  if (!organizationId) return <p>Choose an organization to see its customers.</p>;
  return <Customers organizationId={organizationId} />;
}

function Customers({ organizationId }: { organizationId: string }) {
  const search = Route.useSearch();
  const page = search.page ?? 1;
  const text = search.q?.trim() ?? '';
  const sorting = search.sort ?? '-created_at';
  const navigate = useNavigate({ from: Route.fullPath });
  // The rows stay while the next search's arrive, instead of the table emptying at each keystroke.
  const customers = useQuery({
    ...customersQuery(organizationId, text, page, sorting),
    placeholderData: keepPreviousData,
  });
  // A changed search starts again on the first page; replacing the entry keeps typing out of history.
  const refine = (change: Partial<Search>) =>
    void navigate({ search: (previous) => ({ ...previous, ...change, page: undefined }), replace: true });
  const sortHeader = sortHeadersOf(sorting, (next) => refine({ sort: next as Search['sort'] }));
  const total = customers.data?.pagination.total_count;
  return (
    <>
      <CustomerForm organizationId={organizationId} />
      <ResourceCard
        title="Customers"
        toolbar={
          <>
            <FilterBar label="Filter customers">
              <SearchField
                label="Search customers"
                value={search.q ?? ''}
                placeholder="Email, name or external ID"
                onSearch={(text) => refine({ q: text || undefined })}
              />
            </FilterBar>
            <ListSummary
              count={total === undefined ? null : countOf(total, 'customer')}
              exportUrl={customersExportUrl(organizationId, text, sorting)}
              exportLabel="Export CSV"
            />
          </>
        }
        error={customers.error?.message ?? null}
        items={customers.data?.items}
        footer={
          <Pager
            page={page}
            maxPage={customers.data?.pagination.max_page ?? 1}
            onPage={(next) => void navigate({ search: (previous) => ({ ...previous, page: next }) })}
          />
        }
      >
        {customers.data?.items.length === 0 ? (
          <EmptyHint>
            {text ? (
              'No customers match this search.'
            ) : (
              <>
                No customers yet. Buyers become customers when they pay; share a{' '}
                <Link to="/dashboard/checkout-links">checkout link</Link> or add one above.
              </>
            )}
          </EmptyHint>
        ) : null}
        <ResourceTable
          items={customers.data?.items}
          rowTestId="customer-row"
          columns={[
            {
              header: sortHeader('Email', 'email'),
              cell: (customer) => (
                <Link to="/dashboard/customers/$customerId" params={{ customerId: customer.id }}>
                  <Truncated text={customer.email} />
                </Link>
              ),
            },
            {
              header: sortHeader('Name', 'name'),
              cell: (customer) => (customer.name ? <Truncated text={customer.name} /> : '—'),
            },
            {
              header: 'External ID',
              cell: (customer) => (customer.external_id ? <Truncated text={customer.external_id} /> : '—'),
            },
            {
              header: sortHeader('Created', 'created_at', 'desc'),
              className: 'nowrap',
              cell: (customer) => formatDateTime(customer.created_at),
            },
          ]}
        />
      </ResourceCard>
    </>
  );
}
