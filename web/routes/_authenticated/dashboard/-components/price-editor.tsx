import type { ProductPrice } from '../../../../../domain/products/schemas';
import type { AmountType } from '../../../../../domain/products/rules';
import { describePrice, dollarsToCents } from '../../../../catalog/format';

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

export function pricePayload(draft: PriceDraft, label: string) {
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

export function PriceEditor(props: {
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
