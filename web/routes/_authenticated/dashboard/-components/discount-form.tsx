import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { discountSchema } from '../../../../../domain/discounts/schemas';
import { sendJson } from '../../../../api';
import { Field, formValues } from '../../../../components';
import { ResourceForm } from '../../../../resources/resource-page';

/** Dollars as typed ("12.50") to cents; the API refuses what is not a whole number of cents. */
const toCents = (dollars: string) => Math.round(Number(dollars) * 100);
/** Percent as typed ("12.5") to basis points. */
const toBasisPoints = (percent: string) => Math.round(Number(percent) * 100);

export function DiscountForm({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient();
  const [type, setType] = useState<'fixed' | 'percentage'>('percentage');
  const [duration, setDuration] = useState<'once' | 'forever' | 'repeating'>('once');
  const [error, setError] = useState<string | null>(null);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = formValues(form);
    try {
      await sendJson(
        'POST',
        '/v1/discounts/',
        {
          organization_id: organizationId,
          name: values.name,
          code: values.code || null,
          type,
          duration,
          ...(type === 'fixed'
            ? { amount: toCents(values.amount ?? ''), currency: 'usd' }
            : { basis_points: toBasisPoints(values.percent ?? '') }),
          ...(duration === 'repeating' ? { duration_in_months: Number(values.months) } : {}),
          max_redemptions: values.max_redemptions ? Number(values.max_redemptions) : null,
          starts_at: values.starts_at ? new Date(values.starts_at).toISOString() : null,
          ends_at: values.ends_at ? new Date(values.ends_at).toISOString() : null,
        },
        discountSchema,
      );
      setError(null);
      form.reset();
      await queryClient.invalidateQueries({ queryKey: ['discounts', organizationId] });
    } catch (failure) {
      setError((failure as Error).message);
    }
  }
  return (
    <ResourceForm title="Create a discount" onSubmit={onSubmit} error={error} layout="stacked-form">
      <Field label="Discount name" name="name" />
      <Field label="Code (optional)" name="code" required={false} />
      <label className="field">
        <span>Discount type</span>
        <select
          aria-label="Discount type"
          value={type}
          onChange={(event) => setType(event.target.value as 'fixed' | 'percentage')}
        >
          <option value="percentage">Percentage</option>
          <option value="fixed">Fixed amount (USD)</option>
        </select>
      </label>
      {type === 'fixed' ? (
        <Field label="Amount off (USD)" name="amount" inputMode="numeric" />
      ) : (
        <Field label="Percent off" name="percent" inputMode="numeric" />
      )}
      <label className="field">
        <span>Duration</span>
        <select
          aria-label="Duration"
          value={duration}
          onChange={(event) => setDuration(event.target.value as 'once' | 'forever' | 'repeating')}
        >
          <option value="once">Once</option>
          <option value="forever">Forever</option>
          <option value="repeating">Several months</option>
        </select>
      </label>
      {duration === 'repeating' ? <Field label="Months" name="months" type="number" /> : null}
      <Field label="Maximum redemptions" name="max_redemptions" type="number" required={false} />
      <Field label="Starts" name="starts_at" type="datetime-local" required={false} />
      <Field label="Ends" name="ends_at" type="datetime-local" required={false} />
      <button type="submit">Create discount</button>
    </ResourceForm>
  );
}
