import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { checkoutLinkSchema } from '../../../../../domain/checkout-links/schemas';
import { sendJson } from '../../../../api';
import { discountsQuery, productsQuery } from '../../../../catalog/queries';
import { Field, formValues } from '../../../../components';
import { ResourceForm } from '../../../../resources/resource-page';

export function CheckoutLinkForm({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const products = useQuery(productsQuery(organizationId, false));
  const discounts = useQuery(discountsQuery(organizationId));
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = formValues(form);
    const chosen = [...form.querySelectorAll<HTMLInputElement>('input[name="product"]:checked')].map(
      (input) => input.value,
    );
    try {
      await sendJson(
        'POST',
        '/v1/checkout-links/',
        {
          products: chosen,
          label: values.label || null,
          success_url: values.success_url || null,
          discount_id: values.discount_id || null,
          allow_discount_codes: (form.elements.namedItem('allow_discount_codes') as HTMLInputElement).checked,
          require_billing_address: (form.elements.namedItem('require_billing_address') as HTMLInputElement)
            .checked,
        },
        checkoutLinkSchema,
      );
      setError(null);
      form.reset();
      await queryClient.invalidateQueries({ queryKey: ['checkout-links', organizationId] });
    } catch (failure) {
      setError((failure as Error).message);
    }
  }
  return (
    <ResourceForm title="Create a checkout link" onSubmit={onSubmit} error={error} layout="stacked-form">
      <fieldset>
        <legend>Products</legend>
        {(products.data?.items ?? []).map((product) => (
          <label key={product.id} className="checkbox">
            <input type="checkbox" name="product" value={product.id} /> {product.name}
          </label>
        ))}
        {products.data?.items.length === 0 ? <p className="muted">Create a product first.</p> : null}
      </fieldset>
      <Field label="Label" name="label" required={false} />
      <Field label="Success URL" name="success_url" type="url" required={false} />
      <label className="field">
        <span>Discount applied</span>
        <select name="discount_id" aria-label="Discount applied" defaultValue="">
          <option value="">None</option>
          {(discounts.data?.items ?? []).map((discount) => (
            <option key={discount.id} value={discount.id}>
              {discount.name}
            </option>
          ))}
        </select>
      </label>
      <label className="checkbox">
        <input type="checkbox" name="allow_discount_codes" defaultChecked /> Buyers may enter discount codes
      </label>
      <label className="checkbox">
        <input type="checkbox" name="require_billing_address" /> Require a billing address
      </label>
      <button type="submit">Create checkout link</button>
    </ResourceForm>
  );
}
