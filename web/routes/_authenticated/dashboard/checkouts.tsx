import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import { CHECKOUT_STATUSES } from '../../../../domain/checkouts/schemas';
import { checkoutsExportUrl, checkoutsQuery, type CheckoutFilters } from '../../../checkouts/queries';
import { formatDateTime, Pager, Truncated } from '../../../components';
import { prefetch } from '../../../loaders';
import { CHECKOUT_STATUS_LABELS, CheckoutStatusBadge } from '../../../orders/status';
import { ResourceCard, ResourceTable } from '../../../resources/resource-page';
import { CHECKOUT_BUYER_COLUMNS } from '../../../sales/checkout-columns';
import { countOf } from '../../../sales/format';
import { EmptyHint, ListSummary, SalesFilterBar, sortHeadersOf } from '../../../sales/list-controls';
import { checkoutWorkflowId } from '../../../../domain/checkouts/rules';
import { WorkflowLink } from '../../../system/workflow-link';
import { PageTitle } from '../../../shell/page-title';

const SORTINGS = ['created_at', '-created_at', 'expires_at', '-expires_at', 'status', '-status'] as const;

export const Route = createFileRoute('/_authenticated/dashboard/checkouts')({
  validateSearch: z.object({
    page: z.coerce.number().int().min(1).optional().catch(undefined),
    status: z.enum(CHECKOUT_STATUSES).optional().catch(undefined),
    q: z.string().max(256).optional().catch(undefined),
    product: z.uuid().optional().catch(undefined),
    sort: z.enum(SORTINGS).optional().catch(undefined),
  }),
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient, organizationId }, deps }) => {
    if (organizationId)
      prefetch(queryClient, checkoutsQuery(organizationId, deps.page ?? 1, filtersOf(deps)));
  },
  component: CheckoutsPage,
});

type Search = ReturnType<typeof Route.useSearch>;

function filtersOf(search: Search): CheckoutFilters {
  return {
    status: search.status,
    query: search.q?.trim() || undefined,
    productId: search.product,
    sorting: search.sort,
  };
}

function CheckoutsPage() {
  return (
    <>
      <PageTitle title="Checkouts" />
      <CheckoutsPageContent />
    </>
  );
}

function CheckoutsPageContent() {
  const { organizationId } = Route.useRouteContext();
  if (!organizationId) return <p>Choose an organization to see its checkouts.</p>;
  return <Checkouts organizationId={organizationId} />;
}

function Checkouts({ organizationId }: { organizationId: string }) {
  const search = Route.useSearch();
  const page = search.page ?? 1;
  const filters = filtersOf(search);
  const navigate = useNavigate({ from: Route.fullPath });
  // The rows stay while the next filter's arrive, instead of the table emptying at each keystroke.
  const checkouts = useQuery({
    ...checkoutsQuery(organizationId, page, filters),
    placeholderData: keepPreviousData,
  });
  // A changed filter starts again on the first page; replacing the entry keeps typing out of history.
  const refine = (change: Partial<Search>) =>
    void navigate({ search: (previous) => ({ ...previous, ...change, page: undefined }), replace: true });
  const sortHeader = sortHeadersOf(search.sort ?? '-created_at', (next) =>
    refine({ sort: next as Search['sort'] }),
  );
  const isFiltered = Boolean(search.status || search.q || search.product);
  const total = checkouts.data?.pagination.total_count;
  return (
    <ResourceCard
      title="Checkouts"
      toolbar={
        <>
          <SalesFilterBar
            label="Filter checkouts"
            organizationId={organizationId}
            searchPlaceholder="Buyer's email or name"
            search={search}
            statuses={CHECKOUT_STATUSES}
            statusLabels={CHECKOUT_STATUS_LABELS}
            isFiltered={isFiltered}
            onRefine={refine}
            onClear={() => void navigate({ search: { sort: search.sort }, replace: true })}
          />
          <ListSummary
            count={total === undefined ? null : countOf(total, 'checkout')}
            exportUrl={checkoutsExportUrl(organizationId, filters)}
            exportLabel="Export CSV"
          />
        </>
      }
      error={checkouts.error?.message ?? null}
      items={checkouts.data?.items}
      footer={
        <Pager
          page={page}
          maxPage={checkouts.data?.pagination.max_page ?? 1}
          onPage={(next) => void navigate({ search: (previous) => ({ ...previous, page: next }) })}
        />
      }
    >
      {checkouts.data?.items.length === 0 ? (
        <EmptyHint>
          {isFiltered ? (
            'No checkouts match these filters.'
          ) : (
            <>
              No checkouts yet. A checkout opens when a buyer follows one of your{' '}
              <Link to="/dashboard/checkout-links">checkout links</Link>.
            </>
          )}
        </EmptyHint>
      ) : null}
      <ResourceTable
        items={checkouts.data?.items}
        rowTestId="checkout-row"
        columns={[
          {
            header: sortHeader('Created', 'created_at', 'desc'),
            className: 'nowrap',
            cell: (checkout) => formatDateTime(checkout.created_at),
          },
          {
            header: sortHeader('Status', 'status'),
            cell: (checkout) => <CheckoutStatusBadge status={checkout.status} />,
          },
          { header: 'Product', cell: (checkout) => <Truncated text={checkout.product.name} /> },
          ...CHECKOUT_BUYER_COLUMNS,
          {
            header: sortHeader('Expires', 'expires_at', 'desc'),
            className: 'nowrap',
            cell: (checkout) =>
              checkout.status === 'open' ? (
                <a href={checkout.url} target="_blank" rel="noreferrer">
                  {formatDateTime(checkout.expires_at)}
                </a>
              ) : (
                formatDateTime(checkout.expires_at)
              ),
          },
          {
            header: 'Workflow',
            cell: (checkout) => <WorkflowLink inTable workflowId={checkoutWorkflowId(checkout.id)} />,
          },
        ]}
      />
    </ResourceCard>
  );
}
