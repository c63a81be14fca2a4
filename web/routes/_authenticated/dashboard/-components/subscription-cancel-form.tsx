import { useState, type FormEvent } from 'react';
import { CANCELLATION_REASONS, type Subscription } from '../../../../../domain/subscriptions/schemas';
import { FormField } from '../../../../forms/form-field';
import { ErrorNote, formatDate } from '../../../../components';
import { formErrorsInWords, type FormWords } from '../../../../forms/messages';
import { textWords } from '../../../../forms/words';
import { useSubscriptionChange } from '../../../../subscriptions/changes';
import { CANCELLATION_REASON_LABELS } from '../../../../subscriptions/format';

type Reason = (typeof CANCELLATION_REASONS)[number];
/** The subscription API takes a comment of up to 1,000 characters (domain/subscriptions/schemas.ts). */
const COMMENT_MAX_LENGTH = 1000;

const CANCEL_WORDS: FormWords = {
  customer_cancellation_reason: { other: 'Choose a reason from the list, or none.' },
  customer_cancellation_comment: textWords(COMMENT_MAX_LENGTH),
};

/** Cancels at the end of the period, with the customer's reason when the seller knows it. */
export function SubscriptionCancelForm(props: { subscription: Subscription; onClose: () => void }) {
  const change = useSubscriptionChange(props.subscription.id);
  const [reason, setReason] = useState<Reason | ''>('');
  const [comment, setComment] = useState('');
  const [errors, setErrors] = useState<{ fields: Record<string, string>; form: string | null }>({
    fields: {},
    form: null,
  });
  const [isBusy, setBusy] = useState(false);
  const periodEnd = props.subscription.current_period_end;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    try {
      await change({
        cancel_at_period_end: true,
        customer_cancellation_reason: reason || null,
        customer_cancellation_comment: comment.trim() || null,
      });
      props.onClose();
    } catch (failure) {
      setErrors(formErrorsInWords(failure, CANCEL_WORDS));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="stack"
      aria-label="Cancel at period end"
      onSubmit={(event) => void onSubmit(event)}
      noValidate
    >
      <p className="muted">
        The customer keeps the plan{periodEnd ? ` until ${formatDate(periodEnd)}` : ''}; nothing more is
        charged.
      </p>
      <FormField
        label="Cancellation reason"
        field="customer_cancellation_reason"
        error={errors.fields.customer_cancellation_reason}
      >
        {(control) => (
          <select
            {...control}
            value={reason}
            onChange={(event) => setReason(event.target.value as Reason | '')}
          >
            <option value="">No reason given</option>
            {CANCELLATION_REASONS.map((value) => (
              <option key={value} value={value}>
                {CANCELLATION_REASON_LABELS[value]}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField
        label="Comment"
        field="customer_cancellation_comment"
        error={errors.fields.customer_cancellation_comment}
      >
        {(control) => (
          <textarea
            {...control}
            rows={3}
            maxLength={COMMENT_MAX_LENGTH}
            value={comment}
            onChange={(event) => setComment(event.target.value)}
          />
        )}
      </FormField>
      <ErrorNote message={errors.form} />
      <div className="button-row">
        <button type="submit" className="danger" disabled={isBusy}>
          {isBusy ? 'Cancelling…' : 'Confirm cancellation'}
        </button>
        <button type="button" className="secondary" onClick={props.onClose}>
          Keep the subscription
        </button>
      </div>
    </form>
  );
}
