import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { ErrorNote } from '../components';
import { prefetch } from '../loaders';
import { GrantItem } from '../portal/benefits';
import { takeLinkError } from '../portal/linked-accounts';
import { pageSearch, portalPageSearchSchema, PortalPager } from '../portal/paging';
import { portalBenefitGrantsQuery } from '../portal/queries';
import { readPortalToken } from '../portal/session';

export const Route = createFileRoute('/portal/$organizationSlug/benefits')({
  validateSearch: portalPageSearchSchema,
  loaderDeps: ({ search }) => ({ page: search.page ?? 1 }),
  loader: ({ context: { queryClient }, params: { organizationSlug }, deps: { page } }) => {
    if (readPortalToken(organizationSlug))
      prefetch(queryClient, portalBenefitGrantsQuery(organizationSlug, page));
  },
  component: BenefitsPage,
});

const LIST_ID = 'portal-benefits-list';

function BenefitsPage() {
  const { organizationSlug: slug } = Route.useParams();
  const page = Route.useSearch().page ?? 1;
  const navigate = Route.useNavigate();
  const grants = useQuery(portalBenefitGrantsQuery(slug, page));
  // Back from GitHub or Discord without a connection: why, once.
  const [linkError] = useState(takeLinkError);
  const items = grants.data?.items;
  return (
    <>
      <h1>Benefits</h1>
      <ErrorNote message={linkError} />
      <ErrorNote message={grants.error?.message ?? null} />
      {grants.isPending ? <p role="status">Loading your benefits…</p> : null}
      {items?.length === 0 && page === 1 ? <p className="muted">No benefits yet.</p> : null}
      {items && items.length > 0 ? (
        <ul id={LIST_ID} className="portal-list" tabIndex={-1} aria-label="Your benefits">
          {items.map((grant) => (
            <GrantItem key={grant.id} slug={slug} grant={grant} />
          ))}
        </ul>
      ) : null}
      <PortalPager
        page={page}
        maxPage={grants.data?.pagination.max_page ?? 1}
        listId={LIST_ID}
        onPage={(next) => void navigate({ search: pageSearch(next) })}
      />
    </>
  );
}
