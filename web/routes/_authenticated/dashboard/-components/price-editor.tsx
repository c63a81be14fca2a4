import type { ProductPrice } from '../../../../../domain/products/schemas';
import type { AmountType } from '../../../../../domain/products/rules';
import {
  MAX_CUSTOM_AMOUNT,
  MAX_PRICE_AMOUNT,
  MIN_PRICE_AMOUNT,
  UNIT_AMOUNT_DECIMALS,
} from '../../../../../domain/products/rules';
import { describePrice, formatCents, readDollars } from '../../../../catalog/format';
import { FormField } from '../../../../checkouts/fields';
import { ErrorNote } from '../../../../components';
import type { FormWords } from '../../../../forms/messages';
import { choiceWords, dollarWords } from '../../../../forms/words';

const AMOUNT_TYPE_LABELS: Record<AmountType, string> = {
  fixed: 'Fixed price',
  custom: 'Pay what you want',
  free: 'Free',
  metered_unit: 'Metered, per unit',
};

/** A price in the form: an existing one is kept by id (prices never change, spec §3 Price); new ones are typed in. */
export type PriceDraft = {
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
export function newPriceDraft(existing: ProductPrice | null = null): PriceDraft {
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

/** The form's fields of a price, by the API's name of what each one sends. */
const DRAFT_FIELDS = {
  amount: 'price_amount',
  minimum: 'minimum_amount',
  maximum: 'maximum_amount',
  preset: 'preset_amount',
  unitAmount: 'unit_amount',
  cap: 'cap_amount',
} as const;
type DraftField = keyof typeof DRAFT_FIELDS;

/** The dollar fields a price of this type shows. */
const DOLLAR_FIELDS: Record<AmountType, DraftField[]> = {
  free: [],
  fixed: ['amount'],
  custom: ['minimum', 'maximum', 'preset'],
  metered_unit: ['cap'],
};

/** The price's words for the API's refusals (spec §5: amounts in cents, typed here in dollars). */
export const PRICE_WORDS: FormWords = {
  'prices.*.price_amount': {
    ...dollarWords({ min: MIN_PRICE_AMOUNT, max: MAX_PRICE_AMOUNT }),
    invalid_type: 'Enter the price in dollars, such as 9.99.',
  },
  'prices.*.minimum_amount': {
    ...dollarWords({ min: MIN_PRICE_AMOUNT, max: MAX_PRICE_AMOUNT }),
    custom: `Enter 0 (free or pay what you want) or at least ${formatCents(MIN_PRICE_AMOUNT)}.`,
    too_small: `Enter 0 (free or pay what you want) or at least ${formatCents(MIN_PRICE_AMOUNT)}.`,
  },
  'prices.*.maximum_amount': dollarWords({ min: MIN_PRICE_AMOUNT, max: MAX_CUSTOM_AMOUNT }),
  'prices.*.preset_amount': dollarWords({ min: MIN_PRICE_AMOUNT, max: MAX_CUSTOM_AMOUNT }),
  'prices.*.unit_amount': {
    other: `Enter a positive amount in cents, with at most ${UNIT_AMOUNT_DECIMALS} decimals, such as 0.5.`,
  },
  'prices.*.meter_id': choiceWords('meter'),
  'prices.*.cap_amount': dollarWords({ min: 0, max: MAX_PRICE_AMOUNT }),
  // Rules across prices (one static price, metered prices on recurring products) keep the API's words.
  'prices.*': {},
  prices: { too_small: 'Add a price.' },
};

/** What is wrong with the typed amounts before anything is sent, keyed like the API's refusals. */
export function priceDraftErrors(draft: PriceDraft, index: number): Record<string, string | null> {
  if (draft.existing) return {};
  return Object.fromEntries(
    DOLLAR_FIELDS[draft.amountType].map((field) => [
      `prices.${index}.${DRAFT_FIELDS[field]}`,
      readDollars(draft[field]).error,
    ]),
  );
}

const cents = (text: string) => readDollars(text).cents;

/** The price as the API takes it; call after `priceDraftErrors` found nothing. */
export function pricePayload(draft: PriceDraft) {
  if (draft.existing) return { id: draft.existing.id };
  switch (draft.amountType) {
    case 'free':
      return { amount_type: 'free' };
    case 'fixed':
      return { amount_type: 'fixed', price_amount: cents(draft.amount) };
    case 'custom':
      return {
        amount_type: 'custom',
        minimum_amount: cents(draft.minimum),
        maximum_amount: cents(draft.maximum),
        preset_amount: cents(draft.preset),
      };
    case 'metered_unit':
      return {
        amount_type: 'metered_unit',
        // A decimal string in cents: sub-cent unit prices must not pass through a float.
        unit_amount: draft.unitAmount.trim(),
        meter_id: draft.meterId || null,
        cap_amount: cents(draft.cap),
      };
  }
}

export function PriceEditor(props: {
  draft: PriceDraft;
  index: number;
  meters: { id: string; name: string }[];
  /** The form's errors; this price reads those under `prices.<index>`. */
  errors: Record<string, string>;
  onChange: (draft: PriceDraft) => void;
  onRemove: () => void;
}) {
  const { draft, onChange } = props;
  const label = `Price ${props.index + 1}`;
  const errorOf = (field: string) => props.errors[`prices.${props.index}.${field}`] ?? null;
  const text = (name: string, field: DraftField, required = false) => (
    <FormField
      label={`${label} ${name}`}
      field={`prices.${props.index}.${DRAFT_FIELDS[field]}`}
      error={errorOf(DRAFT_FIELDS[field])}
      required={required}
      markOptional={false}
      className="field"
    >
      {(control) => (
        <input
          {...control}
          inputMode="decimal"
          // Amounts, not text: "99999999.99" is the longest the API takes.
          maxLength={32}
          value={draft[field]}
          onChange={(event) => onChange({ ...draft, [field]: event.target.value })}
        />
      )}
    </FormField>
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
          {draft.amountType === 'fixed' ? text('amount (USD)', 'amount', true) : null}
          {draft.amountType === 'custom' ? (
            <>
              {text('minimum (USD)', 'minimum')}
              {text('maximum (USD)', 'maximum')}
              {text('suggested amount (USD)', 'preset')}
            </>
          ) : null}
          {draft.amountType === 'metered_unit' ? (
            <>
              {text('unit amount (cents)', 'unitAmount', true)}
              <FormField
                label={`${label} meter`}
                field={`prices.${props.index}.meter_id`}
                error={errorOf('meter_id')}
                required
                className="field"
              >
                {(control) => (
                  <select
                    {...control}
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
                )}
              </FormField>
              {text('cap (USD)', 'cap')}
            </>
          ) : null}
        </div>
      )}
      {/* A rule across prices (one static price per product) names the price, not one of its fields. */}
      <ErrorNote message={props.errors[`prices.${props.index}`] ?? null} />
      <button type="button" className="secondary" onClick={props.onRemove}>
        {`Remove ${label.toLowerCase()}`}
      </button>
    </fieldset>
  );
}
