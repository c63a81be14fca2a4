import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { ErrorNote } from '../components';
import { prefetch } from '../loaders';
import { OrderItem } from '../portal/orders';
import { pageSearch, portalPageSearchSchema, PortalPager } from '../portal/paging';
import { portalOrdersQuery } from '../portal/queries';
import { readPortalToken } from '../portal/session';

export const Route = createFileRoute('/portal/$organizationSlug/orders')({
  validateSearch: portalPageSearchSchema,
  loaderDeps: ({ search }) => ({ page: search.page ?? 1 }),
  loader: ({ context: { queryClient }, params: { organizationSlug }, deps: { page } }) => {
    if (readPortalToken(organizationSlug)) prefetch(queryClient, portalOrdersQuery(organizationSlug, page));
  },
  component: OrdersPage,
});

const LIST_ID = 'portal-orders-list';

function OrdersPage() {
  const { organizationSlug: slug } = Route.useParams();
  const page = Route.useSearch().page ?? 1;
  const navigate = Route.useNavigate();
  const orders = useQuery(portalOrdersQuery(slug, page));
  const items = orders.data?.items;
  return (
    <>
      <h1>Orders</h1>
      <ErrorNote message={orders.error?.message ?? null} />
      {orders.isPending ? <p role="status">Loading your orders…</p> : null}
      {items?.length === 0 && page === 1 ? <p className="muted">No orders yet.</p> : null}
      {items && items.length > 0 ? (
        <ul id={LIST_ID} className="portal-list" tabIndex={-1} aria-label="Your orders">
          {items.map((order) => (
            <OrderItem key={order.id} slug={slug} order={order} />
          ))}
        </ul>
      ) : null}
      <PortalPager
        page={page}
        maxPage={orders.data?.pagination.max_page ?? 1}
        listId={LIST_ID}
        onPage={(next) => void navigate({ search: pageSearch(next) })}
      />
    </>
  );
}
