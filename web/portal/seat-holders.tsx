import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { customerSeatSchema, seatsListSchema, type CustomerSeat } from '../../domain/customer-seats/schemas';
import { ApiError } from '../api';
import { ErrorNote } from '../components';
import { FormField } from '../forms/form-field';
import { formErrorsInWords, type FormWords } from '../forms/messages';
import { seatsWords } from '../subscriptions/format';
import { portalCall, retryServerErrorsOnce } from './api';

// The people a buyer gives the seats of their plan to (docs/seats.md): each gets an email with a
// link, accepts it, and then holds what the plan includes. The buyer invites, sends again and
// takes seats back here, on a plan's card or a one-time order's.

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NO_CONNECTION = 'We could not reach the server. Check your connection and try again.';
const EMAIL_WORDS: FormWords = { email: { other: 'Enter their email address, like name@example.com.' } };

/** A plan or a one-time order bought at a seat price: its seats are listed and given by its id. */
export type SeatPurchase = { subscription_id: string } | { order_id: string };

const purchaseId = (purchase: SeatPurchase) =>
  'subscription_id' in purchase ? purchase.subscription_id : purchase.order_id;
const purchaseQuery = (purchase: SeatPurchase) =>
  'subscription_id' in purchase
    ? `subscription_id=${encodeURIComponent(purchase.subscription_id)}`
    : `order_id=${encodeURIComponent(purchase.order_id)}`;
const seatsKey = (slug: string, purchase: SeatPurchase) =>
  ['portal', slug, 'seats', purchaseId(purchase)] as const;

function statusWords(seat: CustomerSeat): string {
  return seat.status === 'claimed' ? 'Has the seat' : 'Invited: has not accepted yet';
}

export function SeatHolders({ slug, purchase }: { slug: string; purchase: SeatPurchase }) {
  const queryClient = useQueryClient();
  const seats = useQuery({
    queryKey: seatsKey(slug, purchase),
    queryFn: () => portalCall(slug, 'GET', `/seats?${purchaseQuery(purchase)}`, seatsListSchema),
    retry: retryServerErrorsOnce,
  });
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: seatsKey(slug, purchase) });

  async function invite(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const address = email.trim();
    if (!EMAIL_PATTERN.test(address)) return setFieldError(EMAIL_WORDS.email!.other!);
    setBusy('invite');
    setFieldError(null);
    setFormError(null);
    try {
      const seat = await portalCall(slug, 'POST', '/seats', customerSeatSchema, {
        ...purchase,
        email: address,
      });
      setEmail('');
      setNotice(`We sent ${seat.customer_email ?? address} a link to accept the seat.`);
      await refresh();
    } catch (failure) {
      if (!(failure instanceof ApiError)) return setFormError(NO_CONNECTION);
      const found = formErrorsInWords(failure, EMAIL_WORDS);
      setFieldError(found.fields.email ?? null);
      setFormError(found.fields.email ? null : found.form);
    } finally {
      setBusy(null);
    }
  }

  async function act(seat: CustomerSeat, action: 'resend' | 'revoke') {
    if (busy) return;
    setBusy(seat.id);
    setFormError(null);
    try {
      if (action === 'resend') {
        await portalCall(slug, 'POST', `/seats/${seat.id}/resend`, customerSeatSchema);
        setNotice(`We sent ${seat.customer_email} a new link; the earlier one no longer works.`);
      } else {
        await portalCall(slug, 'DELETE', `/seats/${seat.id}`, customerSeatSchema);
        setNotice(`${seat.customer_email} no longer has a seat.`);
      }
      await refresh();
    } catch (failure) {
      setFormError(failure instanceof ApiError ? failure.message : NO_CONNECTION);
    } finally {
      setBusy(null);
    }
  }

  if (seats.isPending) return <p role="status">Loading who has your seats…</p>;
  if (seats.isError) return <ErrorNote message={seats.error.message} />;
  const { seats: given, available_seats: available, total_seats: total } = seats.data;
  return (
    <section
      className="stack"
      aria-labelledby={`seat-holders-${purchaseId(purchase)}`}
      data-testid="seat-holders"
    >
      <h4 id={`seat-holders-${purchaseId(purchase)}`}>Who has your seats</h4>
      <p data-testid="seat-count">
        {given.length} of {seatsWords(total)} given
        {available === 0 && given.length < total ? ' (the rest go with your scheduled change)' : ''}.
      </p>
      {given.length > 0 ? (
        <ul className="portal-list">
          {given.map((seat) => (
            <li key={seat.id} className="wrap-row" data-testid="seat-holder">
              <span className="wrap">
                <strong>{seat.customer_email}</strong> · {statusWords(seat)}
              </span>
              <span className="button-row wrap-row">
                {seat.status === 'pending' ? (
                  <button
                    type="button"
                    className="secondary"
                    aria-disabled={busy !== null}
                    onClick={() => void act(seat, 'resend')}
                  >
                    Send again
                  </button>
                ) : null}
                <button
                  type="button"
                  className="secondary"
                  aria-disabled={busy !== null}
                  aria-label={`Take back the seat of ${seat.customer_email}`}
                  onClick={() => void act(seat, 'revoke')}
                >
                  Take back
                </button>
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {notice ? (
        <p className="success-note" role="status" data-testid="seat-notice">
          {notice}
        </p>
      ) : null}
      {available > 0 ? (
        <form className="stack" onSubmit={(event) => void invite(event)} noValidate>
          <FormField
            label="Email address to invite"
            field="email"
            required
            error={fieldError}
            hint="They get a link to accept the seat; nothing is charged to them."
          >
            {(control) => (
              <input
                {...control}
                type="email"
                autoComplete="off"
                inputMode="email"
                maxLength={320}
                value={email}
                onChange={(event) => {
                  setEmail(event.target.value);
                  setFieldError(null);
                }}
              />
            )}
          </FormField>
          <ErrorNote message={formError} />
          <div className="button-row wrap-row">
            <button type="submit" className="secondary" aria-disabled={busy !== null}>
              {busy === 'invite' ? 'Inviting…' : 'Invite'}
            </button>
          </div>
        </form>
      ) : (
        <>
          <ErrorNote message={formError} />
          <p className="muted">Every seat is given: take one back or add seats to invite someone else.</p>
        </>
      )}
    </section>
  );
}
