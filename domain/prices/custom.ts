// A pay-what-you-want price: the buyer chooses the amount at checkout, within the seller's bounds;
// a plan keeps the amount chosen. Pure.
import { z } from 'zod';
import { minorUnitsSchema } from '../platform/schemas.js';
import {
  DEFAULT_CURRENCY,
  MAX_CUSTOM_AMOUNT,
  MAX_PRICE_AMOUNT,
  MIN_PRICE_AMOUNT,
  minimumChargeAmount,
} from './limits.js';
import { currencySchema, priceAmountSchema } from './schemas.js';
import { definePriceType, NO_COLUMNS, perInterval, type ChargeIssue, type PriceIssue } from './strategy.js';

/**
 * The pay-what-you-want amount when the seller set neither a preset nor a non-zero minimum: $10,
 * Polar's `CUSTOM_PRICE_PRESET_FALLBACK`.
 */
const CUSTOM_AMOUNT_FALLBACK = 1000;

const customBoundSchema = priceAmountSchema.max(MAX_CUSTOM_AMOUNT).nullable().optional();
/**
 * Polar's pay-what-you-want minimum: 0 makes the price "free or pay what you want" (the checkout
 * then takes 0 or a chargeable amount); any other minimum must itself be chargeable.
 */
const customMinimumSchema = minorUnitsSchema()
  .min(0)
  .max(MAX_PRICE_AMOUNT)
  .refine((amount) => amount === 0 || amount >= MIN_PRICE_AMOUNT, {
    message: `The minimum amount must be 0 (free or pay what you want) or at least ${MIN_PRICE_AMOUNT}.`,
  });

/** Pay-what-you-want bounds must leave room to pay: minimum ≤ preset ≤ maximum. */
export function customPriceIssues(price: {
  minimum_amount?: number | null;
  maximum_amount?: number | null;
  preset_amount?: number | null;
}): PriceIssue[] {
  const { minimum_amount: minimum, maximum_amount: maximum, preset_amount: preset } = price;
  const issues: PriceIssue[] = [];
  if (minimum != null && maximum != null && minimum > maximum) {
    issues.push({
      loc: ['maximum_amount'],
      message: 'The maximum amount must be at least the minimum amount.',
    });
  }
  if (preset != null && minimum != null && preset < minimum) {
    issues.push({
      loc: ['preset_amount'],
      message: 'The preset amount must be at least the minimum amount.',
    });
  }
  if (preset != null && maximum != null && preset > maximum) {
    issues.push({ loc: ['preset_amount'], message: 'The preset amount must be at most the maximum amount.' });
  }
  return issues;
}

/** What of a custom price a checkout's amount depends on. */
export type CustomCharge = {
  amountType: 'custom';
  currency: string;
  minimumAmount: number | null;
  maximumAmount: number | null;
  presetAmount: number | null;
};

/**
 * The smallest amount a buyer may pay for a custom price other than zero: the seller's minimum,
 * but never below what the processor can charge. A minimum of 0 makes the price "free or pay what
 * you want" (Polar): 0 itself is then accepted, amounts between 1 and the currency's minimum
 * charge are not, because Stripe refuses to charge them.
 */
function smallestChargeableAmount(price: CustomCharge): number {
  return Math.max(price.minimumAmount ?? 0, minimumChargeAmount(price.currency));
}

function largestAmount(price: CustomCharge): number {
  return price.maximumAmount ?? MAX_PRICE_AMOUNT;
}

/**
 * The amount a pay-what-you-want checkout starts at when the buyer has not chosen one: the preset,
 * else the minimum when it is above zero, else $10 (Polar's fallback), kept within the bounds so
 * the starting amount is always one the buyer could have typed.
 */
export function defaultCustomAmount(price: CustomCharge): number {
  if (price.presetAmount !== null) return price.presetAmount;
  if (price.minimumAmount !== null && price.minimumAmount > 0) return price.minimumAmount;
  return Math.min(Math.max(CUSTOM_AMOUNT_FALLBACK, smallestChargeableAmount(price)), largestAmount(price));
}

/** What is wrong with a pay-what-you-want amount (`amount` on checkout create/update/confirm). */
function customAmountIssue(price: CustomCharge, requested: number): ChargeIssue | null {
  const loc = ['body', 'amount'];
  if (!Number.isSafeInteger(requested)) {
    return { loc, msg: 'Input should be a valid integer', type: 'int_type' };
  }
  if (requested === 0 && price.minimumAmount === 0) return null;
  const smallest = smallestChargeableAmount(price);
  if (requested < smallest) {
    const msg =
      price.minimumAmount !== null && price.minimumAmount >= smallest
        ? `Amount is below the minimum of ${smallest}.`
        : price.minimumAmount === 0
          ? `Amount must be 0 or at least ${smallest}, the smallest charge in ${price.currency.toUpperCase()}.`
          : `Amount must be at least ${smallest}, the smallest charge in ${price.currency.toUpperCase()}.`;
    return { loc, msg, type: 'greater_than_equal' };
  }
  const largest = largestAmount(price);
  if (requested > largest) {
    return { loc, msg: `Amount is above the maximum of ${largest}.`, type: 'less_than_equal' };
  }
  return null;
}

export const customPrice = definePriceType({
  amountType: 'custom',
  schemas: {
    view: {
      price_currency: z.string(),
      minimum_amount: z.number().int().nullable(),
      maximum_amount: z.number().int().nullable(),
      preset_amount: z.number().int().nullable(),
    },
    create: {
      price_currency: currencySchema,
      minimum_amount: customMinimumSchema.nullable().optional(),
      maximum_amount: customBoundSchema,
      preset_amount: customBoundSchema,
    },
  },
  view: (row) => ({
    price_currency: row.priceCurrency,
    minimum_amount: row.minimumAmount,
    maximum_amount: row.maximumAmount,
    preset_amount: row.presetAmount,
  }),
  columns: (price) => ({
    ...NO_COLUMNS,
    priceCurrency: price.price_currency,
    minimumAmount: price.minimum_amount ?? null,
    maximumAmount: price.maximum_amount ?? null,
    presetAmount: price.preset_amount ?? null,
  }),
  issues: customPriceIssues,
  meterId: () => null,
  billing: 'in_advance',
  checkout: {
    price: (row): CustomCharge => ({
      amountType: 'custom',
      currency: row.priceCurrency ?? DEFAULT_CURRENCY,
      minimumAmount: row.minimumAmount,
      maximumAmount: row.maximumAmount,
      presetAmount: row.presetAmount,
    }),
    currency: (price) => price.currency.toLowerCase(),
    takesBuyerAmount: true,
    buyerAmount: (price) => ({ minimum: price.minimum_amount, maximum: price.maximum_amount }),
    amountIssue: customAmountIssue,
    takesSeats: false,
    seatRange: () => null,
    defaultSeats: () => null,
    seatsIssue: () => null,
    amount: (price, requested) => {
      if (requested !== null) {
        const issue = customAmountIssue(price, requested);
        if (issue) throw new RangeError(`requested amount ${requested}: ${issue.msg}`);
      }
      return requested ?? defaultCustomAmount(price);
    },
    isFree: false,
  },
  cycle: {
    usage: () => null,
    planChange: () => ({
      refusal: 'A pay-what-you-want product cannot be switched to; the buyer chooses its amount at checkout.',
    }),
    currency: (row) => row.priceCurrency?.toLowerCase() ?? null,
  },
  words: {
    label: 'Pay what you want',
    terms: (price, format) => {
      const money = (amount: number) => format.money(amount, price.price_currency);
      const bounds = [
        price.minimum_amount === null ? null : `min ${money(price.minimum_amount)}`,
        price.maximum_amount === null ? null : `max ${money(price.maximum_amount)}`,
        price.preset_amount === null ? null : `suggested ${money(price.preset_amount)}`,
      ].filter(Boolean);
      return `Pay what you want${bounds.length ? ` (${bounds.join(', ')})` : ''}${perInterval(price.recurring_interval)}`;
    },
    plan: (_price, interval, _format, count) => `Pay what you want${perInterval(interval, count)}`,
    checkout: (price, format) =>
      price.minimum_amount
        ? `Pay what you want, from ${format.money(price.minimum_amount, price.price_currency)}`
        : 'Pay what you want',
    isPerPeriod: false,
    seatMath: () => [],
  },
  editor: {
    fields: [
      { draft: 'minimum', wire: 'minimum_amount', label: 'minimum (USD)', kind: 'dollars', required: false },
      { draft: 'maximum', wire: 'maximum_amount', label: 'maximum (USD)', kind: 'dollars', required: false },
      {
        draft: 'preset',
        wire: 'preset_amount',
        label: 'suggested amount (USD)',
        kind: 'dollars',
        required: false,
      },
    ],
  },
});
