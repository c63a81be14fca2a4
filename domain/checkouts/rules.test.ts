import { describe, expect, it } from '@jest/globals';
import {
  discountApplicability,
  type DiscountContext,
  type DiscountRedemptionTerms,
} from '../discounts/rules.js';
import { defaultCustomAmount } from '../prices/custom.js';
import { discountAmountFor } from '../prices/discount.js';
import { MAX_PRICE_AMOUNT, minimumChargeAmount } from '../prices/limits.js';
import type { CheckoutPrice } from '../prices/registry.js';
import {
  billingAddressIssues,
  checkoutAmounts,
  checkoutPriceOf,
  checkoutSubtotals,
  customAmountIssue,
  customerBillingAddressFields,
  isBillingAddressRequired,
  isPriceDiscountable,
  minimumChargeIssue,
  selectCheckoutPrice,
  withTax,
  withoutRefusedPrefills,
  type CheckoutDiscount,
} from './rules.js';

const free: CheckoutPrice = { amountType: 'free' };

function fixedPrice(priceAmount: number, currency = 'usd'): CheckoutPrice {
  return { amountType: 'fixed', currency, priceAmount };
}

function customPrice(
  overrides: Partial<Omit<Extract<CheckoutPrice, { amountType: 'custom' }>, 'amountType'>> = {},
): Extract<CheckoutPrice, { amountType: 'custom' }> {
  return {
    amountType: 'custom',
    currency: 'usd',
    minimumAmount: null,
    maximumAmount: null,
    presetAmount: null,
    ...overrides,
  };
}

function percentOff(basisPoints: number): CheckoutDiscount {
  return { type: 'percentage', basisPoints, amount: null, currency: null };
}

function amountOff(amount: number, currency: string | null = 'usd'): CheckoutDiscount {
  return { type: 'fixed', amount, currency, basisPoints: null };
}

const subtotalsOf = (
  price: CheckoutPrice,
  discount: CheckoutDiscount | null = null,
  requestedAmount = null,
) => checkoutSubtotals({ price, discount, requestedAmount });

describe('minimumChargeAmount', () => {
  it("answers Stripe's smallest charge per currency, in minor units", () => {
    expect(minimumChargeAmount('usd')).toBe(50);
    expect(minimumChargeAmount('USD')).toBe(50);
    expect(minimumChargeAmount('eur')).toBe(50);
    expect(minimumChargeAmount('gbp')).toBe(30);
    // Zero-decimal: ¥50 is 50 minor units.
    expect(minimumChargeAmount('jpy')).toBe(50);
    expect(minimumChargeAmount('huf')).toBe(17_500);
  });

  it("falls back to USD's minimum for a currency Stripe does not list", () => {
    expect(minimumChargeAmount('xyz')).toBe(50);
  });
});

describe('minimumChargeIssue', () => {
  it('accepts a zero total (nothing is charged) and totals from the minimum charge up', () => {
    expect(minimumChargeIssue(0, 'usd')).toBeNull();
    expect(minimumChargeIssue(50, 'usd')).toBeNull();
    expect(minimumChargeIssue(30, 'gbp')).toBeNull();
  });

  it('refuses a total the processor could not charge', () => {
    expect(minimumChargeIssue(1, 'usd')).toBe(
      'The total must be 0 or at least 50, the smallest charge in USD.',
    );
    expect(minimumChargeIssue(49, 'usd')).not.toBeNull();
    expect(minimumChargeIssue(29, 'gbp')).toMatch(/at least 30/);
    expect(minimumChargeIssue(49, 'jpy')).toMatch(/JPY/);
  });
});

describe('checkoutPriceOf and selectCheckoutPrice', () => {
  const none = {
    priceCurrency: 'usd',
    priceAmount: null,
    minimumAmount: null,
    maximumAmount: null,
    presetAmount: null,
  };
  const storedFree = { ...none, amountType: 'free', priceCurrency: null };
  const storedFixed = { ...none, amountType: 'fixed', priceAmount: 1500 };
  const storedCustom = {
    ...none,
    amountType: 'custom',
    minimumAmount: 100,
    maximumAmount: 9000,
    presetAmount: 500,
  };
  const storedMetered = { ...none, amountType: 'metered_unit' };

  it('reads every amount type of a stored price', () => {
    expect(checkoutPriceOf(storedFree)).toEqual({ amountType: 'free' });
    expect(checkoutPriceOf(storedFixed)).toEqual({ amountType: 'fixed', currency: 'usd', priceAmount: 1500 });
    expect(checkoutPriceOf(storedCustom)).toEqual({
      amountType: 'custom',
      currency: 'usd',
      minimumAmount: 100,
      maximumAmount: 9000,
      presetAmount: 500,
    });
    expect(checkoutPriceOf(storedMetered)).toEqual({ amountType: 'metered_unit', currency: 'usd' });
  });

  it('picks the static price, and none when only metered prices are left', () => {
    expect(selectCheckoutPrice([storedMetered, storedFixed])).toBe(storedFixed);
    expect(selectCheckoutPrice([storedCustom, storedMetered])).toBe(storedCustom);
    expect(selectCheckoutPrice([storedFree])).toBe(storedFree);
    expect(selectCheckoutPrice([storedMetered])).toBeNull();
    expect(selectCheckoutPrice([])).toBeNull();
  });
});

describe('defaultCustomAmount', () => {
  it('starts at the preset, else a non-zero minimum, else $10', () => {
    expect(defaultCustomAmount(customPrice({ presetAmount: 2500, minimumAmount: 1000 }))).toBe(2500);
    expect(defaultCustomAmount(customPrice({ minimumAmount: 700 }))).toBe(700);
    expect(defaultCustomAmount(customPrice())).toBe(1000);
    // "Free or pay what you want": 0 is allowed but is not suggested.
    expect(defaultCustomAmount(customPrice({ minimumAmount: 0 }))).toBe(1000);
    expect(defaultCustomAmount(customPrice({ minimumAmount: 0, presetAmount: 0 }))).toBe(0);
  });

  it('keeps the $10 fallback inside the maximum and above the currency minimum', () => {
    expect(defaultCustomAmount(customPrice({ maximumAmount: 700 }))).toBe(700);
    expect(defaultCustomAmount(customPrice({ currency: 'jpy' }))).toBe(1000);
    expect(defaultCustomAmount(customPrice({ currency: 'huf' }))).toBe(17_500);
    expect(defaultCustomAmount(customPrice({ currency: 'huf', maximumAmount: 20_000 }))).toBe(17_500);
  });

  it('gives amounts that pass customAmountIssue', () => {
    for (const price of [
      customPrice(),
      customPrice({ minimumAmount: 0 }),
      customPrice({ maximumAmount: 700 }),
      customPrice({ minimumAmount: 2000, maximumAmount: 5000 }),
      customPrice({ currency: 'huf' }),
      customPrice({ currency: 'gbp', minimumAmount: 0, maximumAmount: 400 }),
    ]) {
      expect(customAmountIssue(price, defaultCustomAmount(price))).toBeNull();
    }
  });
});

describe('customAmountIssue', () => {
  const loc = ['body', 'amount'];

  it('has nothing to say about prices that ignore the amount', () => {
    expect(customAmountIssue(fixedPrice(1000), 1)).toBeNull();
    expect(customAmountIssue(free, 123)).toBeNull();
    expect(customAmountIssue({ amountType: 'metered_unit', currency: 'usd' }, 5)).toBeNull();
  });

  it('accepts amounts within the bounds, both bounds included', () => {
    const price = customPrice({ minimumAmount: 500, maximumAmount: 5000 });
    expect(customAmountIssue(price, 500)).toBeNull();
    expect(customAmountIssue(price, 2500)).toBeNull();
    expect(customAmountIssue(price, 5000)).toBeNull();
  });

  it('refuses an amount below the minimum or above the maximum', () => {
    const price = customPrice({ minimumAmount: 500, maximumAmount: 5000 });
    expect(customAmountIssue(price, 499)).toEqual({
      loc,
      msg: 'Amount is below the minimum of 500.',
      type: 'greater_than_equal',
    });
    expect(customAmountIssue(price, 0)?.type).toBe('greater_than_equal');
    expect(customAmountIssue(price, -1)?.type).toBe('greater_than_equal');
    expect(customAmountIssue(price, 5001)).toEqual({
      loc,
      msg: 'Amount is above the maximum of 5000.',
      type: 'less_than_equal',
    });
  });

  it("holds amounts without a seller minimum to the currency's smallest charge, and no maximum to the catalog's", () => {
    const price = customPrice();
    expect(customAmountIssue(price, 0)?.msg).toBe('Amount must be at least 50, the smallest charge in USD.');
    expect(customAmountIssue(price, 49)?.type).toBe('greater_than_equal');
    expect(customAmountIssue(price, 50)).toBeNull();
    expect(customAmountIssue(price, MAX_PRICE_AMOUNT)).toBeNull();
    expect(customAmountIssue(price, MAX_PRICE_AMOUNT + 1)?.type).toBe('less_than_equal');
  });

  it('never lets a seller minimum below the smallest charge through', () => {
    expect(customAmountIssue(customPrice({ minimumAmount: 10 }), 10)?.msg).toBe(
      'Amount must be at least 50, the smallest charge in USD.',
    );
  });

  it('accepts 0 on a "free or pay what you want" price, then the smallest charge and up', () => {
    const price = customPrice({ minimumAmount: 0 });
    expect(customAmountIssue(price, 0)).toBeNull();
    expect(customAmountIssue(price, 1)).toEqual({
      loc,
      msg: 'Amount must be 0 or at least 50, the smallest charge in USD.',
      type: 'greater_than_equal',
    });
    expect(customAmountIssue(price, 49)).not.toBeNull();
    expect(customAmountIssue(price, 50)).toBeNull();
  });

  it('uses the minimum charge of the price currency, zero-decimal ones included', () => {
    expect(customAmountIssue(customPrice({ currency: 'jpy' }), 49)?.msg).toMatch(
      /50, the smallest charge in JPY/,
    );
    expect(customAmountIssue(customPrice({ currency: 'jpy' }), 50)).toBeNull();
    expect(customAmountIssue(customPrice({ currency: 'gbp' }), 30)).toBeNull();
    expect(customAmountIssue(customPrice({ currency: 'gbp' }), 29)).not.toBeNull();
    expect(customAmountIssue(customPrice({ currency: 'huf' }), 17_499)).not.toBeNull();
  });

  it('refuses amounts that are not integers', () => {
    const issue = { loc, msg: 'Input should be a valid integer', type: 'int_type' };
    expect(customAmountIssue(customPrice(), 100.5)).toEqual(issue);
    expect(customAmountIssue(customPrice(), Number.NaN)).toEqual(issue);
    expect(customAmountIssue(customPrice(), Number.POSITIVE_INFINITY)).toEqual(issue);
  });
});

describe('discountAmountFor', () => {
  it('takes a percentage of the amount, ties rounded up', () => {
    expect(discountAmountFor(percentOff(1000), 2000, 'usd')).toBe(200);
    expect(discountAmountFor(percentOff(5000), 1, 'usd')).toBe(1);
    expect(discountAmountFor(percentOff(4999), 1, 'usd')).toBe(0);
    expect(discountAmountFor(percentOff(5000), 3, 'usd')).toBe(2);
    expect(discountAmountFor(percentOff(2500), 50, 'usd')).toBe(13);
    expect(discountAmountFor(percentOff(10_000), 1999, 'usd')).toBe(1999);
    expect(discountAmountFor(percentOff(1000), 0, 'usd')).toBe(0);
  });

  it('takes the same share of a zero-decimal amount', () => {
    expect(discountAmountFor(percentOff(1500), 1000, 'jpy')).toBe(150);
    expect(discountAmountFor(percentOff(1000), 333, 'jpy')).toBe(33);
    expect(discountAmountFor(percentOff(1000), 335, 'jpy')).toBe(34);
  });

  it('caps a fixed discount at the amount', () => {
    expect(discountAmountFor(amountOff(500), 2000, 'usd')).toBe(500);
    expect(discountAmountFor(amountOff(500), 500, 'usd')).toBe(500);
    expect(discountAmountFor(amountOff(500), 300, 'usd')).toBe(300);
    expect(discountAmountFor(amountOff(500), 1, 'usd')).toBe(1);
    expect(discountAmountFor(amountOff(1), 1, 'usd')).toBe(1);
    expect(discountAmountFor(amountOff(500), 0, 'usd')).toBe(0);
  });

  it('takes nothing off in another currency; currency codes compare case-insensitively', () => {
    expect(discountAmountFor(amountOff(500, 'eur'), 2000, 'usd')).toBe(0);
    expect(discountAmountFor(amountOff(500, 'USD'), 2000, 'usd')).toBe(500);
    expect(discountAmountFor(amountOff(500, 'usd'), 2000, 'USD')).toBe(500);
    expect(discountAmountFor(amountOff(500, null), 2000, 'usd')).toBe(500);
    expect(discountAmountFor(amountOff(500, null), 2000, 'jpy')).toBe(0);
  });

  it('throws on terms without their value and on a bad amount', () => {
    expect(() => discountAmountFor({ ...percentOff(1000), basisPoints: null }, 100, 'usd')).toThrow(
      RangeError,
    );
    expect(() => discountAmountFor({ ...amountOff(100), amount: null }, 100, 'usd')).toThrow(RangeError);
    expect(() => discountAmountFor(percentOff(1000), -5, 'usd')).toThrow(RangeError);
  });
});

describe('checkoutSubtotals', () => {
  it('charges a fixed price in full without a discount', () => {
    expect(subtotalsOf(fixedPrice(1999))).toEqual({
      currency: 'usd',
      amount: 1999,
      discountAmount: 0,
      netAmount: 1999,
      isDiscountApplicable: true,
      isFreeProductPrice: false,
      isPaymentRequired: true,
      isPaymentSetupRequired: false,
      isPaymentFormRequired: true,
    });
  });

  it('takes the currency of the price, lower-cased, and USD for a free price', () => {
    expect(subtotalsOf(fixedPrice(1000, 'EUR')).currency).toBe('eur');
    expect(subtotalsOf(free).currency).toBe('usd');
  });

  it('charges nothing for a free price, which takes no discount', () => {
    expect(subtotalsOf(free, percentOff(5000))).toEqual({
      currency: 'usd',
      amount: 0,
      discountAmount: 0,
      netAmount: 0,
      isDiscountApplicable: false,
      isFreeProductPrice: true,
      isPaymentRequired: false,
      isPaymentSetupRequired: false,
      isPaymentFormRequired: false,
    });
    expect(isPriceDiscountable(free)).toBe(false);
    expect(isPriceDiscountable(fixedPrice(1))).toBe(true);
    expect(isPriceDiscountable(customPrice())).toBe(true);
  });

  it('charges the requested pay-what-you-want amount, or the default one', () => {
    const price = customPrice({ minimumAmount: 500, presetAmount: 1500 });
    expect(checkoutSubtotals({ price, requestedAmount: 2200, discount: null }).amount).toBe(2200);
    expect(checkoutSubtotals({ price, requestedAmount: null, discount: null }).amount).toBe(1500);
    expect(checkoutSubtotals({ price: customPrice(), requestedAmount: null, discount: null }).amount).toBe(
      1000,
    );
  });

  it('asks no payment for a custom price paid 0, which is still not a free price', () => {
    const subtotals = checkoutSubtotals({
      price: customPrice({ minimumAmount: 0 }),
      requestedAmount: 0,
      discount: percentOff(1000),
    });
    expect(subtotals).toMatchObject({
      amount: 0,
      discountAmount: 0,
      netAmount: 0,
      isDiscountApplicable: true,
      isFreeProductPrice: false,
      isPaymentRequired: false,
      isPaymentFormRequired: false,
    });
  });

  it('discounts pay-what-you-want amounts too', () => {
    const subtotals = checkoutSubtotals({
      price: customPrice(),
      requestedAmount: 2000,
      discount: percentOff(1000),
    });
    expect(subtotals).toMatchObject({ amount: 2000, discountAmount: 200, netAmount: 1800 });
  });

  it('nets the discount off the amount', () => {
    expect(subtotalsOf(fixedPrice(2000), percentOff(2500))).toMatchObject({
      amount: 2000,
      discountAmount: 500,
      netAmount: 1500,
      isPaymentRequired: true,
    });
    expect(subtotalsOf(fixedPrice(2000), amountOff(750))).toMatchObject({
      discountAmount: 750,
      netAmount: 1250,
    });
  });

  it('asks no payment when the discount covers everything', () => {
    for (const discount of [percentOff(10_000), amountOff(2000), amountOff(5000)]) {
      expect(subtotalsOf(fixedPrice(2000), discount)).toMatchObject({
        discountAmount: 2000,
        netAmount: 0,
        isPaymentRequired: false,
        isPaymentFormRequired: false,
      });
    }
  });

  it('handles a one-minor-unit price', () => {
    expect(subtotalsOf(fixedPrice(1), percentOff(5000))).toMatchObject({ discountAmount: 1, netAmount: 0 });
    expect(subtotalsOf(fixedPrice(1), percentOff(4999))).toMatchObject({ discountAmount: 0, netAmount: 1 });
    expect(subtotalsOf(fixedPrice(1), amountOff(100))).toMatchObject({ discountAmount: 1, netAmount: 0 });
  });

  it('ignores a fixed discount in another currency', () => {
    expect(subtotalsOf(fixedPrice(2000, 'usd'), amountOff(500, 'eur'))).toMatchObject({
      discountAmount: 0,
      netAmount: 2000,
    });
  });

  it('computes zero-decimal currencies like any other', () => {
    expect(subtotalsOf(fixedPrice(1000, 'jpy'), percentOff(1500))).toMatchObject({
      currency: 'jpy',
      amount: 1000,
      discountAmount: 150,
      netAmount: 850,
    });
    expect(subtotalsOf(fixedPrice(1000, 'jpy'), amountOff(300, 'jpy'))).toMatchObject({ netAmount: 700 });
  });

  it('asks recurring products for a payment method even when nothing is due now', () => {
    const discounted = checkoutSubtotals({
      price: fixedPrice(1000),
      requestedAmount: null,
      discount: percentOff(10_000),
      isRecurring: true,
    });
    expect(discounted).toMatchObject({
      isPaymentRequired: false,
      isPaymentSetupRequired: true,
      isPaymentFormRequired: true,
    });
    const freeRecurring = checkoutSubtotals({
      price: free,
      requestedAmount: null,
      discount: null,
      isRecurring: true,
    });
    expect(freeRecurring).toMatchObject({ isPaymentSetupRequired: false, isPaymentFormRequired: false });
  });

  it('throws instead of pricing a metered price or an amount that was not validated', () => {
    expect(() => subtotalsOf({ amountType: 'metered_unit', currency: 'usd' })).toThrow(/metered/);
    expect(() =>
      checkoutSubtotals({
        price: customPrice({ maximumAmount: 1000 }),
        requestedAmount: 1001,
        discount: null,
      }),
    ).toThrow(RangeError);
    expect(() => checkoutSubtotals({ price: customPrice(), requestedAmount: 10, discount: null })).toThrow(
      RangeError,
    );
  });

  it('ignores a requested amount on a fixed price', () => {
    expect(checkoutSubtotals({ price: fixedPrice(1000), requestedAmount: 5, discount: null }).amount).toBe(
      1000,
    );
  });
});

describe('withTax and checkoutAmounts', () => {
  it('adds the tax to the net amount', () => {
    expect(
      checkoutAmounts({
        price: fixedPrice(1000),
        requestedAmount: null,
        discount: percentOff(1000),
        taxAmount: 171,
      }),
    ).toEqual({
      currency: 'usd',
      amount: 1000,
      discountAmount: 100,
      netAmount: 900,
      taxAmount: 171,
      totalAmount: 1071,
      isDiscountApplicable: true,
      isFreeProductPrice: false,
      isPaymentRequired: true,
      isPaymentSetupRequired: false,
      isPaymentFormRequired: true,
    });
  });

  it('keeps an unknown tax null and counts it as 0 in the total', () => {
    const amounts = withTax(subtotalsOf(fixedPrice(1000)), null);
    expect(amounts).toMatchObject({ taxAmount: null, totalAmount: 1000, isPaymentRequired: true });
  });

  it('taxes nothing when there is no payment form', () => {
    expect(withTax(subtotalsOf(free), 50)).toMatchObject({
      taxAmount: 0,
      totalAmount: 0,
      isPaymentRequired: false,
    });
    expect(withTax(subtotalsOf(free), null)).toMatchObject({ taxAmount: 0, totalAmount: 0 });
    expect(withTax(subtotalsOf(fixedPrice(1000), percentOff(10_000)), null)).toMatchObject({
      taxAmount: 0,
      totalAmount: 0,
      isPaymentRequired: false,
    });
  });

  it('keeps a zero tax on a taxed checkout', () => {
    expect(withTax(subtotalsOf(fixedPrice(1000)), 0)).toMatchObject({ taxAmount: 0, totalAmount: 1000 });
  });

  it('refuses a tax that is not an amount', () => {
    expect(() => withTax(subtotalsOf(fixedPrice(1000)), -1)).toThrow(RangeError);
    expect(() => withTax(subtotalsOf(fixedPrice(1000)), 1.5)).toThrow(RangeError);
  });
});

describe('discountApplicability', () => {
  const now = new Date('2026-06-15T12:00:00.000Z');
  const productId = '00000000-0000-4000-8000-0000000000aa';
  const terms = (overrides: Partial<DiscountRedemptionTerms> = {}): DiscountRedemptionTerms => ({
    type: 'percentage',
    currency: null,
    duration: 'once',
    startsAt: null,
    endsAt: null,
    maxRedemptions: null,
    productIds: [],
    ...overrides,
  });
  const context = (overrides: Partial<DiscountContext> = {}): DiscountContext => ({
    productId,
    currency: 'usd',
    now,
    redemptionsCount: 0,
    ...overrides,
  });
  const reasonOf = (discount: DiscountRedemptionTerms, ctx: DiscountContext = context()) => {
    const result = discountApplicability(discount, ctx);
    return result.isApplicable ? null : result.reason;
  };

  it('applies a discount without limits', () => {
    expect(discountApplicability(terms(), context())).toEqual({ isApplicable: true });
  });

  it('applies from starts_at on, the instant itself included', () => {
    expect(reasonOf(terms({ startsAt: now }))).toBeNull();
    expect(reasonOf(terms({ startsAt: new Date(now.getTime() - 1) }))).toBeNull();
    expect(reasonOf(terms({ startsAt: new Date(now.getTime() + 1) }))).toBe('not_started');
  });

  it('applies until ends_at, the instant itself included', () => {
    expect(reasonOf(terms({ endsAt: now }))).toBeNull();
    expect(reasonOf(terms({ endsAt: new Date(now.getTime() + 1) }))).toBeNull();
    expect(reasonOf(terms({ endsAt: new Date(now.getTime() - 1) }))).toBe('ended');
  });

  it('applies while fewer than max_redemptions were made', () => {
    expect(reasonOf(terms({ maxRedemptions: 3 }), context({ redemptionsCount: 2 }))).toBeNull();
    expect(reasonOf(terms({ maxRedemptions: 3 }), context({ redemptionsCount: 3 }))).toBe('exhausted');
    expect(reasonOf(terms({ maxRedemptions: 1 }), context({ redemptionsCount: 4 }))).toBe('exhausted');
    expect(reasonOf(terms(), context({ redemptionsCount: 1_000_000 }))).toBeNull();
  });

  it('applies only to the products it is restricted to', () => {
    expect(reasonOf(terms({ productIds: [productId] }))).toBeNull();
    expect(reasonOf(terms({ productIds: ['00000000-0000-4000-8000-0000000000bb', productId] }))).toBeNull();
    expect(reasonOf(terms({ productIds: ['00000000-0000-4000-8000-0000000000bb'] }))).toBe('other_product');
  });

  it('applies a fixed discount only in its currency; a percentage in any', () => {
    expect(reasonOf(terms({ type: 'fixed', currency: 'usd' }))).toBeNull();
    expect(reasonOf(terms({ type: 'fixed', currency: 'USD' }))).toBeNull();
    expect(reasonOf(terms({ type: 'fixed', currency: 'eur' }))).toBe('other_currency');
    expect(reasonOf(terms({ type: 'fixed', currency: null }), context({ currency: 'jpy' }))).toBe(
      'other_currency',
    );
    expect(reasonOf(terms({ type: 'percentage' }), context({ currency: 'jpy' }))).toBeNull();
  });

  it('refuses a repeating discount on a one-time product', () => {
    expect(reasonOf(terms({ duration: 'repeating' }))).toBe('repeating_on_one_time');
    expect(reasonOf(terms({ duration: 'repeating' }), context({ isRecurring: true }))).toBeNull();
    expect(reasonOf(terms({ duration: 'forever' }))).toBeNull();
  });

  it('answers the first reason, with a message', () => {
    const result = discountApplicability(
      terms({ startsAt: new Date(now.getTime() + 1), maxRedemptions: 1, productIds: ['other'] }),
      context({ redemptionsCount: 1 }),
    );
    expect(result).toEqual({
      isApplicable: false,
      reason: 'not_started',
      message: 'This discount is not valid yet.',
    });
    for (const discount of [
      terms({ endsAt: new Date(0) }),
      terms({ maxRedemptions: 0 }),
      terms({ productIds: ['other'] }),
      terms({ type: 'fixed', currency: 'eur' }),
      terms({ duration: 'repeating' }),
    ]) {
      const refused = discountApplicability(discount, context());
      expect(refused.isApplicable).toBe(false);
      if (!refused.isApplicable) expect(refused.message.length).toBeGreaterThan(0);
    }
  });
});

describe('customerBillingAddressFields', () => {
  const countryOnly = {
    country: true,
    state: false,
    city: false,
    postal_code: false,
    line1: false,
    line2: false,
  };
  const full = { country: true, state: false, city: true, postal_code: true, line1: true, line2: false };

  it('asks only the country by default', () => {
    expect(customerBillingAddressFields({ country: null, requireBillingAddress: false })).toEqual(
      countryOnly,
    );
    expect(customerBillingAddressFields({ country: 'DE', requireBillingAddress: false })).toEqual(
      countryOnly,
    );
  });

  it('asks a US buyer for the full address and state', () => {
    expect(customerBillingAddressFields({ country: 'US', requireBillingAddress: false })).toEqual({
      ...full,
      state: true,
    });
    expect(customerBillingAddressFields({ country: 'us', requireBillingAddress: false }).line1).toBe(true);
  });

  it('asks a Canadian buyer for the province only, unless the full address is required', () => {
    expect(customerBillingAddressFields({ country: 'CA', requireBillingAddress: false })).toEqual({
      ...countryOnly,
      state: true,
    });
    expect(customerBillingAddressFields({ country: 'CA', requireBillingAddress: true })).toEqual({
      ...full,
      state: true,
    });
  });

  it('asks for the full address when the seller requires it or the buyer is a business', () => {
    expect(customerBillingAddressFields({ country: 'DE', requireBillingAddress: true })).toEqual(full);
    expect(customerBillingAddressFields({ country: null, requireBillingAddress: true })).toEqual(full);
    expect(
      customerBillingAddressFields({ country: 'FR', requireBillingAddress: false, isBusinessCustomer: true }),
    ).toEqual(full);
  });
});

describe('isBillingAddressRequired', () => {
  it('requires an address to pay, or when the full address is asked for', () => {
    const none = { isPaymentFormRequired: false, requireBillingAddress: false };
    expect(isBillingAddressRequired(none)).toBe(false);
    expect(isBillingAddressRequired({ ...none, isPaymentFormRequired: true })).toBe(true);
    expect(isBillingAddressRequired({ ...none, requireBillingAddress: true })).toBe(true);
    expect(isBillingAddressRequired({ ...none, isBusinessCustomer: true })).toBe(true);
  });
});

describe('billingAddressIssues', () => {
  const base = ['body', 'customer_billing_address'];
  const usFields = customerBillingAddressFields({ country: 'US', requireBillingAddress: false });
  const usAddress = {
    country: 'US',
    state: 'CA',
    city: 'San Francisco',
    postal_code: '94103',
    line1: '1 Main St',
  };

  it('accepts an address with every required field', () => {
    expect(billingAddressIssues(usAddress, usFields)).toEqual([]);
    expect(
      billingAddressIssues(
        { country: 'DE' },
        customerBillingAddressFields({ country: 'DE', requireBillingAddress: false }),
      ),
    ).toEqual([]);
  });

  it('names each missing or blank required field', () => {
    expect(
      billingAddressIssues({ ...usAddress, city: '  ', line1: null, postal_code: undefined }, usFields),
    ).toEqual([
      { loc: [...base, 'city'], msg: 'Field is required.', type: 'missing' },
      { loc: [...base, 'postal_code'], msg: 'Field is required.', type: 'missing' },
      { loc: [...base, 'line1'], msg: 'Field is required.', type: 'missing' },
    ]);
    expect(
      billingAddressIssues(
        { country: '' },
        customerBillingAddressFields({ country: null, requireBillingAddress: false }),
      ),
    ).toEqual([{ loc: [...base, 'country'], msg: 'Field is required.', type: 'missing' }]);
  });

  it('asks for the address itself when there is none', () => {
    expect(billingAddressIssues(null, usFields)).toEqual([
      { loc: base, msg: 'Field is required.', type: 'missing' },
    ]);
  });

  it('refuses a state that is not one in the US or Canada', () => {
    expect(billingAddressIssues({ ...usAddress, state: 'Calif' }, usFields)).toEqual([
      { loc: [...base, 'state'], msg: 'Invalid US state.', type: 'value_error' },
    ]);
    const caFields = customerBillingAddressFields({ country: 'CA', requireBillingAddress: false });
    expect(billingAddressIssues({ country: 'CA', state: 'ZZ' }, caFields)).toEqual([
      { loc: [...base, 'state'], msg: 'Invalid CA subdivision.', type: 'value_error' },
    ]);
    expect(billingAddressIssues({ country: 'CA', state: 'CA-ON' }, caFields)).toEqual([]);
    expect(
      billingAddressIssues(
        { country: 'US', state: 'Calif' },
        { ...usFields, state: false, city: false, postal_code: false, line1: false },
      ),
    ).toHaveLength(1);
  });
});

describe('withoutRefusedPrefills', () => {
  const prefills = {
    amount: 20,
    discountId: 'd6a1c6c4-4b8e-4d51-9d55-0f5c0a8f1f00',
    customFieldData: { company: 'Acme', seats: 'many', terms: true },
  };
  const issue = (...loc: (string | number)[]) => ({
    loc: ['body', ...loc],
    msg: 'refused',
    type: 'value_error',
  });

  it('drops exactly the prefills the pricing refused', () => {
    expect(withoutRefusedPrefills(prefills, [issue('amount')])).toEqual({ ...prefills, amount: null });
    expect(withoutRefusedPrefills(prefills, [issue('discount_code')])).toEqual({
      ...prefills,
      discountId: null,
    });
    expect(
      withoutRefusedPrefills(prefills, [
        issue('custom_field_data', 'seats'),
        issue('custom_field_data', 'terms'),
      ]),
    ).toEqual({ ...prefills, customFieldData: { company: 'Acme' } });
  });

  it('answers null for an issue no prefill explains, so the real error is not hidden', () => {
    expect(withoutRefusedPrefills(prefills, [issue('products')])).toBeNull();
    expect(withoutRefusedPrefills(prefills, [])).toBeNull();
    expect(withoutRefusedPrefills(prefills, [issue('amount'), issue('product_id')])).toBeNull();
    expect(withoutRefusedPrefills(prefills, [issue('custom_field_data', 'unknown')])).toBeNull();
    expect(withoutRefusedPrefills({ ...prefills, amount: null }, [issue('amount')])).toBeNull();
    expect(withoutRefusedPrefills({ ...prefills, discountId: null }, [issue('discount_code')])).toBeNull();
    expect(withoutRefusedPrefills(prefills, [{ loc: ['query', 'amount'], msg: 'x', type: 'x' }])).toBeNull();
  });
});
