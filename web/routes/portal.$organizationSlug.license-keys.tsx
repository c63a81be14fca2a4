import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { ErrorNote } from '../components';
import { prefetch } from '../loaders';
import { LicenseKeyItem } from '../portal/license-keys';
import { pageSearch, portalPageSearchSchema, PortalPager } from '../portal/paging';
import { portalBenefitNamesQuery, portalLicenseKeysQuery } from '../portal/queries';
import { readPortalToken } from '../portal/session';

export const Route = createFileRoute('/portal/$organizationSlug/license-keys')({
  validateSearch: portalPageSearchSchema,
  loaderDeps: ({ search }) => ({ page: search.page ?? 1 }),
  loader: ({ context: { queryClient }, params: { organizationSlug }, deps: { page } }) => {
    if (!readPortalToken(organizationSlug)) return;
    prefetch(queryClient, portalLicenseKeysQuery(organizationSlug, page));
    prefetch(queryClient, portalBenefitNamesQuery(organizationSlug));
  },
  component: LicenseKeysPage,
});

const LIST_ID = 'portal-license-keys-list';

function LicenseKeysPage() {
  const { organizationSlug: slug } = Route.useParams();
  const page = Route.useSearch().page ?? 1;
  const navigate = Route.useNavigate();
  const keys = useQuery(portalLicenseKeysQuery(slug, page));
  // A key's heading is the benefit it comes with ("App license"), when the grants say which.
  const names = useQuery(portalBenefitNamesQuery(slug));
  const items = keys.data?.items;
  return (
    <>
      <h1>License keys</h1>
      <ErrorNote message={keys.error?.message ?? null} />
      {keys.isPending ? <p role="status">Loading your license keys…</p> : null}
      {items?.length === 0 && page === 1 ? <p className="muted">No license keys yet.</p> : null}
      {items && items.length > 0 ? (
        <ul id={LIST_ID} className="portal-list" tabIndex={-1} aria-label="Your license keys">
          {items.map((licenseKey) => (
            <LicenseKeyItem
              key={licenseKey.id}
              slug={slug}
              licenseKey={licenseKey}
              name={names.data?.get(licenseKey.benefit_id) ?? 'License key'}
            />
          ))}
        </ul>
      ) : null}
      <PortalPager
        page={page}
        maxPage={keys.data?.pagination.max_page ?? 1}
        listId={LIST_ID}
        onPage={(next) => void navigate({ search: pageSearch(next) })}
      />
    </>
  );
}
