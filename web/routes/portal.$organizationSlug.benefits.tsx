import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { ErrorNote } from '../components';
import { prefetch } from '../loaders';
import { GrantItem } from '../portal/benefits';
import { portalBenefitGrantsQuery } from '../portal/queries';
import { readPortalToken } from '../portal/session';

export const Route = createFileRoute('/portal/$organizationSlug/benefits')({
  loader: ({ context: { queryClient }, params: { organizationSlug } }) => {
    if (readPortalToken(organizationSlug)) prefetch(queryClient, portalBenefitGrantsQuery(organizationSlug));
  },
  component: BenefitsPage,
});

function BenefitsPage() {
  const { organizationSlug: slug } = Route.useParams();
  const grants = useQuery(portalBenefitGrantsQuery(slug));
  const items = grants.data?.items;
  return (
    <>
      <h1>Benefits</h1>
      <ErrorNote message={grants.error?.message ?? null} />
      {grants.isPending ? <p role="status">Loading your benefits…</p> : null}
      {items?.length === 0 ? <p className="muted">No benefits yet.</p> : null}
      {items && items.length > 0 ? (
        <ul className="portal-list">
          {items.map((grant) => (
            <GrantItem key={grant.id} slug={slug} grant={grant} />
          ))}
        </ul>
      ) : null}
    </>
  );
}
