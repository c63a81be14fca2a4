// What a discount takes off a price's amount: checkouts take it off the first payment, a plan's
// renewals and plan changes off each period's fees. Pure.
import { applyBasisPoints, assertMinorUnits } from '../money/rules.js';
import { DEFAULT_CURRENCY } from './limits.js';

/** The value of a discount; `DiscountTerms` (domain/discounts) fits. */
export type PriceDiscount = {
  type: 'fixed' | 'percentage';
  amount: number | null;
  currency: string | null;
  basisPoints: number | null;
};

/**
 * What a discount takes off `amount`. Percentages round half-up (`applyBasisPoints`); a fixed
 * discount is capped at the amount and takes nothing off an amount in another currency (Polar's
 * `is_applicable`; the service drops such a discount, this keeps money safe if it does not).
 */
export function discountAmountFor(discount: PriceDiscount, amount: number, currency: string): number {
  assertMinorUnits(amount, 'amount');
  if (discount.type === 'percentage') {
    if (discount.basisPoints === null) throw new RangeError('a percentage discount needs basis points');
    return Math.min(applyBasisPoints(amount, discount.basisPoints), amount);
  }
  if (discount.amount === null) throw new RangeError('a fixed discount needs an amount');
  if ((discount.currency ?? DEFAULT_CURRENCY).toLowerCase() !== currency.toLowerCase()) return 0;
  return Math.min(discount.amount, amount);
}
