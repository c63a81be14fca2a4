import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState, type FocusEvent } from 'react';
import { customerSubscriptionSchema, type CustomerSubscription } from '../../domain/customer-portal/schemas';
import { ApiError } from '../api';
import { portalCall } from './api';
import { ConfirmPlanPayment } from './payment-confirmation';
import { refreshAfterSubscriptionChange, showPortalSubscription } from './queries';

/**
 * How long the card waits for the charge "Retry now" asked for: the subscription's workflow tries
 * the card within seconds, and the list refreshes itself meanwhile (queries.ts, past_due).
 */
const RETRY_WAIT_MS = 30_000;

type Retry =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'trying' }
  | { kind: 'paid' }
  | { kind: 'not-yet' }
  | { kind: 'refused'; message: string };

function refusal(failure: unknown): string {
  // 429 says when the card was tried and when it may be tried again; 409 that nothing is owed.
  if (failure instanceof ApiError) return failure.message;
  return 'We could not reach the server. Check your connection and try again.';
}

/**
 * A renewal that failed: what is owed, "Retry now" (the card is tried again at once, at most once
 * an hour) and the way to another card. Once the plan is paid (by the retry, a scheduled try or a
 * new default card) the banner makes way for a thank-you.
 */
export function FailedPayment({ slug, subscription }: { slug: string; subscription: CustomerSubscription }) {
  const queryClient = useQueryClient();
  const [retry, setRetry] = useState<Retry>({ kind: 'idle' });
  const isPastDue = subscription.status === 'past_due';
  const paidNote = useRef<HTMLParagraphElement>(null);
  /** Whether focus was in the banner when it went away: it then moves to the note that replaces it. */
  const hadFocus = useRef(false);

  /** Seen past_due on this page: a later active status means the debt was just paid. */
  const wasPastDue = useRef(isPastDue);
  useEffect(() => {
    if (isPastDue) {
      wasPastDue.current = true;
      return;
    }
    if (!wasPastDue.current) return;
    wasPastDue.current = false;
    setRetry(subscription.status === 'active' ? { kind: 'paid' } : { kind: 'idle' });
  }, [isPastDue, subscription.status]);

  useEffect(() => {
    if (retry.kind !== 'trying') return;
    const timer = setTimeout(() => setRetry({ kind: 'not-yet' }), RETRY_WAIT_MS);
    return () => clearTimeout(timer);
  }, [retry.kind]);

  useEffect(() => {
    if (retry.kind === 'paid' && hadFocus.current) {
      hadFocus.current = false;
      paidNote.current?.focus();
    }
  }, [retry.kind]);

  const isBusy = retry.kind === 'sending' || retry.kind === 'trying';

  async function retryNow() {
    if (isBusy) return;
    setRetry({ kind: 'sending' });
    try {
      const updated = await portalCall(
        slug,
        'POST',
        `/subscriptions/${subscription.id}/retry-payment`,
        customerSubscriptionSchema,
      );
      showPortalSubscription(queryClient, slug, updated);
      setRetry({ kind: 'trying' });
    } catch (failure) {
      setRetry({ kind: 'refused', message: refusal(failure) });
      if (failure instanceof ApiError && failure.status === 409) {
        await refreshAfterSubscriptionChange(queryClient, slug);
      }
    }
  }

  if (!isPastDue) {
    return retry.kind === 'paid' ? (
      <p ref={paidNote} className="success-note" role="status" tabIndex={-1} data-testid="payment-recovered">
        Your payment went through. Thank you!
      </p>
    ) : null;
  }

  const keepFocus = {
    onFocus: () => (hadFocus.current = true),
    onBlur: (event: FocusEvent<HTMLDivElement>) => {
      if (!event.currentTarget.contains(event.relatedTarget)) hadFocus.current = false;
    },
  };

  // Charging the card again would only be declined again: the buyer confirms it with their bank.
  const confirmation = subscription.payment_confirmation;
  if (confirmation) {
    return (
      <div
        className="portal-banner portal-banner-error portal-failed-payment"
        data-testid="past-due-banner"
        {...keepFocus}
      >
        <p role="alert">
          Your bank asks you to confirm the last payment for this subscription. Until you do, it is past due.
        </p>
        <ConfirmPlanPayment slug={slug} orderId={confirmation.order_id} />
      </div>
    );
  }

  return (
    <div
      className="portal-banner portal-banner-error portal-failed-payment"
      data-testid="past-due-banner"
      {...keepFocus}
    >
      <p role="alert">
        Your last payment for this subscription didn’t go through. We’ll try your card again over the next few
        days, or you can try it now.
      </p>
      <div className="actions">
        <button
          type="button"
          aria-disabled={isBusy}
          data-testid="retry-payment"
          onClick={() => void retryNow()}
        >
          {retry.kind === 'sending'
            ? 'Retrying…'
            : retry.kind === 'trying'
              ? 'Trying your card…'
              : 'Retry now'}
        </button>
        <Link
          to="/portal/$organizationSlug/billing"
          params={{ organizationSlug: slug }}
          data-testid="use-another-card"
        >
          Use another card
        </Link>
      </div>
      <p role="status" className="portal-banner-note" data-testid="retry-note">
        {retry.kind === 'trying'
          ? 'We’re trying your card now. This page updates once the payment goes through.'
          : retry.kind === 'not-yet'
            ? 'The payment hasn’t gone through yet. If your card keeps failing, use another card.'
            : retry.kind === 'refused'
              ? retry.message
              : ''}
      </p>
    </div>
  );
}
