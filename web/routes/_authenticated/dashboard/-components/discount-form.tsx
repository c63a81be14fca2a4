import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import {
  discountSchema,
  type Discount,
  type DiscountDuration,
  type DiscountType,
} from '../../../../../domain/discounts/schemas';
import { sendJson } from '../../../../api';
import { readDollars } from '../../../../catalog/format';
import { productChoiceLabel } from '../../../../catalog/format';
import { decimalAmount } from '../../../../../domain/money/rules';
import { productsQuery } from '../../../../catalog/queries';
import { FormField, focusFirstInvalid, type ControlProps } from '../../../../forms/form-field';
import {
  fieldErrors,
  formErrorsInWords,
  NO_ERRORS,
  type FormErrors,
  type FormWords,
} from '../../../../forms/messages';
import { countWords, dollarWords, nameWords, PERCENT_WORDS, readPercent } from '../../../../forms/words';
import { toLocalInput } from '../../../../test-clocks/queries';
import { FormButtons, ResourceForm } from '../../../../resources/resource-page';
import '../../../../forms/forms.css';

/** The API's bounds (domain/discounts/schemas.ts): names and codes up to 256 characters. */
const NAME_MAX_LENGTH = 256;
const CODE_MAX_LENGTH = 256;
const MAX_AMOUNT = 99_999_999;
const MAX_MONTHS = 999;
const MAX_REDEMPTIONS = 2_147_483_647;
/** Polar's limit on the products one discount may be restricted to. */
const MAX_PRODUCTS = 100;

const DISCOUNT_WORDS: FormWords = {
  name: nameWords('discount name', { max: NAME_MAX_LENGTH }),
  code: { other: 'A code is 3 to 256 letters, digits, dashes or underscores.' },
  amount: { ...dollarWords({ min: 1, max: MAX_AMOUNT }), custom: 'Enter the amount off in dollars.' },
  basis_points: {
    ...PERCENT_WORDS,
    custom: 'Enter the percentage off.',
    value_error: 'Enter the percentage off.',
  },
  duration_in_months: countWords('months', { min: 1, max: MAX_MONTHS }),
  max_redemptions: countWords('redemptions', { min: 1, max: MAX_REDEMPTIONS }),
  starts_at: { other: 'Choose a valid start date and time.' },
  // The service says it with the wire's names ("ends_at must be after starts_at.") when the stored
  // start is later than a new end.
  ends_at: { other: 'Choose an end after the start.', value_error: 'Choose an end after the start.' },
  products: { too_big: `Choose at most ${MAX_PRODUCTS} products.` },
};

const PERCENT_TYPING = 'Enter a percentage, such as 12.5.';
const WHOLE_NUMBER = /^\d+$/;

type Draft = {
  name: string;
  code: string;
  type: DiscountType;
  amount: string;
  percent: string;
  duration: DiscountDuration;
  months: string;
  maxRedemptions: string;
  startsAt: string;
  endsAt: string;
  products: string[];
};

function toDraft(discount: Discount | null): Draft {
  return {
    name: discount?.name ?? '',
    code: discount?.code ?? '',
    type: discount?.type ?? 'percentage',
    amount: discount?.amount === undefined ? '' : decimalAmount(discount.amount, discount.currency ?? 'usd'),
    percent: discount?.basis_points === undefined ? '' : String(discount.basis_points / 100),
    duration: discount?.duration ?? 'once',
    months: discount?.duration_in_months === undefined ? '' : String(discount.duration_in_months),
    maxRedemptions: discount?.max_redemptions ? String(discount.max_redemptions) : '',
    startsAt: discount?.starts_at ? toLocalInput(new Date(discount.starts_at)) : '',
    endsAt: discount?.ends_at ? toLocalInput(new Date(discount.ends_at)) : '',
    products: discount?.products.map((product) => product.id) ?? [],
  };
}

/** What cannot be sent as typed: amounts, percentages and counts that are not numbers. */
function typingErrors(draft: Draft, withTerms: boolean): FormErrors | null {
  const count = (text: string, words: string) =>
    text.trim() && !WHOLE_NUMBER.test(text.trim()) ? words : null;
  return fieldErrors({
    amount: withTerms && draft.type === 'fixed' ? readDollars(draft.amount).error : null,
    basis_points:
      withTerms && draft.type === 'percentage' ? readPercent(draft.percent, PERCENT_TYPING).error : null,
    duration_in_months:
      withTerms && draft.duration === 'repeating'
        ? count(draft.months, 'Enter a whole number of months.')
        : null,
    max_redemptions: count(draft.maxRedemptions, 'Enter a whole number, or leave it empty for no limit.'),
  });
}

/** The value and duration as the API takes them: cents, basis points, months. */
function termsOf(draft: Draft) {
  return {
    type: draft.type,
    duration: draft.duration,
    ...(draft.type === 'fixed'
      ? { amount: readDollars(draft.amount).cents, currency: 'usd' }
      : { basis_points: readPercent(draft.percent, PERCENT_TYPING).basisPoints }),
    ...(draft.duration === 'repeating'
      ? { duration_in_months: draft.months.trim() ? Number(draft.months) : null }
      : {}),
  };
}

/**
 * Creates a discount, or edits one. A redeemed discount keeps its value and duration (buyers were
 * promised them; the API refuses the change), so those fields are shown but locked.
 */
export function DiscountForm({
  organizationId,
  discount,
  onDone,
}: {
  organizationId: string;
  discount: Discount | null;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const products = useQuery(productsQuery(organizationId, false));
  const [draft, setDraft] = useState(() => toDraft(discount));
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const termsLocked = (discount?.redemptions_count ?? 0) > 0;
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const typed = typingErrors(draft, !termsLocked);
    if (typed) {
      setErrors(typed);
      requestAnimationFrame(() => focusFirstInvalid(form));
      return;
    }
    const body = {
      name: draft.name,
      code: draft.code.trim() || null,
      ...(termsLocked ? {} : termsOf(draft)),
      max_redemptions: draft.maxRedemptions.trim() ? Number(draft.maxRedemptions) : null,
      starts_at: draft.startsAt ? new Date(draft.startsAt).toISOString() : null,
      ends_at: draft.endsAt ? new Date(draft.endsAt).toISOString() : null,
      // No product chosen: the discount applies to every product (spec §3 Discount).
      products: draft.products.length > 0 ? draft.products : null,
    };
    setBusy(true);
    try {
      if (discount) await sendJson('PATCH', `/v1/discounts/${discount.id}`, body, discountSchema);
      else
        await sendJson(
          'POST',
          '/v1/discounts/',
          { ...body, organization_id: organizationId },
          discountSchema,
        );
      setErrors(NO_ERRORS);
      await queryClient.invalidateQueries({ queryKey: ['discounts', organizationId] });
      onDone();
    } catch (failure) {
      setErrors(formErrorsInWords(failure, DISCOUNT_WORDS));
      requestAnimationFrame(() => focusFirstInvalid(form));
    } finally {
      setBusy(false);
    }
  }

  const field = (
    label: string,
    name: string,
    options: { required?: boolean; hint?: string },
    control: (props: ControlProps) => ReactNode,
  ) => (
    <FormField
      label={label}
      field={name}
      error={errors.fields[name]}
      hint={options.hint}
      required={options.required}
      markOptional={false}
      className="field"
    >
      {control}
    </FormField>
  );
  const text = (
    label: string,
    key: 'name' | 'code' | 'amount' | 'percent' | 'months' | 'maxRedemptions' | 'startsAt' | 'endsAt',
    name: string,
    options: {
      required?: boolean;
      type?: string;
      maxLength?: number;
      inputMode?: 'decimal' | 'numeric';
      disabled?: boolean;
    } = {},
  ) =>
    field(label, name, { required: options.required }, (control) => (
      <input
        {...control}
        type={options.type ?? 'text'}
        inputMode={options.inputMode}
        maxLength={options.maxLength}
        disabled={options.disabled}
        value={draft[key]}
        onChange={(event) => set(key, event.target.value)}
      />
    ));
  const productItems = products.data?.items ?? [];
  // Products chosen before they were archived stay listed, so saving does not drop them silently.
  const archivedChosen = (discount?.products ?? []).filter(
    (product) => !productItems.some((item) => item.id === product.id),
  );

  return (
    <ResourceForm
      title={discount ? `Edit ${discount.name}` : 'Create a discount'}
      onSubmit={(event) => void onSubmit(event)}
      error={errors.form}
      layout="stacked-form"
    >
      {text('Discount name', 'name', 'name', { required: true, maxLength: NAME_MAX_LENGTH })}
      {text('Code (optional)', 'code', 'code', { maxLength: CODE_MAX_LENGTH })}
      {termsLocked ? (
        <p className="muted" data-testid="discount-terms-locked">
          Buyers redeemed this discount: its value and duration can no longer change.
        </p>
      ) : null}
      <label className="field">
        <span>Discount type</span>
        <select
          aria-label="Discount type"
          value={draft.type}
          disabled={termsLocked}
          onChange={(event) => set('type', event.target.value as DiscountType)}
        >
          <option value="percentage">Percentage</option>
          <option value="fixed">Fixed amount (USD)</option>
        </select>
      </label>
      {draft.type === 'fixed'
        ? text('Amount off (USD)', 'amount', 'amount', {
            required: true,
            inputMode: 'decimal',
            maxLength: 16,
            disabled: termsLocked,
          })
        : text('Percent off', 'percent', 'basis_points', {
            required: true,
            inputMode: 'decimal',
            maxLength: 8,
            disabled: termsLocked,
          })}
      <label className="field">
        <span>Duration</span>
        <select
          aria-label="Duration"
          value={draft.duration}
          disabled={termsLocked}
          onChange={(event) => set('duration', event.target.value as DiscountDuration)}
        >
          <option value="once">Once</option>
          <option value="forever">Forever</option>
          <option value="repeating">Several months</option>
        </select>
      </label>
      {draft.duration === 'repeating'
        ? text('Months', 'months', 'duration_in_months', {
            required: true,
            inputMode: 'numeric',
            maxLength: 3,
            disabled: termsLocked,
          })
        : null}
      {text('Maximum redemptions', 'maxRedemptions', 'max_redemptions', {
        inputMode: 'numeric',
        maxLength: 10,
      })}
      {text('Starts', 'startsAt', 'starts_at', { type: 'datetime-local' })}
      {text('Ends', 'endsAt', 'ends_at', { type: 'datetime-local' })}
      <fieldset className="discount-products">
        <legend>Products</legend>
        <p className="field-hint">Leave all unticked to apply the discount to every product.</p>
        {[
          ...productItems.map((product) => ({ id: product.id, label: productChoiceLabel(product) })),
          // An archived product the discount still names comes without its prices.
          ...archivedChosen.map((product) => ({ id: product.id, label: product.name })),
        ].map((product) => (
          <label key={product.id} className="checkbox">
            <input
              type="checkbox"
              checked={draft.products.includes(product.id)}
              onChange={(event) =>
                set(
                  'products',
                  event.target.checked
                    ? [...draft.products, product.id]
                    : draft.products.filter((id) => id !== product.id),
                )
              }
            />
            <span className="truncate" title={product.label}>
              {product.label}
            </span>
          </label>
        ))}
        {errors.fields.products ? <p className="field-error">{errors.fields.products}</p> : null}
      </fieldset>
      <FormButtons
        label={discount ? 'Save discount' : 'Create discount'}
        isEditing={Boolean(discount)}
        onCancel={onDone}
        busy={busy}
      />
    </ResourceForm>
  );
}
