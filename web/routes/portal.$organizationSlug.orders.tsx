import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { ErrorNote } from '../components';
import { prefetch } from '../loaders';
import { OrderItem } from '../portal/orders';
import { portalOrdersQuery } from '../portal/queries';
import { readPortalToken } from '../portal/session';

export const Route = createFileRoute('/portal/$organizationSlug/orders')({
  loader: ({ context: { queryClient }, params: { organizationSlug } }) => {
    if (readPortalToken(organizationSlug)) prefetch(queryClient, portalOrdersQuery(organizationSlug));
  },
  component: OrdersPage,
});

function OrdersPage() {
  const { organizationSlug: slug } = Route.useParams();
  const orders = useQuery(portalOrdersQuery(slug));
  const items = orders.data?.items;
  return (
    <>
      <h1>Orders</h1>
      <ErrorNote message={orders.error?.message ?? null} />
      {orders.isPending ? <p role="status">Loading your orders…</p> : null}
      {items?.length === 0 ? <p className="muted">No orders yet.</p> : null}
      {items && items.length > 0 ? (
        <ul className="portal-list">
          {items.map((order) => (
            <OrderItem key={order.id} slug={slug} order={order} />
          ))}
        </ul>
      ) : null}
    </>
  );
}
