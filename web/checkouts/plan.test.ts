import { describe, expect, it } from '@jest/globals';
import type { CheckoutPublic } from '../../domain/checkouts/schemas';
import type { ProductPrice } from '../../domain/products/schemas';
import { checkoutPhases, describeCheckoutPlan, meteredPricesOf } from './plan';
import { formatMoney } from '../money/format';

const stamps = { created_at: '2026-01-31T10:00:00.000Z', modified_at: null };
const ids = {
  product: '00000000-0000-4000-8000-000000000001',
  price: '00000000-0000-4000-8000-000000000002',
  metered: '00000000-0000-4000-8000-000000000003',
  meter: '00000000-0000-4000-8000-000000000004',
  organization: '00000000-0000-4000-8000-000000000005',
  discount: '00000000-0000-4000-8000-000000000006',
};
const common = {
  ...stamps,
  is_archived: false,
  product_id: ids.product,
  type: 'recurring' as const,
  source: 'catalog' as const,
  tax_behavior: null,
};

const fixed = (amount: number, interval: 'month' | 'year'): ProductPrice => ({
  ...common,
  id: ids.price,
  recurring_interval: interval,
  amount_type: 'fixed',
  price_currency: 'usd',
  price_amount: amount,
});
const tokens: ProductPrice = {
  ...common,
  id: ids.metered,
  recurring_interval: 'month',
  amount_type: 'metered_unit',
  price_currency: 'usd',
  unit_amount: '0.2',
  cap_amount: 5000,
  meter_id: ids.meter,
  meter: { id: ids.meter, name: 'Tokens', unit: 'scalar', custom_label: null, custom_multiplier: null },
};

type Discount = NonNullable<CheckoutPublic['discount']>;
const twentyPercent = (duration: Discount['duration'], months?: number): Discount => ({
  id: ids.discount,
  name: 'Launch',
  code: 'LAUNCH',
  type: 'percentage',
  basis_points: 2000,
  duration,
  ...(months ? { duration_in_months: months } : {}),
});

/** A checkout of a $20 plan (or `amount` a `interval`), with `discount` taking its share off. */
function planCheckout(
  options: {
    amount?: number;
    interval?: 'month' | 'year' | null;
    discount?: Discount | null;
    tax?: number | null;
    extraPrices?: ProductPrice[];
  } = {},
) {
  const amount = options.amount ?? 2000;
  const interval = options.interval === undefined ? 'month' : options.interval;
  const discount = options.discount ?? null;
  const discountAmount = discount ? Math.round((amount * (discount.basis_points ?? 0)) / 10_000) : 0;
  const price = interval ? fixed(amount, interval) : { ...fixed(amount, 'month'), recurring_interval: null };
  return {
    product: {
      ...stamps,
      id: ids.product,
      name: 'Pro',
      description: null,
      recurring_interval: interval,
      is_recurring: interval !== null,
      is_archived: false,
      recurring_interval_count: interval === null ? null : 1,
      meter_interval: null,
      meter_interval_count: null,
      trial_interval: null,
      trial_interval_count: null,
      visibility: 'public' as const,
      organization_id: ids.organization,
      prices: [price, ...(options.extraPrices ?? [])],
      benefits: [],
      medias: [],
    },
    product_price: price,
    amount,
    discount_amount: discountAmount,
    net_amount: amount - discountAmount,
    discount,
    currency: 'usd',
    tax_amount: options.tax ?? null,
  };
}

const usd = (amount: number) => formatMoney(amount, 'usd');

describe('describeCheckoutPlan', () => {
  it('once: what is charged today, then the full price (never the first price for good)', () => {
    expect(describeCheckoutPlan(planCheckout({ discount: twentyPercent('once') }))).toBe(
      `${usd(1600)} today, then ${usd(2000)} / month`,
    );
  });

  it('repeating 3 months: the discounted months, then the full price', () => {
    expect(describeCheckoutPlan(planCheckout({ discount: twentyPercent('repeating', 3) }))).toBe(
      `${usd(1600)} / month for 3 months, then ${usd(2000)} / month`,
    );
    // A yearly plan: only the first year starts within 3 months.
    expect(
      describeCheckoutPlan(
        planCheckout({ amount: 20_000, interval: 'year', discount: twentyPercent('repeating', 3) }),
      ),
    ).toBe(`${usd(16_000)} today, then ${usd(20_000)} / year`);
  });

  it('forever and none: one price', () => {
    expect(describeCheckoutPlan(planCheckout({ discount: twentyPercent('forever') }))).toBe(
      `${usd(1600)} / month`,
    );
    expect(describeCheckoutPlan(planCheckout())).toBe(`${usd(2000)} / month`);
  });

  it('a discount that takes nothing off is not the plan’s (the subscription does not keep it)', () => {
    const checkout = {
      ...planCheckout({ discount: twentyPercent('once') }),
      discount_amount: 0,
      net_amount: 2000,
    };
    expect(checkoutPhases(checkout, new Date())).toHaveLength(1);
  });

  it('a free trial: nothing today, then the plan from the trial’s end, a discount counted from there', () => {
    const trial = { active_trial_interval: 'day' as const, trial_end: '2026-12-12T09:00:00.000Z' };
    const now = new Date('2026-11-28T09:00:00.000Z');
    const words = (checkout: Parameters<typeof describeCheckoutPlan>[0]) =>
      describeCheckoutPlan(checkout, now);
    expect(words({ ...planCheckout(), ...trial })).toMatch(
      new RegExp(`^\\${usd(0)} today, then \\${usd(2000)} / month from .*12.*$`),
    );
    const phases = checkoutPhases(
      { ...planCheckout({ discount: twentyPercent('repeating', 3) }), ...trial },
      now,
    )!;
    expect(phases.map((phase) => [phase.amount, phase.periods, phase.startsAt.toISOString()])).toEqual([
      [0, 1, '2026-11-28T09:00:00.000Z'],
      [1600, 3, '2026-12-12T09:00:00.000Z'],
      [2000, null, '2027-03-12T09:00:00.000Z'],
    ]);
    // Declined (no active trial): charged today as any plan.
    expect(words({ ...planCheckout(), active_trial_interval: null, trial_end: null })).toBe(
      `${usd(2000)} / month`,
    );
  });

  it('says that tax and usage come on top', () => {
    expect(describeCheckoutPlan(planCheckout({ tax: 380, extraPrices: [tokens] }))).toBe(
      `${usd(2000)} / month plus tax and usage`,
    );
    expect(describeCheckoutPlan(planCheckout({ tax: 0 }))).toBe(`${usd(2000)} / month`);
  });

  it('is null for a product bought once', () => {
    expect(describeCheckoutPlan(planCheckout({ interval: null }))).toBeNull();
  });
});

describe('meteredPricesOf', () => {
  it('lists the product’s metered prices only', () => {
    expect(meteredPricesOf({ prices: [fixed(1000, 'month'), tokens] }).map((price) => price.id)).toEqual([
      ids.metered,
    ]);
  });
});
