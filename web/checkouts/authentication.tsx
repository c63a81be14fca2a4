import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { sandboxAuthenticationResultSchema } from '../../domain/payments/schemas';
import type { CheckoutPublic } from '../../domain/checkouts/schemas';
import { sendJson } from '../api';
import { formatMoney } from '../money/format';
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
  return (
    <SandboxChallenge
      clientSecret={clientSecret}
      amount={formatMoney(checkout.total_amount, checkout.currency)}
      payee={checkout.organization.name}
      heading="h1"
    />
  );
}

/**
 * Sandbox mode's stand-in for the bank's 3-D Secure page, with Stripe's two test answers: the
 * checkout's, and the customer portal's when the buyer confirms a payment of their plan. Once
 * answered it says the payment is being processed; `onAnswered` lets the page move on.
 */
export function SandboxChallenge(props: {
  clientSecret: string;
  /** The amount as the buyer reads it ("$15.00"). */
  amount: string;
  payee: string;
  heading: 'h1' | 'h2';
  onAnswered?: () => void;
}) {
  const Heading = props.heading;
  const headingId = useId();
  const answer = useMutation({
    mutationFn: (outcome: 'complete' | 'fail') =>
      sendJson(
        'POST',
        '/api/sandbox/payments/authenticate',
        { client_secret: props.clientSecret, outcome },
        sandboxAuthenticationResultSchema,
      ),
    onSuccess: () => props.onAnswered?.(),
  });
  if (answer.data) {
    return (
      <section className="checkout-message" role="status" aria-live="polite">
        <Heading>Processing your payment…</Heading>
        <p>This page updates by itself once your bank’s answer arrives.</p>
      </section>
    );
  }
  return (
    <section className="checkout-message" aria-labelledby={headingId}>
      <Heading id={headingId}>3-D Secure test authentication</Heading>
      <p>
        Your bank asks you to confirm a payment of <strong>{props.amount}</strong> to {props.payee}.
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
