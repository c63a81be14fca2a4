import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { ErrorNote } from '../components';
import { prefetch } from '../loaders';
import { formatUnits } from '../portal/format';
import { pageSearch, portalPageSearchSchema, PortalPager } from '../portal/paging';
import { portalMetersQuery } from '../portal/queries';
import { readPortalToken } from '../portal/session';

export const Route = createFileRoute('/portal/$organizationSlug/usage')({
  validateSearch: portalPageSearchSchema,
  loaderDeps: ({ search }) => ({ page: search.page ?? 1 }),
  loader: ({ context: { queryClient }, params: { organizationSlug }, deps: { page } }) => {
    if (readPortalToken(organizationSlug)) prefetch(queryClient, portalMetersQuery(organizationSlug, page));
  },
  component: UsagePage,
});

const LIST_ID = 'portal-usage-list';

function UsagePage() {
  const { organizationSlug: slug } = Route.useParams();
  const page = Route.useSearch().page ?? 1;
  const navigate = Route.useNavigate();
  const meters = useQuery(portalMetersQuery(slug, page));
  const items = meters.data?.items;
  return (
    <>
      <h1>Usage</h1>
      <ErrorNote message={meters.error?.message ?? null} />
      {meters.isPending ? <p role="status">Loading your usage…</p> : null}
      {items?.length === 0 && page === 1 ? <p className="muted">No usage yet.</p> : null}
      {items && items.length > 0 ? (
        <>
          <p className="muted">What you have used, the credits you received, and the balance that is left.</p>
          <ul id={LIST_ID} className="portal-list" tabIndex={-1} aria-label="Your usage">
            {items.map((meter) => (
              <li key={meter.id} className="portal-item" data-testid="portal-meter">
                <h3 className="wrap">{meter.meter.name}</h3>
                <dl className="portal-facts">
                  <dt>Used</dt>
                  <dd data-testid="meter-consumed">{formatUnits(meter.consumed_units)}</dd>
                  <dt>Credits</dt>
                  <dd data-testid="meter-credited">{formatUnits(meter.credited_units)}</dd>
                  <dt>Balance</dt>
                  <dd data-testid="meter-balance">{formatUnits(meter.balance)}</dd>
                </dl>
              </li>
            ))}
          </ul>
        </>
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
