import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import {
  customerOrderPaymentConfirmationSchema,
  customerOrderPaymentStatusSchema,
  type CustomerOrder,
} from '../../domain/customer-portal/schemas';
import { ApiError } from '../api';
import { SandboxChallenge } from '../checkouts/authentication';
import { formatMoney } from '../money/format';
import { loadStripe } from '../checkouts/stripe';
import { settingsQuery } from '../system/queries';
import { portalCall } from './api';
import { portalOrderQuery, refreshAfterSubscriptionChange } from './queries';

/** The payment's outcome reaches the server as the processor's event: asked for every second. */
const STATUS_POLL_MS = 1_000;
/** After this long without an answer the buyer is told it is still on its way. */
const SLOW_ANSWER_MS = 60_000;

type Step =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'bank'; clientSecret: string }
  | { kind: 'waiting'; since: number }
  | { kind: 'paid' }
  | { kind: 'failed'; message: string };

function failureOf(failure: unknown): string {
  if (failure instanceof ApiError) return failure.message;
  return 'We could not reach the server. Check your connection and try again.';
}

/**
 * Polls the order's payment status while the processor's answer is on its way: `succeeded` pays
 * it, `failed` says why; anything else keeps waiting.
 */
function usePaymentStatus(slug: string, orderId: string, step: Step, onEnd: (next: Step) => void) {
  const waiting = step.kind === 'waiting';
  const end = useRef(onEnd);
  end.current = onEnd;
  useEffect(() => {
    if (!waiting) return;
    let stopped = false;
    const timer = setInterval(() => {
      void portalCall(slug, 'GET', `/orders/${orderId}/payment-status`, customerOrderPaymentStatusSchema)
        .then((status) => {
          if (stopped) return;
          if (status.status === 'succeeded') end.current({ kind: 'paid' });
          if (status.status === 'failed') {
            end.current({ kind: 'failed', message: status.error ?? 'The payment did not go through.' });
          }
        })
        .catch(() => undefined);
    }, STATUS_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [slug, orderId, waiting]);
}

/** Live mode: Stripe.js opens the bank's challenge for the payment's (or card setup's) client secret. */
export function StripeChallenge(props: {
  publishableKey: string;
  clientSecret: string;
  onDone: (error: string | null) => void;
}) {
  const started = useRef<string | null>(null);
  const done = useRef(props.onDone);
  done.current = props.onDone;
  useEffect(() => {
    if (started.current === props.clientSecret) return;
    started.current = props.clientSecret;
    loadStripe(props.publishableKey)
      .then((stripe) => stripe.handleNextAction({ clientSecret: props.clientSecret }))
      .then((result) => done.current(result.error?.message ?? null))
      .catch((failure: unknown) => done.current((failure as Error).message));
  }, [props.publishableKey, props.clientSecret]);
  return (
    <p role="status">
      Your bank asks you to confirm this payment. Follow the steps in the window that opens.
    </p>
  );
}

/**
 * "Confirm your payment" for an order whose charge the buyer's bank wants them to authenticate
 * (3-D Secure): the server charges it with the buyer present, the bank's page runs here (the
 * sandbox's test page, or Stripe.js in live mode), and the order's payment status tells when it
 * went through. `autoStart` opens the bank's page at once (a plan change that just billed it).
 */
export function ConfirmOrderPayment(props: {
  slug: string;
  order: CustomerOrder;
  autoStart?: boolean;
  onPaid?: () => void;
}) {
  const { slug, order } = props;
  const queryClient = useQueryClient();
  const settings = useQuery(settingsQuery);
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const cardId = order.payment_confirmation?.payment_method_id ?? null;
  const amount = formatMoney(order.total_amount, order.currency);
  const started = useRef(false);

  usePaymentStatus(slug, order.id, step, (next) => {
    setStep(next);
    if (next.kind === 'paid') {
      void refreshAfterSubscriptionChange(queryClient, slug);
      props.onPaid?.();
    }
  });

  async function confirm() {
    if (!cardId || step.kind === 'sending' || step.kind === 'bank' || step.kind === 'waiting') return;
    setStep({ kind: 'sending' });
    try {
      const answer = await portalCall(
        slug,
        'POST',
        `/orders/${order.id}/confirm-payment`,
        customerOrderPaymentConfirmationSchema,
        { payment_method_id: cardId },
      );
      if (answer.status === 'requires_action' && answer.client_secret) {
        setStep({ kind: 'bank', clientSecret: answer.client_secret });
      } else if (answer.status === 'failed') {
        setStep({ kind: 'failed', message: answer.error ?? 'The payment did not go through.' });
      } else {
        setStep({ kind: 'waiting', since: Date.now() });
      }
    } catch (failure) {
      setStep({ kind: 'failed', message: failureOf(failure) });
    }
  }

  useEffect(() => {
    if (!props.autoStart || started.current) return;
    started.current = true;
    void confirm();
  });

  if (step.kind === 'paid') {
    return (
      <p className="success-note" role="status" data-testid="payment-confirmed">
        Your payment of {amount} went through. Thank you!
      </p>
    );
  }
  if (step.kind === 'bank') {
    const sandbox = settings.data?.mode === 'sandbox';
    const publishableKey = settings.data?.mode === 'live' ? settings.data.stripe_publishable_key : null;
    return (
      <div className="portal-confirm-payment" data-testid="bank-authentication">
        {sandbox ? (
          <SandboxChallenge
            clientSecret={step.clientSecret}
            amount={amount}
            payee={order.product.organization.name}
            heading="h2"
            onAnswered={() => setStep({ kind: 'waiting', since: Date.now() })}
          />
        ) : publishableKey ? (
          <StripeChallenge
            publishableKey={publishableKey}
            clientSecret={step.clientSecret}
            onDone={(error) =>
              setStep(error ? { kind: 'failed', message: error } : { kind: 'waiting', since: Date.now() })
            }
          />
        ) : settings.data ? (
          <p role="alert">
            Your bank’s page cannot open here: this store has no Stripe publishable key set. Contact the
            seller.
          </p>
        ) : (
          <p role="status">Opening your bank’s page…</p>
        )}
      </div>
    );
  }
  const isBusy = step.kind === 'sending' || step.kind === 'waiting';
  return (
    <div className="portal-confirm-payment stack">
      <div className="actions">
        {cardId ? (
          <button
            type="button"
            aria-disabled={isBusy}
            data-testid="confirm-payment"
            onClick={() => void confirm()}
          >
            {step.kind === 'sending' ? 'Contacting your bank…' : 'Confirm your payment'}
          </button>
        ) : null}
        <Link to="/portal/$organizationSlug/billing" params={{ organizationSlug: slug }}>
          Use another card
        </Link>
      </div>
      <p role="status" className="portal-banner-note" data-testid="confirm-payment-note">
        {step.kind === 'waiting'
          ? Date.now() - step.since > SLOW_ANSWER_MS
            ? 'Your bank has not answered yet. This page updates once it does.'
            : `Processing your payment of ${amount}…`
          : ''}
      </p>
      {step.kind === 'failed' ? (
        <p className="error-note" role="alert" data-testid="confirm-payment-error">
          {step.message} Try again, or use another card.
        </p>
      ) : null}
    </div>
  );
}

/** The same, for the order a subscription's banner names (read first, for its amount and card). */
export function ConfirmPlanPayment(props: {
  slug: string;
  orderId: string;
  autoStart?: boolean;
  onPaid?: () => void;
}) {
  const order = useQuery(portalOrderQuery(props.slug, props.orderId));
  if (order.error) return <p role="alert">{failureOf(order.error)}</p>;
  if (!order.data) return <p role="status">Loading your payment…</p>;
  return <ConfirmOrderPayment {...props} order={order.data} />;
}
