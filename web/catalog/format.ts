import type { Discount } from '../../domain/discounts/schemas';
import type { Product, ProductPrice } from '../../domain/products/schemas';
import { priceType, staticPriceOf, usagePricesOf } from '../../domain/prices/registry';
import { formatMoney, readMajorInput } from '../money/format';

export type DollarsRead = { cents: number | null; error: null } | { cents: null; error: string };

const DOLLARS_EXPECTED = 'Enter an amount in dollars, such as 9.99.';

/**
 * "12.5" dollars → 1250 cents; null for an empty field, or the sentence saying why the text is not
 * an amount. A leading "$" and thousands separators ("1,250.00") are allowed; more decimals than
 * the currency has ("10.999") are refused with the precision it allows, never rounded.
 */
export function readDollars(text: string, currency = 'usd'): DollarsRead {
  const trimmed = text.trim().replace(/^\$/, '');
  const ungrouped = /^\d{1,3}(,\d{3})+(\.\d*)?$/.test(trimmed) ? trimmed.replace(/,/g, '') : trimmed;
  if (/,/.test(ungrouped)) return { cents: null, error: DOLLARS_EXPECTED };
  const read = readMajorInput(ungrouped, currency, DOLLARS_EXPECTED);
  return read.error === null ? { cents: read.amount, error: null } : { cents: null, error: read.error };
}

/** A price as the seller reads it, in its own currency: "$20.00 / month", "$0.002 per unit of Tokens". */
export function describePrice(price: ProductPrice): string {
  return priceType(price.amount_type).words.terms(price, { money: formatMoney });
}

/**
 * What a product costs, for the seller choosing it: its fixed (or free, or pay-what-you-want)
 * price with the interval, and "plus usage" when it also has metered prices.
 */
export function describeProductPricing(
  product: Pick<Product, 'prices' | 'recurring_interval'> &
    Partial<Pick<Product, 'recurring_interval_count'>>,
): string {
  const main = staticPriceOf(product.prices);
  const hasUsage = usagePricesOf(product.prices).length > 0;
  const fixed = main
    ? priceType(main.amount_type).words.plan(
        main,
        product.recurring_interval,
        { money: formatMoney },
        product.recurring_interval_count ?? 1,
      )
    : null;
  if (!fixed) return hasUsage ? 'Usage only' : 'No price';
  return hasUsage ? `${fixed} plus usage` : fixed;
}

/** A product in a seller's list of choices: "Pro · $20.00 / month", "Pro yearly · $200.00 / year". */
export function productChoiceLabel(product: Pick<Product, 'name' | 'prices' | 'recurring_interval'>): string {
  return `${product.name} · ${describeProductPricing(product)}`;
}

/**
 * What a discount takes off and for how long, as plans are billed (the renewals drop a `once` or
 * `repeating` discount when its time is over): "20 % off a plan's first payment only".
 */
export function describeDiscountTerms(
  discount: Pick<
    Discount,
    'type' | 'basis_points' | 'amount' | 'currency' | 'duration' | 'duration_in_months'
  >,
): string {
  const value =
    discount.type === 'percentage'
      ? `${(discount.basis_points ?? 0) / 100} % off`
      : `${formatMoney(discount.amount ?? 0, discount.currency ?? 'usd')} off`;
  switch (discount.duration) {
    case 'once':
      return `${value} a plan's first payment only`;
    case 'repeating':
      return `${value} each payment of a plan's first ${discount.duration_in_months} months`;
    case 'forever':
      return `${value} every payment`;
  }
}
