import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { ErrorNote } from '../components';
import { prefetch } from '../loaders';
import { BillingDetailsForm } from '../portal/billing-form';
import { EmailAddressSection } from '../portal/email-address';
import { pageSearch, portalPageSearchSchema } from '../portal/paging';
import { CardsSection, type CardEntry } from '../portal/payment-methods';
import { portalMeQuery, portalPaymentMethodsQuery } from '../portal/queries';
import { readPortalToken } from '../portal/session';
import type { PublicSettings } from '../../domain/system/schemas';
import { settingsQuery } from '../system/queries';

export const Route = createFileRoute('/portal/$organizationSlug/billing')({
  validateSearch: portalPageSearchSchema,
  loaderDeps: ({ search }) => ({ page: search.page ?? 1 }),
  loader: ({ context: { queryClient }, params: { organizationSlug }, deps: { page } }) => {
    prefetch(queryClient, settingsQuery);
    if (!readPortalToken(organizationSlug)) return;
    prefetch(queryClient, portalPaymentMethodsQuery(organizationSlug, page));
    prefetch(queryClient, portalMeQuery(organizationSlug));
  },
  component: BillingPage,
});

/**
 * Sandbox servers take Stripe's test numbers. Stripe's publishable key reaches the browser only
 * inside a checkout (its processor metadata): no answer the portal reads carries it, so a live
 * server shows a note in place of Stripe's card form.
 */
function cardEntryOf(settings: PublicSettings): CardEntry {
  return settings.mode === 'sandbox'
    ? { mode: settings.mode }
    : { mode: settings.mode, publishableKey: settings.stripe_publishable_key };
}

function BillingPage() {
  const { organizationSlug: slug } = Route.useParams();
  const page = Route.useSearch().page ?? 1;
  const navigate = Route.useNavigate();
  const me = useQuery(portalMeQuery(slug));
  const settings = useQuery(settingsQuery);
  return (
    <>
      <h1>Billing</h1>
      <ErrorNote message={settings.error?.message ?? null} />
      {settings.data ? (
        <CardsSection
          slug={slug}
          entry={cardEntryOf(settings.data)}
          page={page}
          onPage={(next) => void navigate({ search: pageSearch(next) })}
        />
      ) : null}
      {me.data ? <EmailAddressSection key={me.data.email} slug={slug} customer={me.data} /> : null}
      <section className="portal-section" aria-labelledby="billing-details-heading">
        <h2 id="billing-details-heading">Billing details</h2>
        <p className="muted">Used on your invoices and for taxes on your next payments.</p>
        <ErrorNote message={me.error?.message ?? null} />
        {me.data ? (
          <BillingDetailsForm key={me.data.id} slug={slug} customer={me.data} />
        ) : me.isPending ? (
          <p role="status">Loading your details…</p>
        ) : null}
      </section>
    </>
  );
}
