import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { sandboxAuthenticationResultSchema } from '../../domain/payments/schemas';
import type { CheckoutPublic } from '../../domain/checkouts/schemas';
import { sendJson } from '../api';
import { formatMoney } from './money';
import { loadStripe } from './stripe';

/**
 * The card asked for 3-D Secure after the buyer confirmed. In live mode Stripe.js shows the card
 * issuer's challenge; in sandbox mode this page stands in for it with Stripe's two test buttons.
 * Either way the outcome reaches the server as a processor event, and the confirmation page,
 * which keeps polling, moves on when the checkout does.
 */
export function Authentication({
  checkout,
  clientSecret,
}: {
  checkout: CheckoutPublic;
  clientSecret: string;
}) {
  const publishableKey = checkout.payment_processor_metadata.publishable_key;
  return publishableKey ? (
    <StripeAuthentication publishableKey={publishableKey} clientSecret={clientSecret} />
  ) : (
    <SandboxAuthentication checkout={checkout} clientSecret={clientSecret} />
  );
}

function StripeAuthentication({
  publishableKey,
  clientSecret,
}: {
  publishableKey: string;
  clientSecret: string;
}) {
  const [error, setError] = useState<string | null>(null);
  // Once per payment: polling re-renders this page until the payment's event arrives.
  const started = useRef<string | null>(null);
  useEffect(() => {
    if (started.current === clientSecret) return;
    started.current = clientSecret;
    loadStripe(publishableKey)
      .then((stripe) => stripe.handleNextAction({ clientSecret }))
      .then((result) => setError(result.error?.message ?? null))
      .catch((failure: unknown) => setError((failure as Error).message));
  }, [publishableKey, clientSecret]);
  return (
    <section className="checkout-message" role="status" aria-live="polite">
      <h1>Confirm the payment with your bank</h1>
      {error ? (
        <p role="alert">{error}</p>
      ) : (
        <p>Your bank asks you to confirm this payment. Follow the steps in the window that opens.</p>
      )}
    </section>
  );
}

function SandboxAuthentication({
  checkout,
  clientSecret,
}: {
  checkout: CheckoutPublic;
  clientSecret: string;
}) {
  const answer = useMutation({
    mutationFn: (outcome: 'complete' | 'fail') =>
      sendJson(
        'POST',
        '/api/sandbox/payments/authenticate',
        { client_secret: clientSecret, outcome },
        sandboxAuthenticationResultSchema,
      ),
  });
  if (answer.data) {
    return (
      <section className="checkout-message" role="status" aria-live="polite">
        <h1>Processing your payment…</h1>
        <p>This page updates by itself once your bank’s answer arrives.</p>
      </section>
    );
  }
  return (
    <section className="checkout-message" aria-labelledby="authentication-heading">
      <h1 id="authentication-heading">3-D Secure test authentication</h1>
      <p>
        Your bank asks you to confirm a payment of{' '}
        <strong>{formatMoney(checkout.total_amount, checkout.currency)}</strong> to{' '}
        {checkout.organization.name}.
      </p>
      <p className="muted">Sandbox mode: this page stands in for the bank’s. No real card is involved.</p>
      {answer.error ? <p role="alert">{answer.error.message}</p> : null}
      <div className="button-row">
        <button type="button" disabled={answer.isPending} onClick={() => answer.mutate('complete')}>
          Complete authentication
        </button>
        <button
          type="button"
          className="secondary"
          disabled={answer.isPending}
          onClick={() => answer.mutate('fail')}
        >
          Fail authentication
        </button>
      </div>
    </section>
  );
}
