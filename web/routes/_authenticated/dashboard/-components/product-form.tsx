import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ProductMediaFile } from '../../../../../domain/files/schemas';
import { TEXT_MAX_LENGTH } from '../../../../../domain/platform/schemas';
import { productSchema, type Product } from '../../../../../domain/products/schemas';
import { sendJson } from '../../../../api';
import { benefitsQuery, customFieldsQuery, metersQuery } from '../../../../catalog/queries';
import { FormField, focusFirstInvalid } from '../../../../forms/form-field';
import { ErrorNote, formValues, Truncated } from '../../../../components';
import {
  fieldErrors,
  formErrorsInWords,
  NO_ERRORS,
  type FormErrors,
  type FormWords,
} from '../../../../forms/messages';
import { nameWords, textWords } from '../../../../forms/words';
import { FormButtons, ResourceForm } from '../../../../resources/resource-page';
import { MediaPicker } from './media-picker';
import {
  newPriceDraft,
  PRICE_WORDS,
  PriceEditor,
  priceDraftErrors,
  pricePayload,
  type PriceDraft,
} from './price-editor';
import '../../../../forms/forms.css';

/** Polar's product names: 3 to 256 characters. */
const NAME_MIN_LENGTH = 3;

const PRODUCT_WORDS: FormWords = {
  name: nameWords('product name', { min: NAME_MIN_LENGTH, max: TEXT_MAX_LENGTH.name }),
  description: textWords(TEXT_MAX_LENGTH.description),
  ...PRICE_WORDS,
};

type AttachedDraft = { customFieldId: string; required: boolean };

export function ProductForm({
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
  /** Ours (`pause_keeps_benefits`): off, as on Polar, a paused plan's benefits are revoked. */
  const [pauseKeepsBenefits, setPauseKeepsBenefits] = useState(product?.pause_keeps_benefits ?? false);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = formValues(form);
    const typed = fieldErrors(
      Object.assign({}, ...prices.map(priceDraftErrors)) as Record<string, string | null>,
    );
    if (typed) {
      setErrors(typed);
      requestAnimationFrame(() => focusFirstInvalid(form));
      return;
    }
    setBusy(true);
    try {
      const body = {
        name: values.name,
        description: values.description ?? '',
        recurring_interval: values.recurring_interval || null,
        prices: prices.map(pricePayload),
        medias: medias.map((media) => media.id),
        attached_custom_fields: attached.map((field) => ({
          custom_field_id: field.customFieldId,
          required: field.required,
        })),
        pause_keeps_benefits: pauseKeepsBenefits,
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
      setErrors(NO_ERRORS);
      await queryClient.invalidateQueries({ queryKey: ['products', organizationId] });
      onDone();
    } catch (failure) {
      setErrors(formErrorsInWords(failure, PRODUCT_WORDS));
      requestAnimationFrame(() => focusFirstInvalid(form));
    } finally {
      setBusy(false);
    }
  }

  const unattached = (customFields.data?.items ?? []).filter(
    (field) => !attached.some((other) => other.customFieldId === field.id),
  );
  const fieldName = (id: string) => customFields.data?.items.find((field) => field.id === id)?.name ?? id;

  return (
    <ResourceForm
      title={product ? `Edit ${product.name}` : 'Create a product'}
      onSubmit={onSubmit}
      error={errors.form}
    >
      <FormField label="Product name" field="name" error={errors.fields.name} required className="field">
        {(control) => (
          <input
            {...control}
            name="name"
            maxLength={TEXT_MAX_LENGTH.name}
            minLength={NAME_MIN_LENGTH}
            defaultValue={product?.name ?? ''}
          />
        )}
      </FormField>
      <FormField
        label="Description"
        field="description"
        error={errors.fields.description}
        markOptional={false}
        className="field"
      >
        {(control) => (
          <textarea
            {...control}
            name="description"
            maxLength={TEXT_MAX_LENGTH.description}
            defaultValue={product?.description ?? ''}
            rows={3}
          />
        )}
      </FormField>
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
      <label className="checkbox">
        <input
          type="checkbox"
          name="pause_keeps_benefits"
          checked={pauseKeepsBenefits}
          onChange={(event) => setPauseKeepsBenefits(event.target.checked)}
        />
        A paused subscription keeps its benefits (otherwise they stop until it resumes)
      </label>
      {prices.map((draft, index) => (
        <PriceEditor
          key={draft.key}
          draft={draft}
          index={index}
          meters={meters.data?.items ?? []}
          errors={errors.fields}
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
      <ErrorNote message={errors.fields.prices ?? null} />
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
              <Truncated text={fieldName(field.customFieldId)} />
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
      <FormButtons
        label={product ? 'Save product' : 'Create product'}
        isEditing={Boolean(product)}
        onCancel={onDone}
        busy={busy}
      />
    </ResourceForm>
  );
}
