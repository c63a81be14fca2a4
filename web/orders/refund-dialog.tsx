import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { sendJson } from '../api';
import { focusFirstInvalid, FormField } from '../forms/form-field';
import { decimalAmount } from '../../domain/money/rules';
import { formatMoney, readMajorInput } from '../money/format';
import type { Order } from '../../domain/orders/schemas';
import { REFUND_REASONS, refundSchema, type Refund } from '../../domain/refunds/schemas';
import { REFUND_REASON_LABELS } from './status';

/** What is left to refund: amounts before tax (Polar refunds tax in proportion, on top). */
type RefundReason = Refund['reason'];

export function refundableAmount(order: Pick<Order, 'net_amount' | 'refunded_amount'>): number {
  return Math.max(0, order.net_amount - order.refunded_amount);
}

type Errors = { amount?: string; reason?: string; form?: string };

/** "Refund" button and its modal dialog (native `<dialog>`: focus stays inside, Escape closes). */
export function RefundDialog({ order }: { order: Order }) {
  const queryClient = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const refundable = refundableAmount(order);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState<RefundReason | ''>('');
  const [comment, setComment] = useState('');
  const [revokeBenefits, setRevokeBenefits] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [isBusy, setBusy] = useState(false);
  const money = (value: number) => formatMoney(value, order.currency);

  function open() {
    setAmount(decimalAmount(refundable, order.currency));
    setReason('');
    setComment('');
    setRevokeBenefits(false);
    setErrors({});
    dialog.current?.showModal();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const read = readMajorInput(amount, order.currency, 'Enter an amount greater than zero.');
    const cents = read.amount;
    const found: Errors = {};
    if (read.error !== null) found.amount = read.error;
    else if (cents === null || cents <= 0) found.amount = 'Enter an amount greater than zero.';
    else if (cents > refundable) found.amount = `At most ${money(refundable)} can be refunded.`;
    if (!reason) found.reason = 'Choose a reason.';
    setErrors(found);
    if (Object.keys(found).length > 0 || cents === null || !reason) {
      requestAnimationFrame(() => focusFirstInvalid(form.current));
      return;
    }
    setBusy(true);
    try {
      await sendJson(
        'POST',
        '/v1/refunds/',
        {
          order_id: order.id,
          amount: cents,
          reason,
          comment: comment.trim() || null,
          revoke_benefits: revokeBenefits,
        },
        refundSchema.nullable(),
      );
      dialog.current?.close();
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['order', order.id] }),
        queryClient.invalidateQueries({ queryKey: ['refunds'] }),
        queryClient.invalidateQueries({ queryKey: ['orders'] }),
      ]);
    } catch (failure) {
      // RefundAmountTooHigh (400) and RefundedAlready (403) carry their explanation in `detail`.
      setErrors({ form: (failure as Error).message });
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button type="button" onClick={open} disabled={refundable === 0}>
        Refund
      </button>
      <dialog ref={dialog} aria-labelledby="refund-title" className="dialog">
        <form ref={form} onSubmit={(event) => void onSubmit(event)} className="stack" noValidate>
          <h2 id="refund-title">Refund order</h2>
          <p className="muted">
            Up to {money(refundable)} can be refunded; tax is refunded in proportion on top.
          </p>
          <FormField
            label={`Amount (${order.currency.toUpperCase()})`}
            field="amount"
            required
            error={errors.amount}
          >
            {(control) => (
              <input
                {...control}
                inputMode="decimal"
                value={amount}
                onChange={(event) => setAmount(event.target.value)}
              />
            )}
          </FormField>
          <FormField label="Reason" field="reason" required error={errors.reason}>
            {(control) => (
              <select
                {...control}
                value={reason}
                onChange={(event) => setReason(event.target.value as RefundReason | '')}
              >
                <option value="">Choose a reason</option>
                {REFUND_REASONS.map((value) => (
                  <option key={value} value={value}>
                    {REFUND_REASON_LABELS[value]}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <FormField label="Comment" field="comment">
            {(control) => (
              <textarea
                {...control}
                rows={3}
                value={comment}
                onChange={(event) => setComment(event.target.value)}
              />
            )}
          </FormField>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={revokeBenefits}
              onChange={(event) => setRevokeBenefits(event.target.checked)}
            />
            Revoke the customer’s benefits from this order
          </label>
          {errors.form ? (
            <p className="error-note" role="alert">
              {errors.form}
            </p>
          ) : null}
          <div className="button-row">
            <button type="submit" disabled={isBusy}>
              {isBusy ? 'Refunding…' : 'Issue refund'}
            </button>
            <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
