import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { checkoutLinkSchema, type CheckoutLink } from '../../../../../domain/checkout-links/schemas';
import { TEXT_MAX_LENGTH } from '../../../../../domain/platform/schemas';
import { sendJson } from '../../../../api';
import { formErrorsInWords, type FormWords } from '../../../../forms/messages';
import { TextField } from '../../../../forms/text-field';
import { textWords, URL_WORDS } from '../../../../forms/words';
import { productChoiceLabel } from '../../../../catalog/format';
import { discountsQuery, productsQuery } from '../../../../catalog/queries';
import { formValues } from '../../../../components';
import { ResourceForm } from '../../../../resources/resource-page';

/** The checkout link API's limits (domain/checkout-links/schemas.ts). */
const LABEL_MAX_LENGTH = TEXT_MAX_LENGTH.name;

const CHECKOUT_LINK_WORDS: FormWords = {
  products: {
    too_small: 'Choose at least one product.',
    too_big: 'A checkout link offers at most 10 products.',
    invalid_type: 'Choose at least one product.',
  },
  label: textWords(LABEL_MAX_LENGTH),
  success_url: URL_WORDS,
  discount_id: { invalid_type: 'Choose a discount from the list.' },
};

function FieldError({ message }: { message: string | undefined }) {
  return message ? <p className="field-error">{message}</p> : null;
}

/**
 * Creates a checkout link, or edits `link` (what the API's PATCH changes: products, label, success
 * URL, discount and the two options). The API's refusals show next to the field they name.
 */
export function CheckoutLinkForm({
  organizationId,
  link,
  onSaved,
}: {
  organizationId: string;
  link?: CheckoutLink;
  onSaved?: (link: CheckoutLink) => void;
}) {
  const queryClient = useQueryClient();
  const [errors, setErrors] = useState<{ fields: Record<string, string>; form: string | null }>({
    fields: {},
    form: null,
  });
  const [saved, setSaved] = useState(false);
  const products = useQuery(productsQuery(organizationId, false));
  const discounts = useQuery(discountsQuery(organizationId));
  const chosenIds = new Set(link?.products.map((product) => product.id));
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = formValues(form);
    const chosen = [...form.querySelectorAll<HTMLInputElement>('input[name="product"]:checked')].map(
      (input) => input.value,
    );
    const fields = {
      products: chosen,
      label: values.label || null,
      success_url: values.success_url || null,
      discount_id: values.discount_id || null,
      allow_discount_codes: (form.elements.namedItem('allow_discount_codes') as HTMLInputElement).checked,
      require_billing_address: (form.elements.namedItem('require_billing_address') as HTMLInputElement)
        .checked,
    };
    setSaved(false);
    try {
      const answer = link
        ? await sendJson('PATCH', `/v1/checkout-links/${link.id}`, fields, checkoutLinkSchema)
        : await sendJson('POST', '/v1/checkout-links/', fields, checkoutLinkSchema);
      setErrors({ fields: {}, form: null });
      if (link) setSaved(true);
      else form.reset();
      await queryClient.invalidateQueries({ queryKey: ['checkout-links', organizationId] });
      onSaved?.(answer);
    } catch (failure) {
      setErrors(formErrorsInWords(failure, CHECKOUT_LINK_WORDS));
    }
  }
  return (
    <ResourceForm
      title={link ? 'Edit checkout link' : 'Create a checkout link'}
      onSubmit={onSubmit}
      error={errors.form}
      layout="stacked-form"
      notice={
        saved ? (
          <p className="muted" role="status">
            Saved.
          </p>
        ) : null
      }
    >
      <fieldset aria-invalid={Boolean(errors.fields.products)}>
        <legend>Products</legend>
        {(products.data?.items ?? []).map((product) => (
          <label key={product.id} className="checkbox">
            <input
              type="checkbox"
              name="product"
              value={product.id}
              defaultChecked={chosenIds.has(product.id)}
            />{' '}
            {productChoiceLabel(product)}
          </label>
        ))}
        {products.data?.items.length === 0 ? <p className="muted">Create a product first.</p> : null}
        <FieldError message={errors.fields.products} />
      </fieldset>
      <TextField
        label="Label"
        name="label"
        field="label"
        maxLength={LABEL_MAX_LENGTH}
        defaultValue={link?.label ?? ''}
        error={errors.fields.label}
      />
      <TextField
        label="Success URL"
        name="success_url"
        field="success_url"
        type="url"
        maxLength={TEXT_MAX_LENGTH.url}
        defaultValue={link?.success_url ?? ''}
        error={errors.fields.success_url}
      />
      <label className="field">
        <span>Discount applied</span>
        <select
          name="discount_id"
          aria-label="Discount applied"
          // The discounts arrive after the form: a new key applies the link's once they are here.
          key={discounts.data ? 'loaded' : 'loading'}
          defaultValue={link?.discount_id ?? ''}
        >
          <option value="">None</option>
          {(discounts.data?.items ?? []).map((discount) => (
            <option key={discount.id} value={discount.id}>
              {discount.name}
            </option>
          ))}
        </select>
      </label>
      <FieldError message={errors.fields.discount_id} />
      <label className="checkbox">
        <input
          type="checkbox"
          name="allow_discount_codes"
          defaultChecked={link?.allow_discount_codes ?? true}
        />{' '}
        Buyers may enter discount codes
      </label>
      <label className="checkbox">
        <input
          type="checkbox"
          name="require_billing_address"
          defaultChecked={link?.require_billing_address ?? false}
        />{' '}
        Require a billing address
      </label>
      <button type="submit">{link ? 'Save checkout link' : 'Create checkout link'}</button>
    </ResourceForm>
  );
}
