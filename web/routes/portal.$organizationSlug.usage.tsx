import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { ErrorNote } from '../components';
import { prefetch } from '../loaders';
import { formatUnits } from '../portal/format';
import { pageSearch, portalPageSearchSchema, PortalPager } from '../portal/paging';
import { portalMetersQuery, portalRenewingSubscriptionsQuery } from '../portal/queries';
import { readPortalToken } from '../portal/session';
import { MeteredPlanUsage, useMeteredPlans } from '../portal/usage';

export const Route = createFileRoute('/portal/$organizationSlug/usage')({
  validateSearch: portalPageSearchSchema,
  loaderDeps: ({ search }) => ({ page: search.page ?? 1 }),
  loader: ({ context: { queryClient }, params: { organizationSlug }, deps: { page } }) => {
    if (readPortalToken(organizationSlug)) {
      prefetch(queryClient, portalRenewingSubscriptionsQuery(organizationSlug));
      prefetch(queryClient, portalMetersQuery(organizationSlug, page));
    }
  },
  component: UsagePage,
});

const LIST_ID = 'portal-usage-list';

/**
 * The plans billed by usage first (this period in money, and the next invoice), then the meters
 * the buyer holds credits on. A meter without credits has no balance worth showing: its usage is
 * either billed by a plan above or not billed at all.
 */
function UsagePage() {
  const { organizationSlug: slug } = Route.useParams();
  const page = Route.useSearch().page ?? 1;
  const navigate = Route.useNavigate();
  const plans = useMeteredPlans(slug);
  const meters = useQuery(portalMetersQuery(slug, page));
  const credited = meters.data?.items.filter((meter) => meter.credited_units > 0);
  const isLoading = plans.isPending || meters.isPending;
  return (
    <>
      <h1>Usage</h1>
      <ErrorNote message={plans.error?.message ?? meters.error?.message ?? null} />
      {isLoading ? <p role="status">Loading your usage…</p> : null}
      {!isLoading && plans.data?.length === 0 && credited?.length === 0 && page === 1 ? (
        <p className="muted">No usage yet.</p>
      ) : null}
      {plans.data?.map((subscription) => (
        <MeteredPlanUsage key={subscription.id} slug={slug} subscription={subscription} />
      ))}
      {credited && credited.length > 0 ? (
        <section className="portal-section" aria-labelledby="portal-credits-heading">
          <h2 id="portal-credits-heading">Credit balances</h2>
          <p className="muted">The units you were credited, what you used of them since, and what is left.</p>
          <ul id={LIST_ID} className="portal-list" tabIndex={-1} aria-label="Your credit balances">
            {credited.map((meter) => (
              <li key={meter.id} className="portal-item" data-testid="portal-meter">
                <h3 className="wrap">{meter.meter.name}</h3>
                <dl className="portal-facts">
                  <dt>Credits</dt>
                  <dd data-testid="meter-credited">{formatUnits(meter.credited_units)}</dd>
                  <dt>Used</dt>
                  <dd data-testid="meter-consumed">{formatUnits(meter.consumed_units)}</dd>
                  <dt>Left</dt>
                  <dd data-testid="meter-balance">{formatUnits(Math.max(meter.balance, 0))}</dd>
                </dl>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <PortalPager
        page={page}
        maxPage={meters.data?.pagination.max_page ?? 1}
        listId={LIST_ID}
        onPage={(next) => void navigate({ search: pageSearch(next) })}
      />
    </>
  );
}
