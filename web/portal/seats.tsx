import { useState, type FormEvent } from 'react';
import type { CustomerSubscription, CustomerSubscriptionUpdate } from '../../domain/customer-portal/schemas';
import { formErrors } from '../api';
import { chosenSeats, seatRangeWords } from '../checkouts/form';
import { SeatsField } from '../checkouts/price-fields';
import { ErrorNote, formatDate } from '../components';
import { seatRangeOf, seatsWords } from '../subscriptions/format';
import { changeOrderOf } from './plan-change-payment';

/** What became of a seat change, for the card to say: billed now, waiting for the renewal, or done. */
export type SeatChangeOutcome =
  | { kind: 'billed'; label: string; previousOrderId: string | null }
  | { kind: 'scheduled'; notice: string }
  | { kind: 'done'; notice: string };

/**
 * The buyer changes the seats of a seat-priced plan where the seller allows it
 * (`customer_portal_settings.subscription.update_seats`). More seats are charged for the time
 * left (now or on the next invoice, by the seller's proration setting); fewer are credited.
 */
export function SeatChangeForm(props: {
  slug: string;
  subscription: CustomerSubscription;
  onChange: (change: CustomerSubscriptionUpdate) => Promise<CustomerSubscription>;
  onDone: (outcome: SeatChangeOutcome) => void;
}) {
  const { subscription } = props;
  const range = seatRangeOf(subscription.prices);
  const current = subscription.seats ?? range?.minimum ?? 1;
  const [value, setValue] = useState(String(current));
  const [error, setError] = useState<{ field?: string; form?: string }>({});
  const [isBusy, setBusy] = useState(false);
  if (!range) return null;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const seats = chosenSeats({ seats: value }, range!);
    if (seats === null) return setError({ field: seatRangeWords(range!) });
    if (seats === current) return setError({ field: `You have ${seatsWords(seats)} already.` });
    setBusy(true);
    setError({});
    try {
      // More seats may be billed now: the order that does it is the one newer than this.
      const previous = seats > current ? await changeOrderOf(props.slug, subscription.id) : null;
      const updated = await props.onChange({ seats });
      if (updated.pending_update?.seats === seats) {
        props.onDone({
          kind: 'scheduled',
          notice: `Your plan changes to ${seatsWords(seats)} on ${formatDate(updated.pending_update.applies_at)}.`,
        });
      } else if (seats > current) {
        props.onDone({
          kind: 'billed',
          label: `${subscription.product.name} (${seatsWords(seats)})`,
          previousOrderId: previous?.id ?? null,
        });
      } else {
        props.onDone({
          kind: 'done',
          notice: `You now have ${seatsWords(seats)}.`,
        });
      }
    } catch (failure) {
      const { fields, form } = formErrors(failure, ['seats']);
      setError(fields.seats ? { field: fields.seats } : { form: form ?? 'We could not change your seats.' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="stack" onSubmit={(event) => void onSubmit(event)} data-testid="seat-change" noValidate>
      <SeatsField range={range} value={value} error={error.field} onChange={setValue} />
      <ErrorNote message={error.form ?? null} />
      <div className="button-row wrap-row">
        <button type="submit" className="secondary" disabled={isBusy}>
          {isBusy ? 'Updating seats…' : 'Update seats'}
        </button>
      </div>
    </form>
  );
}
