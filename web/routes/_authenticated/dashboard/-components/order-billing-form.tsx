import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { orderSchema, type Order } from '../../../../../domain/orders/schemas';
import { sendJson } from '../../../../api';
import { listCountries } from '../../../../checkouts/countries';
import { Card, ErrorNote, formValues, SuccessNote } from '../../../../components';
import { orderQuery } from '../../../../orders/queries';

/** The billing name and address an order's invoice prints, as the seller corrects them. */
export function OrderBillingForm({ order }: { order: Order }) {
  const queryClient = useQueryClient();
  const countries = useMemo(() => listCountries(), []);
  const [error, setError] = useState<string | null>(null);
  const [isSaved, setSaved] = useState(false);
  const address = order.billing_address;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const values = formValues(event.currentTarget);
    const text = (key: string) => values[key]?.trim() || null;
    const country = text('country');
    try {
      const updated = await sendJson(
        'PATCH',
        `/v1/orders/${order.id}`,
        {
          billing_name: text('billing_name'),
          billing_address: country
            ? {
                country,
                line1: text('line1'),
                line2: text('line2'),
                postal_code: text('postal_code'),
                city: text('city'),
                state: text('state'),
              }
            : null,
        },
        orderSchema,
      );
      queryClient.setQueryData(orderQuery(order.id).queryKey, updated);
      setError(null);
      setSaved(true);
    } catch (failure) {
      setSaved(false);
      setError((failure as Error).message);
    }
  }

  const field = (name: string, label: string, value: string | null | undefined, autoComplete: string) => (
    <label className="field">
      <span>{label}</span>
      <input name={name} defaultValue={value ?? ''} autoComplete={autoComplete} />
    </label>
  );

  return (
    <Card title="Billing details">
      <form onSubmit={(event) => void onSubmit(event)} className="stacked-form stack" noValidate>
        {field('billing_name', 'Billing name', order.billing_name, 'name')}
        <label className="field">
          <span>Country</span>
          <select name="country" defaultValue={address?.country ?? ''}>
            <option value="">No address</option>
            {countries.map((country) => (
              <option key={country.code} value={country.code}>
                {country.name}
              </option>
            ))}
          </select>
        </label>
        {field('line1', 'Address line 1', address?.line1, 'address-line1')}
        {field('line2', 'Address line 2', address?.line2, 'address-line2')}
        {field('postal_code', 'Postal code', address?.postal_code, 'postal-code')}
        {field('city', 'City', address?.city, 'address-level2')}
        {field('state', 'State / province', address?.state, 'address-level1')}
        <div>
          <button type="submit">Save billing details</button>
        </div>
      </form>
      <SuccessNote message={isSaved ? 'Billing details saved.' : null} />
      <ErrorNote message={error} />
    </Card>
  );
}
