import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import type { ProductMediaFile } from '../../../../domain/files/schemas';
import { productSchema, type Product, type ProductPrice } from '../../../../domain/products/schemas';
import type { AmountType } from '../../../../domain/products/rules';
import { sendJson } from '../../../api';
import { authClient } from '../../../auth/client';
import { Card, ErrorNote, formValues } from '../../../components';
import { describePrice, dollarsToCents } from '../../../catalog/format';
import { benefitsQuery, customFieldsQuery, metersQuery, productsQuery } from '../../../catalog/queries';
import { uploadFile } from '../../../catalog/upload';

export const Route = createFileRoute('/_authenticated/dashboard/products')({ component: ProductsPage });

const AMOUNT_TYPE_LABELS: Record<AmountType, string> = {
  fixed: 'Fixed price',
  custom: 'Pay what you want',
  free: 'Free',
  metered_unit: 'Metered, per unit',
};

/** A price in the form: an existing one is kept by id (prices never change, spec §3 Price); new ones are typed in. */
type PriceDraft = {
  key: number;
  existing: ProductPrice | null;
  amountType: AmountType;
  amount: string;
  minimum: string;
  maximum: string;
  preset: string;
  unitAmount: string;
  meterId: string;
  cap: string;
};

let nextDraftKey = 0;
function newPriceDraft(existing: ProductPrice | null = null): PriceDraft {
  nextDraftKey += 1;
  return {
    key: nextDraftKey,
    existing,
    amountType: existing?.amount_type ?? 'fixed',
    amount: '',
    minimum: '',
    maximum: '',
    preset: '',
    unitAmount: '',
    meterId: '',
    cap: '',
  };
}

function pricePayload(draft: PriceDraft, label: string) {
  if (draft.existing) return { id: draft.existing.id };
  switch (draft.amountType) {
    case 'free':
      return { amount_type: 'free' };
    case 'fixed':
      return { amount_type: 'fixed', price_amount: dollarsToCents(`${label} amount`, draft.amount) };
    case 'custom':
      return {
        amount_type: 'custom',
        minimum_amount: dollarsToCents(`${label} minimum`, draft.minimum),
        maximum_amount: dollarsToCents(`${label} maximum`, draft.maximum),
        preset_amount: dollarsToCents(`${label} suggested amount`, draft.preset),
      };
    case 'metered_unit':
      return {
        amount_type: 'metered_unit',
        // A decimal string in cents: sub-cent unit prices must not pass through a float.
        unit_amount: draft.unitAmount.trim(),
        meter_id: draft.meterId,
        cap_amount: dollarsToCents(`${label} cap`, draft.cap),
      };
  }
}

function PriceEditor(props: {
  draft: PriceDraft;
  index: number;
  meters: { id: string; name: string }[];
  onChange: (draft: PriceDraft) => void;
  onRemove: () => void;
}) {
  const { draft, onChange } = props;
  const label = `Price ${props.index + 1}`;
  const text = (name: string, field: 'amount' | 'minimum' | 'maximum' | 'preset' | 'unitAmount' | 'cap') => (
    <label className="field">
      <span>{`${label} ${name}`}</span>
      <input
        inputMode="decimal"
        value={draft[field]}
        onChange={(event) => onChange({ ...draft, [field]: event.target.value })}
      />
    </label>
  );
  return (
    <fieldset className="price-editor" data-testid="price-editor">
      <legend>{label}</legend>
      {draft.existing ? (
        <p>{describePrice(draft.existing)} (existing prices cannot change; remove it and add another)</p>
      ) : (
        <div className="inline-form">
          <label className="field">
            <span>{`${label} type`}</span>
            <select
              aria-label={`${label} type`}
              value={draft.amountType}
              onChange={(event) => onChange({ ...draft, amountType: event.target.value as AmountType })}
            >
              {(Object.keys(AMOUNT_TYPE_LABELS) as AmountType[]).map((type) => (
                <option key={type} value={type}>
                  {AMOUNT_TYPE_LABELS[type]}
                </option>
              ))}
            </select>
          </label>
          {draft.amountType === 'fixed' ? text('amount (USD)', 'amount') : null}
          {draft.amountType === 'custom' ? (
            <>
              {text('minimum (USD)', 'minimum')}
              {text('maximum (USD)', 'maximum')}
              {text('suggested amount (USD)', 'preset')}
            </>
          ) : null}
          {draft.amountType === 'metered_unit' ? (
            <>
              {text('unit amount (cents)', 'unitAmount')}
              <label className="field">
                <span>{`${label} meter`}</span>
                <select
                  aria-label={`${label} meter`}
                  value={draft.meterId}
                  onChange={(event) => onChange({ ...draft, meterId: event.target.value })}
                >
                  <option value="">Choose a meter</option>
                  {props.meters.map((meter) => (
                    <option key={meter.id} value={meter.id}>
                      {meter.name}
                    </option>
                  ))}
                </select>
              </label>
              {text('cap (USD)', 'cap')}
            </>
          ) : null}
        </div>
      )}
      <button type="button" className="secondary" onClick={props.onRemove}>
        {`Remove ${label.toLowerCase()}`}
      </button>
    </fieldset>
  );
}

function MediaPicker(props: {
  organizationId: string;
  medias: ProductMediaFile[];
  onChange: (medias: ProductMediaFile[]) => void;
}) {
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function upload(file: File) {
    setError(null);
    setProgress(0);
    try {
      const uploaded = await uploadFile(
        file,
        { organizationId: props.organizationId, service: 'product_media' },
        setProgress,
      );
      if (uploaded.service === 'product_media') props.onChange([...props.medias, uploaded]);
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setProgress(null);
    }
  }
  return (
    <fieldset>
      <legend>Images</legend>
      <ul className="media-list">
        {props.medias.map((media) => (
          <li key={media.id}>
            <img src={media.public_url} alt={media.name} className="thumbnail" />
            <button
              type="button"
              className="secondary"
              onClick={() => props.onChange(props.medias.filter((other) => other.id !== media.id))}
            >
              {`Remove ${media.name}`}
            </button>
          </li>
        ))}
      </ul>
      <label className="field">
        <span>Add an image</span>
        <input
          type="file"
          accept="image/*"
          disabled={progress !== null}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void upload(file);
          }}
        />
      </label>
      {progress === null ? null : (
        <p>
          <progress aria-label="Upload progress" max={1} value={progress} /> {Math.round(progress * 100)}%
        </p>
      )}
      <ErrorNote message={error} />
    </fieldset>
  );
}

type AttachedDraft = { customFieldId: string; required: boolean };

function ProductForm({
  organizationId,
  product,
  onDone,
}: {
  organizationId: string;
  product: Product | null;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const meters = useQuery(metersQuery(organizationId));
  const benefits = useQuery(benefitsQuery(organizationId));
  const customFields = useQuery(customFieldsQuery(organizationId));
  const [prices, setPrices] = useState<PriceDraft[]>(() =>
    product ? product.prices.map((price) => newPriceDraft(price)) : [newPriceDraft()],
  );
  const [medias, setMedias] = useState<ProductMediaFile[]>(product?.medias ?? []);
  const [attached, setAttached] = useState<AttachedDraft[]>(
    product?.attached_custom_fields.map((field) => ({
      customFieldId: field.custom_field_id,
      required: field.required,
    })) ?? [],
  );
  const [benefitIds, setBenefitIds] = useState<string[]>(
    product?.benefits.map((benefit) => benefit.id) ?? [],
  );
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const values = formValues(event.currentTarget);
    setBusy(true);
    try {
      const body = {
        name: values.name,
        description: values.description ?? '',
        recurring_interval: values.recurring_interval || null,
        prices: prices.map((draft, index) => pricePayload(draft, `Price ${index + 1}`)),
        medias: medias.map((media) => media.id),
        attached_custom_fields: attached.map((field) => ({
          custom_field_id: field.customFieldId,
          required: field.required,
        })),
      };
      const saved = product
        ? await sendJson('PATCH', `/v1/products/${product.id}`, body, productSchema)
        : await sendJson(
            'POST',
            '/v1/products/',
            { ...body, organization_id: organizationId },
            productSchema,
          );
      const savedBenefits = saved.benefits.map((benefit) => benefit.id);
      if (savedBenefits.join() !== benefitIds.join()) {
        await sendJson('POST', `/v1/products/${saved.id}/benefits`, { benefits: benefitIds }, productSchema);
      }
      await queryClient.invalidateQueries({ queryKey: ['products', organizationId] });
      onDone();
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  }

  const unattached = (customFields.data?.items ?? []).filter(
    (field) => !attached.some((other) => other.customFieldId === field.id),
  );
  const fieldName = (id: string) => customFields.data?.items.find((field) => field.id === id)?.name ?? id;

  return (
    <Card title={product ? `Edit ${product.name}` : 'Create a product'}>
      <form onSubmit={onSubmit} className="stack" noValidate>
        <label className="field">
          <span>Product name</span>
          <input name="name" defaultValue={product?.name ?? ''} required />
        </label>
        <label className="field">
          <span>Description</span>
          <textarea name="description" defaultValue={product?.description ?? ''} rows={3} />
        </label>
        <label className="field">
          <span>Billing</span>
          <select
            aria-label="Billing"
            name="recurring_interval"
            defaultValue={product?.recurring_interval ?? ''}
          >
            <option value="">One-time purchase</option>
            <option value="month">Monthly subscription</option>
            <option value="year">Yearly subscription</option>
          </select>
        </label>
        {prices.map((draft, index) => (
          <PriceEditor
            key={draft.key}
            draft={draft}
            index={index}
            meters={meters.data?.items ?? []}
            onChange={(changed) =>
              setPrices(prices.map((other) => (other.key === draft.key ? changed : other)))
            }
            onRemove={() => setPrices(prices.filter((other) => other.key !== draft.key))}
          />
        ))}
        <div>
          <button type="button" className="secondary" onClick={() => setPrices([...prices, newPriceDraft()])}>
            Add a price
          </button>
        </div>
        <MediaPicker organizationId={organizationId} medias={medias} onChange={setMedias} />
        <fieldset>
          <legend>Benefits</legend>
          {(benefits.data?.items ?? []).length === 0 ? <p className="muted">No benefits yet.</p> : null}
          {(benefits.data?.items ?? []).map((benefit) => (
            <label key={benefit.id} className="checkbox">
              <input
                type="checkbox"
                checked={benefitIds.includes(benefit.id)}
                onChange={(event) =>
                  setBenefitIds(
                    event.target.checked
                      ? [...benefitIds, benefit.id]
                      : benefitIds.filter((id) => id !== benefit.id),
                  )
                }
              />
              {benefit.description}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>Checkout fields</legend>
          <ul className="plain-list">
            {attached.map((field) => (
              <li key={field.customFieldId} className="row">
                <span>{fieldName(field.customFieldId)}</span>
                <label className="checkbox">
                  <input
                    type="checkbox"
                    checked={field.required}
                    onChange={(event) =>
                      setAttached(
                        attached.map((other) =>
                          other.customFieldId === field.customFieldId
                            ? { ...other, required: event.target.checked }
                            : other,
                        ),
                      )
                    }
                  />
                  Required
                </label>
                <button
                  type="button"
                  className="secondary"
                  onClick={() =>
                    setAttached(attached.filter((other) => other.customFieldId !== field.customFieldId))
                  }
                >
                  {`Detach ${fieldName(field.customFieldId)}`}
                </button>
              </li>
            ))}
          </ul>
          {unattached.length ? (
            <label className="field">
              <span>Attach a custom field</span>
              <select
                aria-label="Attach a custom field"
                value=""
                onChange={(event) =>
                  event.target.value &&
                  setAttached([...attached, { customFieldId: event.target.value, required: false }])
                }
              >
                <option value="">Choose a field</option>
                {unattached.map((field) => (
                  <option key={field.id} value={field.id}>
                    {field.name}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
        </fieldset>
        <div className="button-row">
          <button type="submit" disabled={busy}>
            {product ? 'Save product' : 'Create product'}
          </button>
          {product ? (
            <button type="button" className="secondary" onClick={onDone}>
              Cancel
            </button>
          ) : null}
        </div>
      </form>
      <ErrorNote message={error} />
    </Card>
  );
}

function ProductsPage() {
  const active = authClient.useActiveOrganization();
  const organizationId = active.data?.id;
  const queryClient = useQueryClient();
  const [showArchived, setShowArchived] = useState(false);
  const [editing, setEditing] = useState<Product | null>(null);
  // Remounts the create form after each creation, which empties it.
  const [created, setCreated] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const products = useQuery({
    ...productsQuery(organizationId ?? '', showArchived),
    enabled: Boolean(organizationId),
  });
  if (!organizationId) return <p>Choose an organization to see its products.</p>;

  async function setArchived(product: Product, isArchived: boolean) {
    try {
      await sendJson('PATCH', `/v1/products/${product.id}`, { is_archived: isArchived }, productSchema);
      setError(null);
    } catch (failure) {
      setError((failure as Error).message);
    }
    await queryClient.invalidateQueries({ queryKey: ['products', organizationId] });
  }

  return (
    <>
      {editing ? (
        <ProductForm
          key={editing.id}
          organizationId={organizationId}
          product={editing}
          onDone={() => setEditing(null)}
        />
      ) : (
        <ProductForm
          key={`new-${created}`}
          organizationId={organizationId}
          product={null}
          onDone={() => setCreated(created + 1)}
        />
      )}
      <Card title="Products">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={showArchived}
            onChange={(event) => setShowArchived(event.target.checked)}
          />
          Show archived products
        </label>
        <ErrorNote message={products.error?.message ?? error} />
        {products.data?.items.length === 0 ? <p className="muted">No products yet.</p> : null}
        <table className="data-table">
          <thead>
            <tr>
              <th>Image</th>
              <th>Name</th>
              <th>Prices</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {(products.data?.items ?? []).map((product) => (
              <tr key={product.id} data-testid="product-row">
                <td>
                  {product.medias[0] ? (
                    <img
                      src={product.medias[0].public_url}
                      alt={`Image of ${product.name}`}
                      className="thumbnail"
                    />
                  ) : null}
                </td>
                <td>
                  <strong>{product.name}</strong>
                  {product.is_archived ? <span className="badge">Archived</span> : null}
                  {product.description ? <p className="muted">{product.description}</p> : null}
                </td>
                <td>
                  <ul className="plain-list">
                    {product.prices.map((price) => (
                      <li key={price.id} data-testid="product-price">
                        {describePrice(price)}
                      </li>
                    ))}
                  </ul>
                </td>
                <td className="actions">
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Edit ${product.name}`}
                    onClick={() => setEditing(product)}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`${product.is_archived ? 'Unarchive' : 'Archive'} ${product.name}`}
                    onClick={() => void setArchived(product, !product.is_archived)}
                  >
                    {product.is_archived ? 'Unarchive' : 'Archive'}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
    </>
  );
}
