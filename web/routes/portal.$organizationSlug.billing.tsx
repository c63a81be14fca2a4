import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { ErrorNote } from '../components';
import { prefetch } from '../loaders';
import { BillingDetailsForm } from '../portal/billing-form';
import { portalMeQuery } from '../portal/queries';
import { readPortalToken } from '../portal/session';

export const Route = createFileRoute('/portal/$organizationSlug/billing')({
  loader: ({ context: { queryClient }, params: { organizationSlug } }) => {
    if (readPortalToken(organizationSlug)) prefetch(queryClient, portalMeQuery(organizationSlug));
  },
  component: BillingPage,
});

function BillingPage() {
  const { organizationSlug: slug } = Route.useParams();
  const me = useQuery(portalMeQuery(slug));
  return (
    <>
      <h1>Billing details</h1>
      <p className="muted">Used on your invoices and for taxes on your next payments.</p>
      <ErrorNote message={me.error?.message ?? null} />
      {me.data ? (
        <BillingDetailsForm key={me.data.id} slug={slug} customer={me.data} />
      ) : me.isPending ? (
        <p role="status">Loading your details…</p>
      ) : null}
    </>
  );
}
