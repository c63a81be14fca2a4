import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { ErrorNote } from '../components';
import { prefetch } from '../loaders';
import { portalMeQuery, portalOrganizationQuery, portalSubscriptionsQuery } from '../portal/queries';
import { readPortalToken } from '../portal/session';
import { NoSubscriptions, SubscriptionCard } from '../portal/subscriptions';

export const Route = createFileRoute('/portal/$organizationSlug/')({
  loader: ({ context: { queryClient }, params: { organizationSlug } }) => {
    if (!readPortalToken(organizationSlug)) return;
    prefetch(queryClient, portalSubscriptionsQuery(organizationSlug));
    prefetch(queryClient, portalMeQuery(organizationSlug));
  },
  component: OverviewPage,
});

function OverviewPage() {
  const { organizationSlug: slug } = Route.useParams();
  const me = useQuery(portalMeQuery(slug));
  const organization = useQuery(portalOrganizationQuery(slug));
  const subscriptions = useQuery(portalSubscriptionsQuery(slug));
  const items = subscriptions.data?.items;
  return (
    <>
      <h1>Your purchases</h1>
      {me.data ? (
        <p className="muted wrap" data-testid="signed-in-as">
          Signed in as {me.data.email}
        </p>
      ) : null}
      <section className="portal-section" aria-labelledby="subscriptions-heading">
        <h2 id="subscriptions-heading">Subscriptions</h2>
        <ErrorNote message={subscriptions.error?.message ?? null} />
        {subscriptions.isPending ? <p role="status">Loading your subscriptions…</p> : null}
        {items?.length === 0 ? <NoSubscriptions slug={slug} /> : null}
        {items && organization.data
          ? items.map((subscription) => (
              <SubscriptionCard
                key={subscription.id}
                slug={slug}
                subscription={subscription}
                seller={organization.data.organization}
                products={organization.data.products}
              />
            ))
          : null}
      </section>
    </>
  );
}
