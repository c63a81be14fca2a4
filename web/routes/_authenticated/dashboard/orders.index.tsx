import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import { ORDER_STATUSES } from '../../../../domain/orders/schemas';
import { formatMoney } from '../../../money/format';
import { formatDateTime, Pager, Truncated } from '../../../components';
import { prefetch } from '../../../loaders';
import { ordersExportUrl, ordersQuery, type OrderFilters } from '../../../orders/queries';
import { OrderNumberLink } from '../../../orders/order-number-link';
import { ORDER_STATUS_LABELS, OrderStatusBadge } from '../../../orders/status';
import { ResourceCard, ResourceTable } from '../../../resources/resource-page';
import { countOf, endOfDay, startOfDay } from '../../../sales/format';
import { EmptyHint, ListSummary, SalesFilterBar, sortHeadersOf } from '../../../sales/list-controls';
import { PageTitle } from '../../../shell/page-title';

const SORTINGS = [
  'created_at',
  '-created_at',
  'amount',
  '-amount',
  'customer',
  '-customer',
  'product',
  '-product',
] as const;
const isoDay = z.iso.date();

export const Route = createFileRoute('/_authenticated/dashboard/orders/')({
  validateSearch: z.object({
    page: z.coerce.number().int().min(1).optional().catch(undefined),
    status: z.enum(ORDER_STATUSES).optional().catch(undefined),
    q: z.string().max(256).optional().catch(undefined),
    product: z.uuid().optional().catch(undefined),
    from: isoDay.optional().catch(undefined),
    to: isoDay.optional().catch(undefined),
    sort: z.enum(SORTINGS).optional().catch(undefined),
  }),
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient, organizationId }, deps }) => {
    if (organizationId) prefetch(queryClient, ordersQuery(organizationId, deps.page ?? 1, filtersOf(deps)));
  },
  component: OrdersPage,
});

type Search = ReturnType<typeof Route.useSearch>;

function filtersOf(search: Search): OrderFilters {
  return {
    status: search.status,
    query: search.q?.trim() || undefined,
    productId: search.product,
    createdAfter: search.from ? startOfDay(search.from) : undefined,
    createdBefore: search.to ? endOfDay(search.to) : undefined,
    sorting: search.sort,
  };
}

function OrdersPage() {
  return (
    <>
      <PageTitle title="Orders" />
      <OrdersPageContent />
    </>
  );
}

function OrdersPageContent() {
  const { organizationId } = Route.useRouteContext();
  if (!organizationId) return <p>Choose an organization to see its orders.</p>;
  return <Orders organizationId={organizationId} />;
}

function Orders({ organizationId }: { organizationId: string }) {
  const search = Route.useSearch();
  const page = search.page ?? 1;
  const filters = filtersOf(search);
  const navigate = useNavigate({ from: Route.fullPath });
  // The rows stay while the next filter's arrive, instead of the table emptying at each keystroke.
  const orders = useQuery({
    ...ordersQuery(organizationId, page, filters),
    placeholderData: keepPreviousData,
  });
  // A changed filter starts again on the first page; replacing the entry keeps typing out of history.
  const refine = (change: Partial<Search>) =>
    void navigate({ search: (previous) => ({ ...previous, ...change, page: undefined }), replace: true });
  const sortHeader = sortHeadersOf(search.sort ?? '-created_at', (next) =>
    refine({ sort: next as Search['sort'] }),
  );
  const isFiltered = Boolean(search.status || search.q || search.product || search.from || search.to);
  const total = orders.data?.pagination.total_count;
  return (
    <ResourceCard
      title="Orders"
      toolbar={
        <>
          <SalesFilterBar
            label="Filter orders"
            organizationId={organizationId}
            searchPlaceholder="Customer email or name, product"
            search={search}
            statuses={ORDER_STATUSES}
            statusLabels={ORDER_STATUS_LABELS}
            isFiltered={isFiltered}
            onRefine={refine}
            onClear={() => void navigate({ search: { sort: search.sort }, replace: true })}
          >
            <label className="field">
              <span>From</span>
              <input
                type="date"
                value={search.from ?? ''}
                onChange={(event) => refine({ from: event.target.value || undefined })}
              />
            </label>
            <label className="field">
              <span>To</span>
              <input
                type="date"
                value={search.to ?? ''}
                onChange={(event) => refine({ to: event.target.value || undefined })}
              />
            </label>
          </SalesFilterBar>
          <ListSummary
            count={total === undefined ? null : countOf(total, 'order')}
            exportUrl={ordersExportUrl(organizationId, filters)}
            exportLabel="Export CSV"
          />
        </>
      }
      error={orders.error?.message ?? null}
      items={orders.data?.items}
      footer={
        <Pager
          page={page}
          maxPage={orders.data?.pagination.max_page ?? 1}
          onPage={(next) => void navigate({ search: (previous) => ({ ...previous, page: next }) })}
        />
      }
    >
      {orders.data?.items.length === 0 ? (
        <EmptyHint>
          {isFiltered ? (
            'No orders match these filters.'
          ) : (
            <>
              No orders yet. <Link to="/dashboard/checkout-links">Share a checkout link</Link> to make your
              first sale.
            </>
          )}
        </EmptyHint>
      ) : null}
      <ResourceTable
        items={orders.data?.items}
        rowTestId="order-row"
        columns={[
          { header: 'Order', cell: (order) => <OrderNumberLink orderId={order.id} /> },
          {
            header: sortHeader('Created', 'created_at', 'desc'),
            className: 'nowrap',
            cell: (order) => formatDateTime(order.created_at),
          },
          { header: 'Status', cell: (order) => <OrderStatusBadge status={order.status} /> },
          {
            header: sortHeader('Customer', 'customer'),
            cell: (order) => <Truncated text={order.customer.email} />,
          },
          {
            header: sortHeader('Product', 'product'),
            cell: (order) => <Truncated text={order.description} />,
          },
          {
            header: sortHeader('Amount', 'amount', 'desc'),
            className: 'nowrap',
            testId: 'order-total',
            cell: (order) => formatMoney(order.total_amount, order.currency),
          },
        ]}
      />
    </ResourceCard>
  );
}
