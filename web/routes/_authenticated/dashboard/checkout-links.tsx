import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { checkoutLinkSchema } from '../../../../domain/checkout-links/schemas';
import { deleteResource, sendJson } from '../../../api';
import { authClient } from '../../../auth/client';
import { Card, ConfirmButton, ErrorNote, Field, formValues } from '../../../components';
import { checkoutLinksQuery, discountsQuery, productsQuery } from '../../../catalog/queries';

export const Route = createFileRoute('/_authenticated/dashboard/checkout-links')({
  component: CheckoutLinksPage,
});

function CopyUrl({ url }: { url: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="secondary"
      onClick={() => void navigator.clipboard.writeText(url).then(() => setCopied(true))}
    >
      {copied ? 'Copied' : 'Copy URL'}
    </button>
  );
}

function CreateLink({ organizationId }: { organizationId: string }) {
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
    <Card title="Create a checkout link">
      <form onSubmit={onSubmit} className="stacked-form" noValidate>
        <fieldset>
          <legend>Products</legend>
          {(products.data?.items ?? []).map((product) => (
            <label key={product.id} className="checkbox">
              <input type="checkbox" name="product" value={product.id} /> {product.name}
              {product.is_recurring ? (
                <span className="field-warning" data-testid="recurring-warning">
                  {' '}
                  A subscription: buyers following the link see that it cannot be bought yet.
                </span>
              ) : null}
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
      </form>
      <ErrorNote message={error} />
    </Card>
  );
}

function CheckoutLinksPage() {
  const active = authClient.useActiveOrganization();
  const organizationId = active.data?.id;
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const links = useQuery({ ...checkoutLinksQuery(organizationId ?? ''), enabled: Boolean(organizationId) });
  if (!organizationId) return <p>Choose an organization to see its checkout links.</p>;
  return (
    <>
      <CreateLink organizationId={organizationId} />
      <Card title="Checkout links">
        <ErrorNote message={links.error?.message ?? error} />
        <ul className="plain-list">
          {(links.data?.items ?? []).map((link) => (
            <li key={link.id} data-testid="checkout-link-row">
              <strong>{link.label ?? link.products.map((product) => product.name).join(', ')}</strong>{' '}
              <code>{link.url}</code> <CopyUrl url={link.url} />{' '}
              <ConfirmButton
                label={`Delete link ${link.label ?? link.id}`}
                text="Delete"
                question="Delete this link? It stops working at once."
                onConfirm={async () => {
                  await deleteResource(`/v1/checkout-links/${link.id}`).catch((failure: Error) =>
                    setError(failure.message),
                  );
                  await queryClient.invalidateQueries({ queryKey: ['checkout-links', organizationId] });
                }}
              />
            </li>
          ))}
        </ul>
      </Card>
    </>
  );
}
