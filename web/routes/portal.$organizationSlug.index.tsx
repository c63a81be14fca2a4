import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { ErrorNote } from '../components';
import { prefetch } from '../loaders';
import { pageSearch, portalPageSearchSchema, PortalPager } from '../portal/paging';
import {
  portalClaimedSeatsQuery,
  portalMeQuery,
  portalOrganizationQuery,
  portalSubscriptionsQuery,
} from '../portal/queries';
import { readPortalToken } from '../portal/session';
import { HeldSeats } from '../portal/held-seats';
import { NoSubscriptions, SubscriptionCard } from '../portal/subscriptions';

export const Route = createFileRoute('/portal/$organizationSlug/')({
  validateSearch: portalPageSearchSchema,
  loaderDeps: ({ search }) => ({ page: search.page ?? 1 }),
  loader: ({ context: { queryClient }, params: { organizationSlug }, deps: { page } }) => {
    if (!readPortalToken(organizationSlug)) return;
    prefetch(queryClient, portalSubscriptionsQuery(organizationSlug, page));
    prefetch(queryClient, portalMeQuery(organizationSlug));
    prefetch(queryClient, portalClaimedSeatsQuery(organizationSlug));
  },
  component: OverviewPage,
});

const LIST_ID = 'portal-subscriptions-list';

function OverviewPage() {
  const { organizationSlug: slug } = Route.useParams();
  const page = Route.useSearch().page ?? 1;
  const navigate = Route.useNavigate();
  const me = useQuery(portalMeQuery(slug));
  const organization = useQuery(portalOrganizationQuery(slug));
  const subscriptions = useQuery(portalSubscriptionsQuery(slug, page));
  const items = subscriptions.data?.items;
  return (
    <>
      <h1>Your purchases</h1>
      {me.data ? (
        <p className="muted wrap" data-testid="signed-in-as">
          Signed in as {me.data.email}
        </p>
      ) : null}
      <HeldSeats slug={slug} />
      <section id={LIST_ID} className="portal-section" aria-labelledby="subscriptions-heading" tabIndex={-1}>
        <h2 id="subscriptions-heading">Subscriptions</h2>
        <ErrorNote message={subscriptions.error?.message ?? null} />
        {subscriptions.isPending ? <p role="status">Loading your subscriptions…</p> : null}
        {items?.length === 0 && page === 1 ? <NoSubscriptions slug={slug} /> : null}
        {items && organization.data
          ? items.map((subscription) => (
              <SubscriptionCard
                key={subscription.id}
                slug={slug}
                subscription={subscription}
                products={organization.data.products}
              />
            ))
          : null}
        <PortalPager
          page={page}
          maxPage={subscriptions.data?.pagination.max_page ?? 1}
          listId={LIST_ID}
          onPage={(next) => void navigate({ search: pageSearch(next) })}
        />
      </section>
    </>
  );
}
