import { describeTiers } from '../../../../../domain/prices/seat-based';
import {
  MAX_TIER_UNITS,
  tableFromSeatTiers,
  TIER_MODES,
  type TierMode,
} from '../../../../../domain/prices/tiers';
import { readDollars } from '../../../../catalog/format';
import { FormField } from '../../../../forms/form-field';
import { formatMoney } from '../../../../money/format';

/** One tier as typed: where it ends (blank on the last: no end) and its rate per seat in dollars. */
export type TierDraft = { key: number; upTo: string; perSeat: string };

/** A seat price's tiers as typed in the seller's price editor. */
export type SeatTiersDraft = { mode: TierMode; minimumSeats: string; tiers: TierDraft[] };

let nextTierKey = 0;
const newTier = (): TierDraft => {
  nextTierKey += 1;
  return { key: nextTierKey, upTo: '', perSeat: '' };
};

export function newSeatTiersDraft(): SeatTiersDraft {
  return { mode: 'volume', minimumSeats: '1', tiers: [newTier()] };
}

const MODE_WORDS: Record<TierMode, string> = {
  volume: 'Volume: every seat at the rate the total reaches',
  graduated: 'Graduated: each seat at its own tier’s rate',
};

const readSeats = (text: string): number | null => {
  const trimmed = text.trim();
  if (!/^\d{1,7}$/.test(trimmed)) return null;
  const seats = Number(trimmed);
  return seats >= 1 && seats <= MAX_TIER_UNITS ? seats : null;
};
const SEATS_EXPECTED = `Enter a whole number of seats from 1 to ${MAX_TIER_UNITS}.`;

/** The tiers as `seat_tiers`: each starts one past the previous one's end, the first at the minimum. */
function seatTiersOfDraft(draft: SeatTiersDraft) {
  let from = readSeats(draft.minimumSeats) ?? 1;
  return {
    seat_tier_type: draft.mode,
    tiers: draft.tiers.map((tier, index) => {
      const last = index === draft.tiers.length - 1;
      const upTo = last && tier.upTo.trim() === '' ? null : readSeats(tier.upTo);
      const row = { min_seats: from, max_seats: upTo, price_per_seat: readDollars(tier.perSeat).cents ?? 0 };
      from = (upTo ?? from) + 1;
      return row;
    }),
  };
}

export const seatTiersPayload = seatTiersOfDraft;

/** What is wrong with the typed tiers before anything is sent, keyed like the API's refusals. */
export function seatTiersErrors(draft: SeatTiersDraft, priceIndex: number): Record<string, string | null> {
  const at = `prices.${priceIndex}.seat_tiers`;
  const errors: Record<string, string | null> = {
    [`${at}.tiers.0.min_seats`]: readSeats(draft.minimumSeats) === null ? SEATS_EXPECTED : null,
  };
  draft.tiers.forEach((tier, index) => {
    const last = index === draft.tiers.length - 1;
    errors[`${at}.tiers.${index}.price_per_seat`] = readDollars(tier.perSeat).error;
    errors[`${at}.tiers.${index}.max_seats`] =
      last && tier.upTo.trim() === ''
        ? null
        : readSeats(tier.upTo) === null
          ? last
            ? `${SEATS_EXPECTED} Leave the last tier blank for no limit.`
            : SEATS_EXPECTED
          : null;
  });
  if (Object.values(errors).some(Boolean)) return errors;
  // The table's own rules (ascending, contiguous), in the same words the API would answer.
  for (const issue of tableFromSeatTiers(seatTiersOfDraft(draft)).issues) {
    const index = typeof issue.loc[1] === 'number' ? issue.loc[1] : 0;
    errors[`${at}.tiers.${index}.max_seats`] ??= issue.message;
  }
  return errors;
}

/** The buyer's view of the typed tiers, once they read as a table: "Seats 1–10 at $10.00, …". */
function preview(draft: SeatTiersDraft): string | null {
  const { table, issues } = tableFromSeatTiers(seatTiersOfDraft(draft));
  return issues.length === 0 && draft.tiers.every((tier) => readDollars(tier.perSeat).error === null)
    ? describeTiers(table, 'usd', { money: formatMoney })
    : null;
}

export function SeatTiersEditor(props: {
  label: string;
  priceIndex: number;
  draft: SeatTiersDraft;
  errors: Record<string, string>;
  onChange: (draft: SeatTiersDraft) => void;
}) {
  const { draft, label, onChange } = props;
  const at = `prices.${props.priceIndex}.seat_tiers`;
  const errorOf = (field: string) => props.errors[`${at}.${field}`] ?? null;
  const setTier = (index: number, change: Partial<TierDraft>) =>
    onChange({
      ...draft,
      tiers: draft.tiers.map((tier, each) => (each === index ? { ...tier, ...change } : tier)),
    });
  const described = preview(draft);
  return (
    <fieldset className="seat-tiers" data-testid="seat-tiers">
      <legend>{`${label} seat tiers`}</legend>
      <label className="field">
        <span>{`${label} tier rule`}</span>
        <select
          aria-label={`${label} tier rule`}
          value={draft.mode}
          onChange={(event) => onChange({ ...draft, mode: event.target.value as TierMode })}
        >
          {TIER_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {MODE_WORDS[mode]}
            </option>
          ))}
        </select>
      </label>
      <FormField
        label={`${label} fewest seats`}
        field={`${at}.tiers.0.min_seats`}
        error={errorOf('tiers.0.min_seats')}
        required
        className="field"
      >
        {(control) => (
          <input
            {...control}
            inputMode="numeric"
            maxLength={7}
            value={draft.minimumSeats}
            onChange={(event) => onChange({ ...draft, minimumSeats: event.target.value })}
          />
        )}
      </FormField>
      {draft.tiers.map((tier, index) => {
        const last = index === draft.tiers.length - 1;
        const name = `${label} tier ${index + 1}`;
        return (
          <div className="inline-form seat-tier" key={tier.key}>
            <FormField
              label={`${name} up to (seats)`}
              field={`${at}.tiers.${index}.max_seats`}
              error={errorOf(`tiers.${index}.max_seats`)}
              hint={last ? 'Blank: no limit.' : null}
              required={!last}
              markOptional={false}
              className="field"
            >
              {(control) => (
                <input
                  {...control}
                  inputMode="numeric"
                  maxLength={7}
                  value={tier.upTo}
                  onChange={(event) => setTier(index, { upTo: event.target.value })}
                />
              )}
            </FormField>
            <FormField
              label={`${name} per seat (USD)`}
              field={`${at}.tiers.${index}.price_per_seat`}
              error={errorOf(`tiers.${index}.price_per_seat`)}
              required
              className="field"
            >
              {(control) => (
                <input
                  {...control}
                  inputMode="decimal"
                  maxLength={32}
                  value={tier.perSeat}
                  onChange={(event) => setTier(index, { perSeat: event.target.value })}
                />
              )}
            </FormField>
            {draft.tiers.length > 1 ? (
              <button
                type="button"
                className="secondary"
                onClick={() => onChange({ ...draft, tiers: draft.tiers.filter((_, each) => each !== index) })}
              >
                {`Remove ${name.toLowerCase()}`}
              </button>
            ) : null}
          </div>
        );
      })}
      <button
        type="button"
        className="secondary"
        onClick={() => onChange({ ...draft, tiers: [...draft.tiers, newTier()] })}
      >
        {`Add a tier to ${label.toLowerCase()}`}
      </button>
      {described ? <p className="muted">{described}</p> : null}
    </fieldset>
  );
}
