// What every price type answers, in one shape (docs/prices.md). A type is one module
// (`fixed.ts`, `custom.ts`, `free.ts`, `metered-unit.ts`) built with `definePriceType` and listed
// once in `registry.ts`; nothing outside this folder asks a price which type it is. Pure: the
// workflows and the web app import these files too.
import type { z } from 'zod';
import type { priceCommonShape, RecurringInterval } from './schemas.js';
import type { TierTable } from './tiers.js';

/** A refusal of a price's terms beyond its schema, `loc` under the price (`['maximum_amount']`). */
export type PriceIssue = { loc: (string | number)[]; message: string };

/** One 422 entry about what a buyer asked to pay, as the /v1 error handler renders it. */
export type ChargeIssue = { loc: (string | number)[]; msg: string; type: string };

/** A stored price (a `product_prices` row): the columns the price types share between them. */
export type StoredPrice = {
  amountType: string;
  priceCurrency: string | null;
  priceAmount: number | null;
  minimumAmount: number | null;
  maximumAmount: number | null;
  presetAmount: number | null;
  /** A Prisma Decimal: minor units per unit. */
  unitAmount?: { toFixed(): string } | null;
  capAmount?: number | null;
  meterId?: string | null;
  meter?: { id: string; name: string } | null;
  /** JSON: a seat price's `TierTable` (seat-based.ts reads it). */
  tierTable?: unknown;
};

/** What a new price writes to its row, every type-dependent column set (null when it has none). */
export type PriceColumns = {
  priceCurrency: string | null;
  priceAmount: number | null;
  minimumAmount: number | null;
  maximumAmount: number | null;
  presetAmount: number | null;
  unitAmount: string | null;
  capAmount: number | null;
  meterId: string | null;
  tierTable: TierTable | null;
};

/** What a cycle bills in arrears for a price: the meter it counts and its rate (metered prices). */
export type UsageTerms = {
  meterId: string;
  /** Minor units per unit, a decimal text. */
  unitAmount: string;
  capAmount: number | null;
};

/** A plan change onto a price: the fee each period then bills up front, or why it cannot be chosen. */
export type PlanChangeTerms = { fee: number } | { refusal: string };

export type Interval = RecurringInterval | null;

/** The seats a buyer may choose: at least `minimum`, at most `maximum` (null: no end). */
export type SeatRange = { minimum: number; maximum: number | null };

/** The amount a buyer may choose, in minor units; null: no bound. */
export type AmountBounds = { minimum: number | null; maximum: number | null };

/** How the reader's money reads: `money` for whole minor units, `locale` for decimal unit prices. */
export type PriceFormat = {
  money(amount: number, currency: string): string;
  /** Undefined: the reader's own. */
  locale?: string;
};

/** The seller's price editor: a field a new price of the type is typed in. */
export type EditorField = {
  /** The draft's key in the form. */
  draft: 'amount' | 'minimum' | 'maximum' | 'preset' | 'unitAmount' | 'meterId' | 'cap' | 'seatTiers';
  /** The API's field it sends. */
  wire: string;
  /** After "Price 1 ": "amount (USD)". */
  label: string;
  /**
   * `dollars`: typed in dollars, sent in cents; `cents`: a decimal number of cents sent as text
   * (sub-cent unit prices never pass through a float); `meter`: one of the organization's meters;
   * `tiers`: rows of seats and a rate per seat in dollars, sent as `seat_tiers`.
   */
  kind: 'dollars' | 'cents' | 'meter' | 'tiers';
  required: boolean;
};

type Shape = z.ZodRawShape;
/** A shape's parsed object; a type without fields of its own (free) adds none. */
type Out<S extends Shape> = keyof S extends never ? unknown : z.output<z.ZodObject<S>>;

/** A price of the type as the API shows it: the fields every price has, its type and its own. */
export type ViewOf<Type extends string, ViewShape extends Shape> = Out<typeof priceCommonShape> & {
  amount_type: Type;
} & Out<ViewShape>;
/** A price of the type as a product create or update sends it, parsed. */
export type CreateOf<Type extends string, CreateShape extends Shape> = {
  amount_type: Type;
} & Out<CreateShape>;

export type PriceStrategy<
  Type extends string,
  ViewShape extends Shape,
  CreateShape extends Shape,
  Charge extends { amountType: Type },
> = {
  amountType: Type;
  /**
   * The wire fields besides `amount_type`, in the order the API document lists them: `view` as a
   * price is read (@polar-sh/sdk@0.33.2 validates it), `create` as a product create/update sends it.
   */
  schemas: { view: ViewShape; create: CreateShape };
  /** The row's own fields on the wire, checked by `schemas.view` when the price is read. */
  view(row: StoredPrice): { [Key in keyof ViewShape]: unknown };
  /** The row a new price writes. */
  columns(price: CreateOf<Type, CreateShape>): PriceColumns;
  /** What is wrong with its terms beyond the schema (bounds that must agree with each other). */
  issues(price: CreateOf<Type, CreateShape>): PriceIssue[];
  /** The meter a new price counts, which must be one of the product's organization. */
  meterId(price: CreateOf<Type, CreateShape>): string | null;
  /**
   * `in_advance`: billed with the period it pays for; it decides what a checkout charges and a
   * product has at most one such price. `in_arrears`: billed after the period for its usage; never
   * bought on its own, only with a plan.
   */
  billing: 'in_advance' | 'in_arrears';
  /** What a checkout charges for it. */
  checkout: {
    /** The part of the row that decides the amount. */
    price(row: StoredPrice): Charge;
    /** The checkout's currency (lowercase). */
    currency(price: Charge): string;
    /** The buyer chooses the amount (`amount` on checkout create/update/confirm). */
    takesBuyerAmount: boolean;
    /** The bounds of the amount the buyer chooses, as the checkout form shows them; null when the type takes none. */
    buyerAmount(price: ViewOf<Type, ViewShape>): AmountBounds | null;
    /** What is wrong with the buyer's amount, or null when it may be charged (always null when the type takes none). */
    amountIssue(price: Charge, requested: number): ChargeIssue | null;
    /** The buyer chooses a number of seats (`seats` on checkout create/update/confirm). */
    takesSeats: boolean;
    /** The seats a buyer may choose, as the checkout form shows them; null when the type takes none. */
    seatRange(price: ViewOf<Type, ViewShape>): SeatRange | null;
    /** The seats a checkout starts with; null when the type takes none. */
    defaultSeats(price: Charge): number | null;
    /** Why the buyer cannot have `seats` (`loc` ['seats']), or null (always null when the type takes none). */
    seatsIssue(price: Charge, seats: number): ChargeIssue | null;
    /**
     * Before discount and tax; `requested` passed `amountIssue` and `seats` `seatsIssue` (null: the
     * default). Throws a RangeError on a caller's bug.
     */
    amount(price: Charge, requested: number | null, isRecurring: boolean, seats?: number | null): number;
    /** Never charges anything: no discount to take, no card to save for a plan. */
    isFree: boolean;
  };
  /** What a subscription's cycle bills for it. */
  cycle: {
    /** Its usage terms when a cycle bills it in arrears; null for prices billed up front. */
    usage(row: StoredPrice): UsageTerms | null;
    /**
     * A plan change onto it (proration credits and debits the period's share of `fee`), for
     * `seats` when the type is priced by seat (null for any other type).
     */
    planChange(row: StoredPrice, seats: number | null): PlanChangeTerms;
    /** Its own currency; null when it has none (a free price fits any). */
    currency(row: StoredPrice): string | null;
  };
  /** What a person reads. */
  words: {
    /** The editor's name of the type: "Fixed price". */
    label: string;
    /** The seller's catalog: every term ("Pay what you want (min $1.00) / month"). */
    terms(price: ViewOf<Type, ViewShape>, format: PriceFormat): string;
    /** A plan's price at a glance ("$20.00 / month", "Free"); null for a price billed by usage. */
    plan(
      price: ViewOf<Type, ViewShape>,
      interval: Interval,
      format: PriceFormat,
      count?: number,
    ): string | null;
    /** The buyer at checkout ("$20.00", "Pay what you want, from $5.00", "Billed by usage of Tokens"). */
    checkout(price: ViewOf<Type, ViewShape>, format: PriceFormat): string;
    /** Its amount is per period, so the interval follows it at checkout ("$20.00 / month"). */
    isPerPeriod: boolean;
    /**
     * The tier math of `seats` for the buyer, one line per tier charged ("10 seats × $10.00 =
     * $100.00"); empty for a type not sold by the seat.
     */
    seatMath(price: ViewOf<Type, ViewShape>, seats: number, format: PriceFormat): string[];
  };
  /** What the seller's price editor needs: the fields of a new price, in order. */
  editor: { fields: readonly EditorField[] };
};

/** The columns of a type that has none of its own (a free price). */
export const NO_COLUMNS: PriceColumns = {
  priceCurrency: null,
  priceAmount: null,
  minimumAmount: null,
  maximumAmount: null,
  presetAmount: null,
  unitAmount: null,
  capAmount: null,
  meterId: null,
  tierTable: null,
};

/** " / month" after an amount billed every period; nothing for a price bought once. */
/** " / month", or " every 3 months" for a plan renewed every `count` intervals. */
export const perInterval = (interval: Interval, count = 1): string =>
  interval ? (count === 1 ? ` / ${interval}` : ` every ${count} ${interval}s`) : '';

/** A price type, its types inferred from what it is given. */
export function definePriceType<
  const Type extends string,
  ViewShape extends Shape,
  CreateShape extends Shape,
  Charge extends { amountType: Type },
>(
  strategy: PriceStrategy<Type, ViewShape, CreateShape, Charge>,
): PriceStrategy<Type, ViewShape, CreateShape, Charge> {
  return strategy;
}
