import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Subscription } from '../../../../../domain/subscriptions/schemas';
import { formErrorsInWords, type FormWords } from '../../../../forms/messages';
import { discountsQuery } from '../../../../catalog/queries';
import { FormField } from '../../../../forms/form-field';
import { Card, ErrorNote, SuccessNote } from '../../../../components';
import { useSubscriptionChange } from '../../../../subscriptions/changes';

/** A refusal of the discount itself (expired, used up, not for this product) is the service's to say. */
const DISCOUNT_WORDS: FormWords = {
  discount_id: { invalid_type: 'Choose a discount from the list, or none.' },
};
type Errors = { fields: Record<string, string>; form: string | null };
const NO_ERRORS: Errors = { fields: {}, form: null };

/** Gives the subscription another discount, or none, from its next renewal on. */
export function SubscriptionDiscountForm(props: { subscription: Subscription; organizationId: string }) {
  const { subscription } = props;
  const change = useSubscriptionChange(subscription.id);
  const discounts = useQuery(discountsQuery(props.organizationId));
  const [discountId, setDiscountId] = useState(subscription.discount_id ?? '');
  const [errors, setErrors] = useState<Errors>(NO_ERRORS);
  const [saved, setSaved] = useState(false);
  const [isBusy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setSaved(false);
    try {
      await change({ discount_id: discountId || null });
      setErrors(NO_ERRORS);
      setSaved(true);
    } catch (failure) {
      setErrors(formErrorsInWords(failure, DISCOUNT_WORDS));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card title="Change discount">
      <form className="stack" onSubmit={(event) => void onSubmit(event)} noValidate>
        <FormField
          label="Discount"
          field="discount_id"
          error={errors.fields.discount_id}
          hint="It applies from the next renewal on; this period keeps what it was billed."
        >
          {(control) => (
            <select
              {...control}
              value={discountId}
              onChange={(event) => {
                setDiscountId(event.target.value);
                setErrors(NO_ERRORS);
                setSaved(false);
              }}
            >
              <option value="">No discount</option>
              {(discounts.data?.items ?? []).map((discount) => (
                <option key={discount.id} value={discount.id}>
                  {discount.code ? `${discount.name} (${discount.code})` : discount.name}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <ErrorNote message={errors.form ?? discounts.error?.message ?? null} />
        <div className="button-row">
          <button type="submit" disabled={isBusy || discountId === (subscription.discount_id ?? '')}>
            {isBusy ? 'Saving…' : 'Change discount'}
          </button>
        </div>
      </form>
      <SuccessNote message={saved ? 'Discount changed.' : null} />
    </Card>
  );
}
