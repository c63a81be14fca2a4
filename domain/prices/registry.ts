// The price types, keyed by `amount_type`: the one place that turns a price's type into what it
// does (docs/prices.md). A new type is a module beside this one and a line in `PRICE_TYPES` and
// in the two wire unions below. Pure.
import { z } from 'zod';
import { customPrice } from './custom.js';
import { fixedPrice } from './fixed.js';
import { freePrice } from './free.js';
import { meteredUnitPrice } from './metered-unit.js';
import { seatBasedPrice } from './seat-based.js';
import { priceCommonShape, priceCreateCommonShape } from './schemas.js';
import { DEFAULT_CURRENCY } from './limits.js';
import { renderedInVersions } from '../platform/api-versions.js';
import type {
  AmountBounds,
  ChargeIssue,
  EditorField,
  Interval,
  PlanChangeTerms,
  PriceColumns,
  PriceFormat,
  PriceIssue,
  SeatRange,
  StoredPrice,
  UsageTerms,
} from './strategy.js';

export const PRICE_TYPES = {
  fixed: fixedPrice,
  custom: customPrice,
  free: freePrice,
  metered_unit: meteredUnitPrice,
  seat_based: seatBasedPrice,
} as const;

export type AmountType = keyof typeof PRICE_TYPES;
export const AMOUNT_TYPES = Object.keys(PRICE_TYPES) as AmountType[];

/**
 * The order of `sorting=price_amount_type`: from what costs nothing to what is billed by usage,
 * every type ranked (a type missing here would sort as unknown).
 */
export const AMOUNT_TYPE_SORT_ORDER: readonly AmountType[] = [
  'free',
  'custom',
  'fixed',
  'seat_based',
  'metered_unit',
];

type Shape = z.ZodRawShape;
const viewSchemaOf = <Type extends string, View extends Shape>(type: {
  amountType: Type;
  schemas: { view: View };
}) => z.object({ ...priceCommonShape, amount_type: z.literal(type.amountType), ...type.schemas.view });
const createSchemaOf = <Type extends string, Create extends Shape>(type: {
  amountType: Type;
  schemas: { create: Create };
}) =>
  z.strictObject({
    amount_type: z.literal(type.amountType),
    ...type.schemas.create,
    ...priceCreateCommonShape,
  });

// Each union lists the types in the order the API document has always had (it stays byte-identical).

const fixedPriceViewSchema = viewSchemaOf(fixedPrice);

/**
 * Polar's dated versions have no free price type: a free price is, to them, a fixed price of 0 in
 * the default currency (a free price has none of its own).
 */
const freePriceViewSchema = renderedInVersions({ from: '2026-04' }, viewSchemaOf(freePrice), {
  as: fixedPriceViewSchema,
  render: (price) => ({
    ...price,
    amount_type: 'fixed' as const,
    price_currency: DEFAULT_CURRENCY,
    price_amount: 0,
  }),
});

/**
 * A price as Polar's API shows it (@polar-sh/sdk@0.33.2 validates it); a dated version shows a free
 * one as fixed (docs/api-versions.md).
 */
export const productPriceSchema = z.discriminatedUnion('amount_type', [
  freePriceViewSchema,
  fixedPriceViewSchema,
  viewSchemaOf(customPrice),
  viewSchemaOf(meteredUnitPrice),
  viewSchemaOf(seatBasedPrice),
]);
export type ProductPrice = z.infer<typeof productPriceSchema>;

/** A new price, as a product create or update sends it. */
export const priceCreateSchema = z.discriminatedUnion('amount_type', [
  createSchemaOf(fixedPrice),
  createSchemaOf(customPrice),
  createSchemaOf(freePrice),
  createSchemaOf(meteredUnitPrice),
  createSchemaOf(seatBasedPrice),
]);
export type PriceCreate = z.infer<typeof priceCreateSchema>;

/** What decides what a checkout charges for a price, per type. */
export type CheckoutPrice = ReturnType<(typeof PRICE_TYPES)[AmountType]['checkout']['price']>;

/**
 * A price type as the code outside this folder uses it, whatever the type: each method is given a
 * price of the type it was looked up by (`priceType(price.amountType)`), never another's.
 */
export type PriceType = {
  amountType: AmountType;
  billing: 'in_advance' | 'in_arrears';
  view(row: StoredPrice): Record<string, unknown>;
  columns(price: PriceCreate): PriceColumns;
  issues(price: PriceCreate): PriceIssue[];
  meterId(price: PriceCreate): string | null;
  checkout: {
    price(row: StoredPrice): CheckoutPrice;
    currency(price: CheckoutPrice): string;
    takesBuyerAmount: boolean;
    buyerAmount(price: ProductPrice): AmountBounds | null;
    amountIssue(price: CheckoutPrice, requested: number): ChargeIssue | null;
    takesSeats: boolean;
    seatRange(price: ProductPrice): SeatRange | null;
    defaultSeats(price: CheckoutPrice): number | null;
    seatsIssue(price: CheckoutPrice, seats: number): ChargeIssue | null;
    amount(
      price: CheckoutPrice,
      requested: number | null,
      isRecurring: boolean,
      seats?: number | null,
    ): number;
    isFree: boolean;
  };
  cycle: {
    usage(row: StoredPrice): UsageTerms | null;
    planChange(row: StoredPrice, seats: number | null): PlanChangeTerms;
    currency(row: StoredPrice): string | null;
  };
  words: {
    label: string;
    terms(price: ProductPrice, format: PriceFormat): string;
    plan(price: ProductPrice, interval: Interval, format: PriceFormat, count?: number): string | null;
    checkout(price: ProductPrice, format: PriceFormat): string;
    isPerPeriod: boolean;
    seatMath(price: ProductPrice, seats: number, format: PriceFormat): string[];
  };
  editor: { fields: readonly EditorField[] };
};

// Methods take their parameters bivariantly, so each type fits `PriceType`: the correlation
// between a price and its type is what `priceType` guarantees by looking the type up by the price.
const TYPES: Readonly<Record<AmountType, PriceType>> = PRICE_TYPES;

function isAmountType(type: string): type is AmountType {
  return Object.hasOwn(TYPES, type);
}

/** A line of a plan sold by the seat names its seats: "Team plan (12 seats)"; without seats, the name. */
export function seatsLabel(productName: string, seats: number | null): string {
  return seats === null ? productName : `${productName} (${seats} ${seats === 1 ? 'seat' : 'seats'})`;
}

/** The price type of `amountType` (a stored row's, a wire price's); an unknown one is a bug. */
export function priceType(amountType: string): PriceType {
  if (!isAmountType(amountType)) throw new RangeError(`"${amountType}" is not a price type`);
  return TYPES[amountType];
}

/**
 * The price of a product that is billed up front, which decides what a checkout charges (a
 * product has at most one); null when it has only prices billed by usage.
 */
export function priceBilledInAdvance<Price extends { amountType: string }>(
  prices: readonly Price[],
): Price | null {
  return prices.find((price) => priceType(price.amountType).billing === 'in_advance') ?? null;
}

/** `priceBilledInAdvance` of prices as the API shows them. */
export function staticPriceOf(prices: readonly ProductPrice[]): ProductPrice | null {
  return prices.find((price) => priceType(price.amount_type).billing === 'in_advance') ?? null;
}

/** A price a plan bills by usage, as the API shows it. */
export type UsagePrice = Extract<ProductPrice, { amount_type: 'metered_unit' }>;

/** The prices billed by usage after each period, in the order given. */
export function usagePricesOf(prices: readonly ProductPrice[]): UsagePrice[] {
  return prices.filter((price): price is UsagePrice => priceType(price.amount_type).billing === 'in_arrears');
}

/** The rows of the prices billed by usage, in the order given. */
export function storedUsagePricesOf<Price extends { amountType: string }>(prices: readonly Price[]): Price[] {
  return prices.filter((price) => priceType(price.amountType).billing === 'in_arrears');
}
