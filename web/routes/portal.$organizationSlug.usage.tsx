import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { ErrorNote } from '../components';
import { prefetch } from '../loaders';
import { formatUnits } from '../portal/format';
import { portalMetersQuery } from '../portal/queries';
import { readPortalToken } from '../portal/session';

export const Route = createFileRoute('/portal/$organizationSlug/usage')({
  loader: ({ context: { queryClient }, params: { organizationSlug } }) => {
    if (readPortalToken(organizationSlug)) prefetch(queryClient, portalMetersQuery(organizationSlug));
  },
  component: UsagePage,
});

function UsagePage() {
  const { organizationSlug: slug } = Route.useParams();
  const meters = useQuery(portalMetersQuery(slug));
  const items = meters.data?.items;
  return (
    <>
      <h1>Usage</h1>
      <ErrorNote message={meters.error?.message ?? null} />
      {meters.isPending ? <p role="status">Loading your usage…</p> : null}
      {items?.length === 0 ? <p className="muted">No usage yet.</p> : null}
      {items && items.length > 0 ? (
        <>
          <p className="muted">What you have used, the credits you received, and the balance that is left.</p>
          <ul className="portal-list">
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
    </>
  );
}
