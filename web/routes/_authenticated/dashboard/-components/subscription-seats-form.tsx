import { useState, type FormEvent } from 'react';
import type { Subscription } from '../../../../../domain/subscriptions/schemas';
import { chosenSeats, seatRangeWords } from '../../../../checkouts/form';
import { SeatsField } from '../../../../checkouts/price-fields';
import { Card, ErrorNote, formatDate, SuccessNote } from '../../../../components';
import { formErrorsInWords } from '../../../../forms/messages';
import { FormField } from '../../../../forms/form-field';
import { useSubscriptionChange } from '../../../../subscriptions/changes';
import { seatRangeOf, seatsWords } from '../../../../subscriptions/format';

type When = 'prorate' | 'invoice' | 'next_period';
const WHEN_LABELS: Record<When, string> = {
  prorate: 'Now: the difference goes on the next invoice',
  invoice: 'Now: more seats are charged at once, fewer credited on the next invoice',
  next_period: 'At the renewal: nothing is billed before',
};
type Errors = { fields: Record<string, string>; form: string | null };
const NO_ERRORS: Errors = { fields: {}, form: null };

/** Changes the seats of a plan sold by the seat (owners and admins), now or at the renewal. */
export function SubscriptionSeatsForm({ subscription }: { subscription: Subscription }) {
  const change = useSubscriptionChange(subscription.id);
  const range = seatRangeOf(subscription.prices);
  const [seats, setSeats] = useState(String(subscription.seats ?? ''));
  const [when, setWhen] = useState<When>('prorate');
  const [errors, setErrors] = useState<Errors>(NO_ERRORS);
  const [saved, setSaved] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  if (!range || subscription.seats == null) return null;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(null);
    const chosen = chosenSeats({ seats }, range!);
    if (chosen === null) return setErrors({ fields: { seats: seatRangeWords(range!) }, form: null });
    setBusy(true);
    try {
      const updated = await change({ seats: chosen, proration_behavior: when });
      setErrors(NO_ERRORS);
      setSaved(
        updated.pending_update?.seats === chosen
          ? `${seatsWords(chosen)} from ${formatDate(updated.pending_update.applies_at)}.`
          : `The plan now has ${seatsWords(chosen)}.`,
      );
    } catch (failure) {
      setErrors(formErrorsInWords(failure, {}));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card title="Change seats">
      <form className="stack" onSubmit={(event) => void onSubmit(event)} noValidate data-testid="seats-form">
        <SeatsField
          range={range}
          value={seats}
          error={errors.fields.seats}
          onChange={(value) => {
            setSeats(value);
            setErrors(NO_ERRORS);
          }}
        />
        <FormField label="When" field="proration_behavior" required error={errors.fields.proration_behavior}>
          {(control) => (
            <select {...control} value={when} onChange={(event) => setWhen(event.target.value as When)}>
              {(Object.keys(WHEN_LABELS) as When[]).map((value) => (
                <option key={value} value={value}>
                  {WHEN_LABELS[value]}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <ErrorNote message={errors.form} />
        <div className="button-row">
          <button type="submit" disabled={isBusy || seats === String(subscription.seats)}>
            {isBusy ? 'Saving…' : 'Change seats'}
          </button>
        </div>
      </form>
      <SuccessNote message={saved} />
    </Card>
  );
}
