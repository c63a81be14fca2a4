import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Navigate } from '@tanstack/react-router';
import { Fragment, useEffect, useState } from 'react';
import { z } from 'zod';
import { ApiError } from '../api';
import { Authentication } from '../checkouts/authentication';
import { embedTarget, type EmbedTarget } from '../checkouts/embed';
import { resolveSuccessUrl } from '../checkouts/form';
import { formatMoney } from '../money/format';
import { CheckoutShell, CheckoutUnavailable, embedSearchSchema, useEmbedEventOnce } from '../checkouts/page';
import { clientCheckoutOrderQuery, clientCheckoutQuery } from '../checkouts/queries';
import type { CheckoutPublic } from '../../domain/checkouts/schemas';
import { checkoutInterval, describeCheckoutPlan, MeteredPrices, meteredPricesOf } from '../checkouts/plan';
import { checkoutPortalUrl } from '../portal/session';

export const Route = createFileRoute('/checkout/$clientSecret/confirmation')({
  validateSearch: z.object({ embed: embedSearchSchema }),
  component: ConfirmationPage,
});

/** The order is made by the checkout workflow once the processor reports the payment. */
const POLL_INTERVAL_MS = 1_000;
const SLOW_AFTER_MS = 30_000;
/** Long enough to read "Payment successful", short enough not to strand the buyer. */
const REDIRECT_DELAY_S = 3;

function ConfirmationPage() {
  const { clientSecret } = Route.useParams();
  const search = Route.useSearch();
  const checkout = useQuery({
    ...clientCheckoutQuery(clientSecret),
    refetchInterval: (query) => (query.state.data?.status === 'confirmed' ? POLL_INTERVAL_MS : false),
  });
  const embed = checkout.data ? embedTarget(search.embed === true, checkout.data.embed_origin) : null;
  useEmbedEventOnce(embed, checkout.data ? { event: 'loaded' } : null);

  if (checkout.error) return <CheckoutUnavailable error={checkout.error} />;
  if (!checkout.data) return <p role="status">Loading…</p>;
  switch (checkout.data.status) {
    case 'open':
    case 'failed':
      return (
        <Navigate
          to="/checkout/$clientSecret"
          params={{ clientSecret }}
          search={{
            embed: search.embed ? true : undefined,
            payment: checkout.data.status === 'failed' ? 'failed' : undefined,
          }}
          replace
        />
      );
    case 'expired':
      return <CheckoutUnavailable error={new ApiError(410, 'Checkout expired')} />;
    case 'confirmed': {
      // No close button while the payment settles: the embedding page must not drop the buyer now.
      const metadata = checkout.data.payment_processor_metadata;
      return (
        <CheckoutShell embed={null}>
          {metadata.intent_status === 'requires_action' && metadata.intent_client_secret ? (
            <Authentication checkout={checkout.data} clientSecret={metadata.intent_client_secret} />
          ) : (
            <Processing />
          )}
        </CheckoutShell>
      );
    }
    case 'succeeded':
      return (
        <CheckoutShell embed={embed}>
          <PaymentSuccess checkout={checkout.data} embed={embed} />
        </CheckoutShell>
      );
  }
}

function Processing() {
  const [isSlow, setSlow] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSlow(true), SLOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);
  return (
    <section className="checkout-message" role="status" aria-live="polite">
      <h1>Processing your payment…</h1>
      <p>This page updates by itself once your order is ready. Please keep it open.</p>
      {isSlow ? (
        <p className="muted">This is taking longer than usual; your bank may still be confirming.</p>
      ) : null}
    </section>
  );
}

/** The host a URL leads to, for "Taking you back to shop.example.com". */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function PaymentSuccess({ checkout, embed }: { checkout: CheckoutPublic; embed: EmbedTarget | null }) {
  const { url, isInternal } = resolveSuccessUrl(checkout);
  // In an embed the parent navigates (Polar's protocol); the frame never leaves the checkout.
  useEmbedEventOnce(embed, { event: 'success', successURL: url, redirect: !isInternal });
  const willRedirect = !isInternal && !embed;
  // Only in the browser that paid: the token came with its confirmation.
  const portalUrl = checkoutPortalUrl(checkout.client_secret, checkout.organization.slug);
  const [secondsLeft, setSecondsLeft] = useState(REDIRECT_DELAY_S);
  useEffect(() => {
    if (!willRedirect) return;
    if (secondsLeft <= 0) {
      window.location.assign(url);
      return;
    }
    const timer = setTimeout(() => setSecondsLeft((seconds) => seconds - 1), 1_000);
    return () => clearTimeout(timer);
  }, [willRedirect, secondsLeft, url]);

  return (
    <section className="checkout-message" aria-labelledby="confirmation-heading">
      <h1 id="confirmation-heading">
        {checkout.is_payment_required ? 'Payment successful' : 'Order confirmed'}
      </h1>
      <p>Thank you for your order from {checkout.organization.name}.</p>
      <OrderLines checkout={checkout} />
      <PlanTerms checkout={checkout} />
      {portalUrl ? (
        <p>
          Your receipt and invoice, license keys and files are in your{' '}
          <a
            href={portalUrl}
            // In an embed the portal opens beside the seller's page: it refuses to be framed.
            target={embed ? '_blank' : undefined}
            rel={embed ? 'noreferrer' : undefined}
            data-testid="portal-link"
          >
            purchases page
          </a>
          .
        </p>
      ) : (
        <p>
          {checkout.customer_email
            ? `A receipt is on its way to ${checkout.customer_email}, with a link to your purchases and invoice.`
            : 'A receipt is on its way by email, with a link to your purchases and invoice.'}
        </p>
      )}
      {willRedirect ? (
        <p role="status">
          Taking you back to {hostOf(url)} in {secondsLeft} s…{' '}
          <a href={url} className="button-link">
            Continue
          </a>
        </p>
      ) : null}
    </section>
  );
}

/**
 * What was bought, from the order the checkout made. The checkout's own amounts stand in while the
 * order loads (or if it cannot be read), so the buyer always sees what they paid.
 */
function OrderLines({ checkout }: { checkout: CheckoutPublic }) {
  const order = useQuery({ ...clientCheckoutOrderQuery(checkout.client_secret), retry: 2 });
  const money = (amount: number) => formatMoney(amount, checkout.currency);
  const lines = order.data?.items ?? [
    { label: checkout.product.name, amount: checkout.amount, tax_amount: 0 },
  ];
  return (
    <dl className="order-summary" data-testid="order-summary">
      {order.data ? (
        <>
          <dt>Order number</dt>
          <dd data-testid="order-number">{order.data.number}</dd>
        </>
      ) : null}
      {lines.map((line, index) => (
        <Fragment key={index}>
          <dt>{line.label}</dt>
          <dd>{money(line.amount)}</dd>
        </Fragment>
      ))}
      {checkout.discount_amount > 0 ? (
        <>
          <dt>Discount</dt>
          <dd>−{money(checkout.discount_amount)}</dd>
        </>
      ) : null}
      {checkout.tax_amount ? (
        <>
          <dt>Taxes</dt>
          <dd>{money(checkout.tax_amount)}</dd>
        </>
      ) : null}
      <dt>Total paid</dt>
      <dd data-testid="total-paid">{money(checkout.total_amount)}</dd>
      {checkout.customer_email ? (
        <>
          <dt>Email</dt>
          <dd>{checkout.customer_email}</dd>
        </>
      ) : null}
    </dl>
  );
}

/** What the plan just bought costs from here on, as its renewals will charge it. */
function PlanTerms({ checkout }: { checkout: CheckoutPublic }) {
  const plan = describeCheckoutPlan(checkout);
  const interval = checkoutInterval(checkout);
  if (!plan || !interval) return null;
  return (
    <>
      <p data-testid="plan-price">Your plan: {plan} until you cancel.</p>
      <MeteredPrices
        prices={meteredPricesOf(checkout.product)}
        interval={interval}
        count={checkout.product.recurring_interval_count ?? 1}
        meterInterval={checkout.product.meter_interval}
        meterIntervalCount={checkout.product.meter_interval_count}
      />
    </>
  );
}
