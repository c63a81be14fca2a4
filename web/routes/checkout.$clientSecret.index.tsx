import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Navigate } from '@tanstack/react-router';
import { z } from 'zod';
import { ApiError } from '../api';
import { CheckoutForm, DECLINED_NOTICE } from '../checkouts/checkout-form';
import { embedTarget } from '../checkouts/embed';
import { CheckoutShell, CheckoutUnavailable, embedSearchSchema, useEmbedEventOnce } from '../checkouts/page';
import { clientCheckoutQuery } from '../checkouts/queries';
import { ProductSummary } from '../checkouts/summary';
import { settingsQuery } from '../system/queries';

const searchSchema = z.object({
  embed: embedSearchSchema,
  /** Set by the confirmation page when the payment failed after the buyer confirmed. */
  payment: z.enum(['failed']).optional().catch(undefined),
});

export const Route = createFileRoute('/checkout/$clientSecret/')({
  validateSearch: searchSchema,
  component: CheckoutPage,
});

function CheckoutPage() {
  const { clientSecret } = Route.useParams();
  const search = Route.useSearch();
  const checkout = useQuery(clientCheckoutQuery(clientSecret));
  const settings = useQuery(settingsQuery);
  const embed = checkout.data ? embedTarget(search.embed === true, checkout.data.embed_origin) : null;
  useEmbedEventOnce(embed, checkout.data ? { event: 'loaded' } : null);

  if (checkout.error) return <CheckoutUnavailable error={checkout.error} />;
  if (!checkout.data || !settings.data) return <p role="status">Loading checkout…</p>;
  const { status } = checkout.data;
  if (status === 'confirmed' || status === 'succeeded') {
    return (
      <Navigate
        to="/checkout/$clientSecret/confirmation"
        params={{ clientSecret }}
        search={search.embed ? { embed: true } : {}}
        replace
      />
    );
  }
  if (status === 'expired') return <CheckoutUnavailable error={new ApiError(410, 'Checkout expired')} />;
  return (
    <CheckoutShell embed={embed}>
      <div className="checkout-layout">
        <section className="checkout-summary" aria-label="Order summary">
          {/* The seller's page the buyer came from (return_url); an embed has its page around it. */}
          {checkout.data.return_url && !embed ? (
            <p>
              <a href={checkout.data.return_url}>← Back to {checkout.data.organization.name}</a>
            </p>
          ) : null}
          <ProductSummary checkout={checkout.data} />
        </section>
        <section className="checkout-main" aria-label="Checkout">
          <CheckoutForm
            checkout={checkout.data}
            mode={settings.data.mode}
            embed={embed}
            notice={
              status === 'failed'
                ? (checkout.data.payment_processor_metadata.failure_reason ?? DECLINED_NOTICE)
                : search.payment === 'failed'
                  ? DECLINED_NOTICE
                  : null
            }
          />
        </section>
      </div>
    </CheckoutShell>
  );
}
