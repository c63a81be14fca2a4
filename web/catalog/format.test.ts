import { describe, expect, it } from '@jest/globals';
import type { Product, ProductPrice } from '../../domain/products/schemas';
import { formatMoney } from '../money/format';
import { describeDiscountTerms, describePrice, productChoiceLabel, readDollars } from './format';

const common = {
  created_at: '2026-01-31T10:00:00Z',
  modified_at: null,
  is_archived: false,
  product_id: '00000000-0000-4000-8000-000000000001',
  type: 'recurring' as const,
  source: 'catalog' as const,
  tax_behavior: null,
};
const fixed = (amount: number, currency: string, interval: 'month' | 'year' | null): ProductPrice => ({
  ...common,
  id: '00000000-0000-4000-8000-000000000002',
  recurring_interval: interval,
  amount_type: 'fixed',
  price_currency: currency,
  price_amount: amount,
});
const tokens: ProductPrice = {
  ...common,
  id: '00000000-0000-4000-8000-000000000003',
  recurring_interval: 'month',
  amount_type: 'metered_unit',
  price_currency: 'usd',
  unit_amount: '0.2',
  cap_amount: 5000,
  meter_id: '00000000-0000-4000-8000-000000000004',
  meter: {
    id: '00000000-0000-4000-8000-000000000004',
    name: 'Tokens',
    unit: 'scalar',
    custom_label: null,
    custom_multiplier: null,
  },
};
const product = (name: string, interval: 'month' | 'year' | null, prices: ProductPrice[]) =>
  ({ name, recurring_interval: interval, prices }) satisfies Pick<
    Product,
    'name' | 'recurring_interval' | 'prices'
  >;

describe('describePrice', () => {
  it('writes each price in its own currency', () => {
    expect(describePrice(fixed(2000, 'usd', 'month'))).toBe(`${formatMoney(2000, 'usd')} / month`);
    expect(describePrice(fixed(2000, 'jpy', null))).toBe(formatMoney(2000, 'jpy'));
  });

  it('keeps a sub-cent unit amount whole and names the cap per period', () => {
    expect(describePrice(tokens)).toMatch(
      /^\$0\.002 per unit of Tokens, at most \$50\.00 a month, billed by usage$/,
    );
  });
});

describe('productChoiceLabel', () => {
  it('names the product with its price and interval', () => {
    expect(productChoiceLabel(product('Pro', 'month', [fixed(2000, 'usd', 'month')]))).toBe(
      `Pro · ${formatMoney(2000, 'usd')} / month`,
    );
    expect(productChoiceLabel(product('Pro yearly', 'year', [fixed(20_000, 'usd', 'year')]))).toBe(
      `Pro yearly · ${formatMoney(20_000, 'usd')} / year`,
    );
    expect(productChoiceLabel(product('Guide', null, [fixed(2900, 'usd', null)]))).toBe(
      `Guide · ${formatMoney(2900, 'usd')}`,
    );
    expect(productChoiceLabel(product('API', 'month', [fixed(1000, 'usd', 'month'), tokens]))).toBe(
      `API · ${formatMoney(1000, 'usd')} / month plus usage`,
    );
    expect(productChoiceLabel(product('Metered', 'month', [tokens]))).toBe('Metered · Usage only');
  });
});

describe('describeDiscountTerms', () => {
  const base = { type: 'percentage' as const, basis_points: 2000, amount: undefined, currency: undefined };
  it('says how long a plan keeps the discount', () => {
    expect(describeDiscountTerms({ ...base, duration: 'once' })).toBe("20 % off a plan's first payment only");
    expect(describeDiscountTerms({ ...base, duration: 'repeating', duration_in_months: 3 })).toBe(
      "20 % off each payment of a plan's first 3 months",
    );
    expect(describeDiscountTerms({ ...base, duration: 'forever' })).toBe('20 % off every payment');
  });
});

describe('readDollars', () => {
  it('reads dollars with a sign or thousands separators as cents, from the digits', () => {
    expect(readDollars('19.99')).toEqual({ cents: 1999, error: null });
    expect(readDollars('$1,250.50')).toEqual({ cents: 125_050, error: null });
    expect(readDollars('12.')).toEqual({ cents: 1200, error: null });
    expect(readDollars('')).toEqual({ cents: null, error: null });
  });

  it('refuses 10.999 with the precision dollars allow instead of rounding it to $11.00', () => {
    expect(readDollars('10.999')).toEqual({ cents: null, error: 'Enter at most 2 decimals, such as 10.99.' });
    expect(readDollars('$1,000.005').error).toBe('Enter at most 2 decimals, such as 10.99.');
  });

  it('refuses what is not an amount', () => {
    const expected = 'Enter an amount in dollars, such as 9.99.';
    expect(readDollars('ten')).toEqual({ cents: null, error: expected });
    expect(readDollars('1,5')).toEqual({ cents: null, error: expected });
    expect(readDollars('-2')).toEqual({ cents: null, error: expected });
  });
});
