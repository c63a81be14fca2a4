import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { discountSchema, type Discount } from '../../../../domain/discounts/schemas';
import { deleteResource, sendJson } from '../../../api';
import { discountsQuery } from '../../../catalog/queries';
import { authClient } from '../../../auth/client';
import { Card, ConfirmButton, ErrorNote, Field, formatDateTime, formValues } from '../../../components';

export const Route = createFileRoute('/_authenticated/dashboard/discounts')({ component: DiscountsPage });

/** Dollars as typed ("12.50") to cents; the API refuses what is not a whole number of cents. */
const toCents = (dollars: string) => Math.round(Number(dollars) * 100);
/** Percent as typed ("12.5") to basis points. */
const toBasisPoints = (percent: string) => Math.round(Number(percent) * 100);

function valueOf(discount: Discount): string {
  const value =
    discount.type === 'fixed'
      ? `${((discount.amount ?? 0) / 100).toFixed(2)} ${discount.currency?.toUpperCase() ?? ''} off`
      : `${(discount.basis_points ?? 0) / 100} % off`;
  const duration =
    discount.duration === 'repeating' ? `for ${discount.duration_in_months} months` : discount.duration;
  return `${value}, ${duration}`;
}

function CreateDiscount({ organizationId }: { organizationId: string }) {
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
    <Card title="Create a discount">
      <form onSubmit={onSubmit} className="stacked-form" noValidate>
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
      </form>
      <ErrorNote message={error} />
    </Card>
  );
}

function DiscountsPage() {
  const active = authClient.useActiveOrganization();
  const organizationId = active.data?.id;
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const discounts = useQuery({ ...discountsQuery(organizationId ?? ''), enabled: Boolean(organizationId) });
  if (!organizationId) return <p>Choose an organization to see its discounts.</p>;
  return (
    <>
      <CreateDiscount organizationId={organizationId} />
      <Card title="Discounts">
        <ErrorNote message={discounts.error?.message ?? error} />
        <table className="data-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Code</th>
              <th>Value</th>
              <th>Redemptions</th>
              <th>Valid</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {(discounts.data?.items ?? []).map((discount) => (
              <tr key={discount.id} data-testid="discount-row">
                <td>{discount.name}</td>
                <td>{discount.code ?? '—'}</td>
                <td>{valueOf(discount)}</td>
                <td>
                  {discount.redemptions_count}
                  {discount.max_redemptions ? ` / ${discount.max_redemptions}` : ''}
                </td>
                <td>
                  {formatDateTime(discount.starts_at, 'any time')} –{' '}
                  {formatDateTime(discount.ends_at, 'no end')}
                </td>
                <td>
                  <ConfirmButton
                    label={`Delete ${discount.name}`}
                    text="Delete"
                    question="Delete this discount?"
                    onConfirm={async () => {
                      await deleteResource(`/v1/discounts/${discount.id}`).catch((failure: Error) =>
                        setError(failure.message),
                      );
                      await queryClient.invalidateQueries({ queryKey: ['discounts', organizationId] });
                    }}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
    </>
  );
}
