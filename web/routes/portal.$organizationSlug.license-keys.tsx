import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { ErrorNote } from '../components';
import { prefetch } from '../loaders';
import { LicenseKeyItem } from '../portal/license-keys';
import { portalBenefitGrantsQuery, portalLicenseKeysQuery } from '../portal/queries';
import { readPortalToken } from '../portal/session';

export const Route = createFileRoute('/portal/$organizationSlug/license-keys')({
  loader: ({ context: { queryClient }, params: { organizationSlug } }) => {
    if (!readPortalToken(organizationSlug)) return;
    prefetch(queryClient, portalLicenseKeysQuery(organizationSlug));
    prefetch(queryClient, portalBenefitGrantsQuery(organizationSlug));
  },
  component: LicenseKeysPage,
});

function LicenseKeysPage() {
  const { organizationSlug: slug } = Route.useParams();
  const keys = useQuery(portalLicenseKeysQuery(slug));
  // A key's heading is the benefit it comes with ("App license"), when the grants say which.
  const grants = useQuery(portalBenefitGrantsQuery(slug));
  const benefitName = (benefitId: string) =>
    grants.data?.items.find((grant) => grant.benefit_id === benefitId)?.benefit.description ?? 'License key';
  const items = keys.data?.items;
  return (
    <>
      <h1>License keys</h1>
      <ErrorNote message={keys.error?.message ?? null} />
      {keys.isPending ? <p role="status">Loading your license keys…</p> : null}
      {items?.length === 0 ? <p className="muted">No license keys yet.</p> : null}
      {items && items.length > 0 ? (
        <ul className="portal-list">
          {items.map((licenseKey) => (
            <LicenseKeyItem
              key={licenseKey.id}
              slug={slug}
              licenseKey={licenseKey}
              name={benefitName(licenseKey.benefit_id)}
            />
          ))}
        </ul>
      ) : null}
    </>
  );
}
