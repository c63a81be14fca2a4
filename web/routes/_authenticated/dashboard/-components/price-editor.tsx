import type { ProductPrice } from '../../../../../domain/products/schemas';
import {
  MAX_CUSTOM_AMOUNT,
  MAX_PRICE_AMOUNT,
  MIN_PRICE_AMOUNT,
  UNIT_AMOUNT_DECIMALS,
} from '../../../../../domain/prices/limits';
import { AMOUNT_TYPES, priceType, type AmountType } from '../../../../../domain/prices/registry';
import type { EditorField } from '../../../../../domain/prices/strategy';
import { describePrice, readDollars } from '../../../../catalog/format';
import { formatMoney } from '../../../../money/format';
import { FormField } from '../../../../forms/form-field';
import { ErrorNote } from '../../../../components';
import type { FormWords } from '../../../../forms/messages';
import { choiceWords, dollarWords } from '../../../../forms/words';
import { Fragment } from 'react';
import {
  newSeatTiersDraft,
  SeatTiersEditor,
  seatTiersErrors,
  seatTiersPayload,
  type SeatTiersDraft,
} from './seat-tiers-editor';

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
  seatTiers: SeatTiersDraft;
};

/** The draft's fields typed as one line of text (every kind but `tiers`). */
type TextDraftKey = Exclude<EditorField['draft'], 'seatTiers'>;

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
    seatTiers: newSeatTiersDraft(),
  };
}

/** The price's words for the API's refusals (spec §5: amounts in cents, typed here in dollars). */
export const PRICE_WORDS: FormWords = {
  'prices.*.price_amount': {
    ...dollarWords({ min: MIN_PRICE_AMOUNT, max: MAX_PRICE_AMOUNT }),
    invalid_type: 'Enter the price in dollars, such as 9.99.',
  },
  'prices.*.minimum_amount': {
    ...dollarWords({ min: MIN_PRICE_AMOUNT, max: MAX_PRICE_AMOUNT }),
    custom: `Enter 0 (free or pay what you want) or at least ${formatMoney(MIN_PRICE_AMOUNT, 'usd')}.`,
    too_small: `Enter 0 (free or pay what you want) or at least ${formatMoney(MIN_PRICE_AMOUNT, 'usd')}.`,
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
  const { fields } = priceType(draft.amountType).editor;
  return Object.assign(
    Object.fromEntries(
      fields
        .filter((field) => field.kind === 'dollars')
        .map((field) => [`prices.${index}.${field.wire}`, readDollars(textOf(draft, field)).error]),
    ),
    ...fields.filter((field) => field.kind === 'tiers').map(() => seatTiersErrors(draft.seatTiers, index)),
  ) as Record<string, string | null>;
}

const textOf = (draft: PriceDraft, field: EditorField): string => draft[field.draft as TextDraftKey];

const cents = (text: string) => readDollars(text).cents;

/** What a field sends: dollars as cents, a unit amount as typed (a decimal string in cents: sub-cent unit prices must not pass through a float), no meter as null. */
function fieldPayload(draft: PriceDraft, field: EditorField) {
  switch (field.kind) {
    case 'dollars':
      return cents(textOf(draft, field));
    case 'cents':
      return textOf(draft, field).trim();
    case 'meter':
      return textOf(draft, field) || null;
    case 'tiers':
      return seatTiersPayload(draft.seatTiers);
  }
}

/** The price as the API takes it; call after `priceDraftErrors` found nothing. */
export function pricePayload(draft: PriceDraft) {
  if (draft.existing) return { id: draft.existing.id };
  return {
    amount_type: draft.amountType,
    ...Object.fromEntries(
      priceType(draft.amountType).editor.fields.map((field) => [field.wire, fieldPayload(draft, field)]),
    ),
  };
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
  const text = ({ label: name, draft: key, wire, required }: EditorField) => {
    const field = key as TextDraftKey;
    return (
      <FormField
        label={`${label} ${name}`}
        field={`prices.${props.index}.${wire}`}
        error={errorOf(wire)}
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
  };
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
              {AMOUNT_TYPES.map((type) => (
                <option key={type} value={type}>
                  {priceType(type).words.label}
                </option>
              ))}
            </select>
          </label>
          {priceType(draft.amountType).editor.fields.map((field) =>
            field.kind === 'tiers' ? (
              <SeatTiersEditor
                key={field.draft}
                label={label}
                priceIndex={props.index}
                draft={draft.seatTiers}
                errors={props.errors}
                onChange={(seatTiers) => onChange({ ...draft, seatTiers })}
              />
            ) : field.kind === 'meter' ? (
              <FormField
                key={field.draft}
                label={`${label} ${field.label}`}
                field={`prices.${props.index}.${field.wire}`}
                error={errorOf(field.wire)}
                required={field.required}
                className="field"
              >
                {(control) => (
                  <select
                    {...control}
                    value={textOf(draft, field)}
                    onChange={(event) => onChange({ ...draft, [field.draft]: event.target.value })}
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
            ) : (
              <Fragment key={field.draft}>{text(field)}</Fragment>
            ),
          )}
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
