// A seat-based price: a rate per seat that depends on how many seats are bought, by volume or
// graduated tiers (domain/prices/tiers.ts), within the table's fewest and most seats. Bought once or
// every period of a plan; the checkout asks for the number of seats. Pure.
import { z } from 'zod';
import { inVersions } from '../platform/api-versions.js';
import { minorUnitsSchema } from '../platform/schemas.js';
import { DEFAULT_CURRENCY, MAX_PRICE_AMOUNT } from './limits.js';
import { currencySchema } from './schemas.js';
import { definePriceType, NO_COLUMNS, perInterval, type PriceFormat, type PriceIssue } from './strategy.js';
import {
  MAX_TIER_UNITS,
  maximumUnits,
  quantityRefusal,
  seatTiersOf,
  tableFromSeatTiers,
  tableFromTiers,
  tieredAmount,
  tierLines,
  tiersOf,
  TIER_MODES,
  type TierIssue,
  type TierTable,
} from './tiers.js';

/** More tiers than any seller's price list needs; it bounds what one request can make us store. */
const MAX_TIERS = 50;

const seatCountSchema = z.int().min(1).max(MAX_TIER_UNITS);
const ratePerSeatSchema = minorUnitsSchema().min(0).max(MAX_PRICE_AMOUNT);

const seatTierInputSchema = z.strictObject({
  min_seats: seatCountSchema,
  max_seats: seatCountSchema.nullable().optional(),
  price_per_seat: ratePerSeatSchema,
});
const seatTiersInputSchema = z.strictObject({
  seat_tier_type: z.enum(TIER_MODES).optional(),
  tiers: z.array(seatTierInputSchema).min(1, 'Add at least one tier.').max(MAX_TIERS),
});

// 2027-01 sends a tier's rate as a decimal ("12 decimal places"); a seat is charged whole minor
// units, so a fraction is refused by the table (`tableFromTiers`), never rounded.
const tierInputSchema = z.strictObject({
  bound: seatCountSchema.nullable().optional(),
  unit_amount: z.union([z.number(), z.string().max(40)]).transform((value) => String(value)),
});
const tiersInputSchema = z.strictObject({
  type: z.enum(TIER_MODES),
  tiers: z.array(tierInputSchema).min(1, 'Add at least one tier.').max(MAX_TIERS),
});

const seatTiersViewSchema = z.object({
  seat_tier_type: z.enum(TIER_MODES),
  tiers: z.array(z.object({ min_seats: z.int(), max_seats: z.int().nullable(), price_per_seat: z.int() })),
  minimum_seats: z.int(),
  maximum_seats: z.int().nullable(),
});
const tiersViewSchema = z.object({
  type: z.enum(TIER_MODES),
  tiers: z.array(z.object({ bound: z.int().nullable(), unit_amount: z.string() })),
});

/** The table as `product_prices.tier_table` holds it; anything else there is a bug, not input. */
const storedTableSchema = z.object({
  mode: z.enum(TIER_MODES),
  tiers: z.array(z.object({ upTo: z.int().nullable(), unitAmount: z.int() })).min(1),
  minimum: z.int().min(1),
  maximum: z.int().nullable(),
});

export function storedTierTable(row: { tierTable?: unknown }): TierTable {
  return storedTableSchema.parse(row.tierTable);
}

type SeatPriceCreate = {
  seat_tiers?: z.output<typeof seatTiersInputSchema> | undefined;
  tiers?: z.output<typeof tiersInputSchema> | undefined;
  minimum_units?: number | null | undefined;
};

const under = (field: string, issues: TierIssue[]): PriceIssue[] =>
  issues.map((issue) => ({ loc: [field, ...issue.loc], message: issue.message }));

/**
 * The table a new price describes, in whichever shape it was sent, and what is wrong with it
 * (`loc` under the price). Exactly one shape: `seat_tiers` (0.48.1, 2026-04, 2026-10) or `tiers`
 * with `minimum_units` (2027-01).
 */
export function tableOfNewPrice(price: SeatPriceCreate): { table: TierTable | null; issues: PriceIssue[] } {
  const read = readTableOfNewPrice(price);
  if (read.table && read.issues.length === 0 && read.table.tiers.every((tier) => tier.unitAmount === 0)) {
    // A plan that never charges still asks its buyer for a card (it is not the free type): say so.
    const loc = price.tiers ? ['tiers'] : ['seat_tiers'];
    return {
      table: read.table,
      issues: [{ loc, message: 'Every seat is free at these rates: use a free price instead.' }],
    };
  }
  return read;
}

function readTableOfNewPrice(price: SeatPriceCreate): { table: TierTable | null; issues: PriceIssue[] } {
  if (price.seat_tiers && price.tiers) {
    return {
      table: null,
      issues: [{ loc: ['tiers'], message: 'Send the tiers once: either seat_tiers or tiers, not both.' }],
    };
  }
  if (price.seat_tiers) {
    if (price.minimum_units != null) {
      return {
        table: null,
        issues: [
          {
            loc: ['minimum_units'],
            message:
              'With seat_tiers the first tier’s min_seats is the minimum; minimum_units goes with tiers.',
          },
        ],
      };
    }
    const { table, issues } = tableFromSeatTiers(price.seat_tiers);
    return { table, issues: under('seat_tiers', issues) };
  }
  if (price.tiers) {
    const { table, issues } = tableFromTiers(price.tiers, { minimum: price.minimum_units ?? null });
    return {
      table,
      issues: issues.map((issue) =>
        issue.loc[0] === 'minimum'
          ? { loc: ['minimum_units'], message: issue.message }
          : { loc: ['tiers', ...issue.loc], message: issue.message },
      ),
    };
  }
  return {
    table: null,
    issues: [
      { loc: ['seat_tiers'], message: 'Give the price its tiers: the rate per seat and where it applies.' },
    ],
  };
}

/**
 * The first seat a tier's words name: from the fewest seats a buyer takes, except that graduated
 * tiers wholly below them are still filled (and charged) first, so they keep their own range.
 */
function firstSeatNamed(table: TierTable, tier: TierTable['tiers'][number], start: number): number {
  const belowFewest = tier.upTo !== null && tier.upTo < table.minimum;
  return table.mode === 'graduated' && belowFewest ? start : Math.max(start, table.minimum);
}

/**
 * "Seats 1–10 at $10.00, 11 and more at $8.00 each (every seat at the rate the total reaches)":
 * the ranges a buyer can reach, from the fewest seats to the most.
 */
export function describeTiers(table: TierTable, currency: string, format: PriceFormat): string {
  const [only] = table.tiers;
  if (table.tiers.length === 1 && only) return `${format.money(only.unitAmount, currency)} per seat`;
  const maximum = maximumUnits(table);
  const ranges: string[] = [];
  let start = 1;
  for (const tier of table.tiers) {
    const first = firstSeatNamed(table, tier, start);
    const last = tier.upTo === null ? maximum : Math.min(tier.upTo, maximum ?? tier.upTo);
    start = (tier.upTo ?? start) + 1;
    if (last !== null && last < first) continue;
    const range = last === null ? `${first} and more` : first === last ? `${first}` : `${first}–${last}`;
    ranges.push(`${range} at ${format.money(tier.unitAmount, currency)}`);
    if (last !== null && maximum !== null && last >= maximum) break;
  }
  const rule =
    table.mode === 'volume' ? 'every seat at the rate the total reaches' : 'each seat at its own tier’s rate';
  return `Seats ${ranges.join(', ')} each (${rule})`;
}

/** "min 3 seats, max 40": the bounds a buyer meets, or nothing when any number from 1 goes. */
function seatBoundsWords(table: TierTable): string {
  const maximum = maximumUnits(table);
  const bounds = [
    ...(table.minimum > 1 ? [`min ${table.minimum} seats`] : []),
    ...(maximum !== null ? [`max ${maximum} seats`] : []),
  ];
  return bounds.length > 0 ? `, ${bounds.join(', ')}` : '';
}

/** The tiers a buyer can reach between the table's fewest and most seats, with where each starts. */
function reachableTiers(table: TierTable): { first: number; upTo: number | null; unitAmount: number }[] {
  const maximum = maximumUnits(table);
  const reachable: { first: number; upTo: number | null; unitAmount: number }[] = [];
  let start = 1;
  for (const tier of table.tiers) {
    const first = firstSeatNamed(table, tier, start);
    start = (tier.upTo ?? start) + 1;
    if ((tier.upTo !== null && tier.upTo < first) || (maximum !== null && first > maximum)) continue;
    reachable.push({ first, upTo: tier.upTo, unitAmount: tier.unitAmount });
  }
  return reachable;
}

/**
 * The rate at a glance, never one the buyer cannot pay: the one rate; under volume tiers the
 * lowest a total reaches ("From $8.00 per seat"); under graduated tiers the first seats' rate and
 * where it ends ("$10.00 per seat up to 10, then by tier"), since no seat bought costs less
 * on average than the tiers it fills.
 */
function rateWords(table: TierTable, currency: string, format: PriceFormat): string {
  const tiers = reachableTiers(table);
  const rates = tiers.map((tier) => tier.unitAmount);
  const lowest = Math.min(...rates);
  if (rates.every((rate) => rate === lowest)) return `${format.money(lowest, currency)} per seat`;
  if (table.mode === 'volume') return `From ${format.money(lowest, currency)} per seat`;
  const [first] = tiers;
  return `${format.money(first!.unitAmount, currency)} per seat up to ${first!.upTo}, then by tier`;
}

/** What a checkout charges for a seat price: its table and currency. */
export type SeatCharge = { amountType: 'seat_based'; currency: string; table: TierTable };

export const seatBasedPrice = definePriceType({
  amountType: 'seat_based',
  schemas: {
    view: {
      price_currency: z.string(),
      seat_tiers: inVersions({ to: '2026-10' }, seatTiersViewSchema),
      tiers: inVersions({ from: '2027-01' }, tiersViewSchema),
      minimum_units: inVersions({ from: '2027-01' }, z.int().nullable()),
      maximum_units: inVersions({ from: '2027-01' }, z.int().nullable()),
    },
    create: {
      price_currency: currencySchema,
      seat_tiers: seatTiersInputSchema.optional(),
      tiers: tiersInputSchema.optional(),
      minimum_units: seatCountSchema.nullable().optional(),
    },
  },
  view: (row) => {
    const table = storedTierTable(row);
    return { price_currency: row.priceCurrency, seat_tiers: seatTiersOf(table), ...tiersOf(table) };
  },
  columns: (price) => {
    const { table } = tableOfNewPrice(price);
    if (!table) throw new RangeError('a seat price is stored only once its tiers passed `issues`');
    return { ...NO_COLUMNS, priceCurrency: price.price_currency, tierTable: table };
  },
  issues: (price) => tableOfNewPrice(price).issues,
  meterId: () => null,
  billing: 'in_advance',
  checkout: {
    price: (row): SeatCharge => ({
      amountType: 'seat_based',
      currency: row.priceCurrency ?? DEFAULT_CURRENCY,
      table: storedTierTable(row),
    }),
    currency: (price) => price.currency.toLowerCase(),
    takesBuyerAmount: false,
    buyerAmount: () => null,
    amountIssue: () => null,
    takesSeats: true,
    seatRange: (price) => {
      const table = tableOfView(price);
      return { minimum: table.minimum, maximum: maximumUnits(table) };
    },
    defaultSeats: (price) => price.table.minimum,
    seatsIssue: (price, seats) => {
      const refusal = quantityRefusal(price.table, seats);
      return refusal ? { loc: ['seats'], msg: refusal, type: 'value_error' } : null;
    },
    amount: (price, _requested, _isRecurring, seats) => {
      const count = seats ?? price.table.minimum;
      if (quantityRefusal(price.table, count))
        throw new RangeError(`${count} seats are not for sale at this price`);
      return tieredAmount(price.table, count);
    },
    isFree: false,
  },
  cycle: {
    usage: () => null,
    planChange: (row, seats) => {
      const table = storedTierTable(row);
      if (seats === null) throw new RangeError('a plan change onto a seat price needs its seats');
      const refusal = quantityRefusal(table, seats);
      return refusal ? { refusal } : { fee: tieredAmount(table, seats) };
    },
    currency: (row) => row.priceCurrency?.toLowerCase() ?? null,
  },
  words: {
    label: 'Seat-based',
    terms: (price, format) => {
      const table = tableOfView(price);
      return `${describeTiers(table, price.price_currency, format)}${perInterval(price.recurring_interval)}${seatBoundsWords(table)}`;
    },
    plan: (price, interval, format, count) =>
      `${rateWords(tableOfView(price), price.price_currency, format)}${perInterval(interval, count)}`,
    checkout: (price, format) => rateWords(tableOfView(price), price.price_currency, format),
    isPerPeriod: true,
    seatMath: (price, seats, format) => {
      const money = (amount: number) => format.money(amount, price.price_currency);
      return tierLines(tableOfView(price), seats).map(
        (line) =>
          `${line.units} ${line.units === 1 ? 'seat' : 'seats'} × ${money(line.unitAmount)} = ${money(line.amount)}`,
      );
    },
  },
  editor: {
    fields: [
      {
        draft: 'seatTiers',
        wire: 'seat_tiers',
        label: 'seat tiers (USD per seat)',
        kind: 'tiers',
        required: true,
      },
    ],
  },
});

/**
 * The table back from a price as the API shows it (the words read the wire price, which has
 * `seat_tiers` in every shape the code outside the API layer sees).
 */
function tableOfView(price: { seat_tiers: z.output<typeof seatTiersViewSchema> }): TierTable {
  const { table } = tableFromSeatTiers(price.seat_tiers);
  return { ...table, minimum: price.seat_tiers.minimum_seats, maximum: price.seat_tiers.maximum_seats };
}
