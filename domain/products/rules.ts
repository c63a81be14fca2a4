// Price rules of Polar's API as of @polar-sh/sdk@0.33.2 (spec §3 Price, §5: amounts are integers in
// minor units, unit amounts decimal strings).

/**
 * Stripe's smallest charge in USD; Polar refuses fixed prices and pay-what-you-want minimums below
 * it, except a minimum of 0 ("free or pay what you want").
 */
export const MIN_PRICE_AMOUNT = 50;
export const MAX_PRICE_AMOUNT = 99_999_999;
/** Pay-what-you-want maximum and preset: $10,000, Polar's ceiling. */
export const MAX_CUSTOM_AMOUNT = 1_000_000;
/** Only USD, as Polar's API says ("Currently, only `usd` is supported"). */
export const SUPPORTED_CURRENCIES = ['usd'] as const;
/** Unit amounts are stored as numeric(17, 12): five integer digits, twelve decimals. */
export const UNIT_AMOUNT_DECIMALS = 12;
const UNIT_AMOUNT_INTEGER_DIGITS = 5;

export type AmountType = 'free' | 'fixed' | 'custom' | 'metered_unit';
export const STATIC_AMOUNT_TYPES: readonly AmountType[] = ['free', 'fixed', 'custom'];

/** Plain decimal notation of a number, without the exponent JavaScript uses for tiny or huge values. */
function plainDecimal(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  return value.toFixed(20);
}

/**
 * A unit amount in minor units as the canonical decimal string (`0.5`, `12`), or null when it is
 * not a positive decimal with at most 12 decimals and 5 integer digits.
 */
export function normalizeUnitAmount(value: number | string): string | null {
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  const text = typeof value === 'number' ? plainDecimal(value) : value.trim();
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return null;
  const integer = (match[1] ?? '').replace(/^0+(?=\d)/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > UNIT_AMOUNT_DECIMALS || integer.length > UNIT_AMOUNT_INTEGER_DIGITS) return null;
  if (/^0*$/.test(integer + fraction)) return null;
  return fraction ? `${integer}.${fraction}` : integer;
}

export type PriceIssue = { loc: (string | number)[]; message: string };

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

/**
 * The prices a product may have at once (Polar's rule): at least one, at most one static price
 * (free, fixed or custom) beside any number of metered prices, and metered prices only on
 * recurring products. `loc` indexes into the given list.
 */
export function priceSetIssues(
  prices: readonly { amount_type: AmountType }[],
  recurringInterval: 'month' | 'year' | null,
): PriceIssue[] {
  if (prices.length === 0) return [{ loc: [], message: 'A product needs at least one price.' }];
  const issues: PriceIssue[] = [];
  let staticSeen = false;
  for (const [index, price] of prices.entries()) {
    if (STATIC_AMOUNT_TYPES.includes(price.amount_type)) {
      if (staticSeen) {
        issues.push({
          loc: [index],
          message: 'A product may have only one static price (free, fixed or custom).',
        });
      }
      staticSeen = true;
    } else if (recurringInterval === null) {
      issues.push({
        loc: [index],
        message: 'Metered prices are not supported on one-time purchase products.',
      });
    }
  }
  return issues;
}

/**
 * The price a checkout of this product charges: its static price (free, fixed or custom), which
 * decides the amount, as Polar picks it. Null when the product has only metered prices, which
 * cannot be bought through a checkout on their own.
 */
export function selectCheckoutPrice<P extends { amountType: string }>(prices: readonly P[]): P | null {
  return prices.find((price) => price.amountType !== 'metered_unit') ?? null;
}
