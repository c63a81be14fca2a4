import { describe, expect, it } from '@jest/globals';
import { customPriceIssues } from '../prices/custom.js';
import { normalizeUnitAmount } from '../prices/limits.js';
import { priceSetIssues } from './rules.js';
import { priceCreateSchema, productPriceUpdateSchema } from './schemas.js';

describe('normalizeUnitAmount', () => {
  it('writes positive amounts as canonical decimal strings', () => {
    expect(normalizeUnitAmount('0.50')).toBe('0.5');
    expect(normalizeUnitAmount(12)).toBe('12');
    expect(normalizeUnitAmount('007.100')).toBe('7.1');
    expect(normalizeUnitAmount(0.000001)).toBe('0.000001');
    expect(normalizeUnitAmount(1e-7)).toBe('0.0000001');
    expect(normalizeUnitAmount('0.000000000001')).toBe('0.000000000001');
    expect(normalizeUnitAmount('99999.999999999999')).toBe('99999.999999999999');
  });

  it('refuses zero, negatives, more than 12 decimals, too many digits and non-numbers', () => {
    for (const value of [
      0,
      '0.000',
      -1,
      '-0.5',
      '0.0000000000001',
      '100000',
      'abc',
      '1e3',
      '',
      Infinity,
      NaN,
    ]) {
      expect(normalizeUnitAmount(value)).toBeNull();
    }
  });
});

describe('customPriceIssues', () => {
  it('accepts minimum ≤ preset ≤ maximum and open bounds', () => {
    expect(customPriceIssues({ minimum_amount: 50, preset_amount: 500, maximum_amount: 1000 })).toEqual([]);
    expect(customPriceIssues({ minimum_amount: 500, preset_amount: 500, maximum_amount: 500 })).toEqual([]);
    expect(customPriceIssues({})).toEqual([]);
  });

  it('names the bound that contradicts the others', () => {
    expect(customPriceIssues({ minimum_amount: 1000, maximum_amount: 500 })[0]?.loc).toEqual([
      'maximum_amount',
    ]);
    expect(customPriceIssues({ minimum_amount: 1000, preset_amount: 500 })[0]?.loc).toEqual([
      'preset_amount',
    ]);
    expect(customPriceIssues({ maximum_amount: 1000, preset_amount: 5000 })[0]?.loc).toEqual([
      'preset_amount',
    ]);
  });
});

describe('priceSetIssues', () => {
  it('takes one static price and any metered prices on a recurring product', () => {
    expect(
      priceSetIssues(
        [{ amount_type: 'fixed' }, { amount_type: 'metered_unit' }, { amount_type: 'metered_unit' }],
        'month',
      ),
    ).toEqual([]);
    expect(priceSetIssues([{ amount_type: 'free' }], null)).toEqual([]);
  });

  it('refuses no price, two static prices and metered prices on one-time products', () => {
    expect(priceSetIssues([], null)).toHaveLength(1);
    expect(priceSetIssues([{ amount_type: 'fixed' }, { amount_type: 'custom' }], 'month')[0]?.loc).toEqual([
      1,
    ]);
    expect(priceSetIssues([{ amount_type: 'fixed' }, { amount_type: 'metered_unit' }], null)[0]?.loc).toEqual(
      [1],
    );
  });
});

describe('price inputs', () => {
  it('defaults the currency to usd and refuses others', () => {
    expect(priceCreateSchema.parse({ amount_type: 'fixed', price_amount: 1000 })).toEqual({
      amount_type: 'fixed',
      price_amount: 1000,
      price_currency: 'usd',
    });
    expect(
      priceCreateSchema.safeParse({ amount_type: 'fixed', price_amount: 1000, price_currency: 'eur' })
        .success,
    ).toBe(false);
    expect(
      priceCreateSchema.safeParse({ amount_type: 'fixed', price_amount: 1000, price_currency: 'USD' })
        .success,
    ).toBe(false);
  });

  it('keeps amounts to integers within Polar’s bounds', () => {
    for (const price_amount of [49, -100, 10.5, 100_000_000]) {
      expect(priceCreateSchema.safeParse({ amount_type: 'fixed', price_amount }).success).toBe(false);
    }
    expect(priceCreateSchema.safeParse({ amount_type: 'custom', maximum_amount: 1_000_001 }).success).toBe(
      false,
    );
    expect(priceCreateSchema.safeParse({ amount_type: 'custom', minimum_amount: 49 }).success).toBe(false);
  });

  it('takes a pay-what-you-want minimum of 0 (free or pay what you want), not one between 0 and 50', () => {
    expect(priceCreateSchema.parse({ amount_type: 'custom', minimum_amount: 0 })).toMatchObject({
      minimum_amount: 0,
    });
    expect(priceCreateSchema.safeParse({ amount_type: 'custom', minimum_amount: 50 }).success).toBe(true);
    for (const minimum_amount of [1, 49, -1, 0.5]) {
      const parsed = priceCreateSchema.safeParse({ amount_type: 'custom', minimum_amount });
      expect(parsed.error?.issues[0]?.path).toEqual(['minimum_amount']);
    }
  });

  it('reads metered unit amounts given as numbers or strings into decimal strings', () => {
    const meter_id = '5b1f7b8e-8a4e-4c1e-9b1a-1b2c3d4e5f60';
    expect(
      priceCreateSchema.parse({ amount_type: 'metered_unit', meter_id, unit_amount: 0.25 }),
    ).toMatchObject({
      unit_amount: '0.25',
    });
    const tooPrecise = priceCreateSchema.safeParse({
      amount_type: 'metered_unit',
      meter_id,
      unit_amount: '0.1234567890123',
    });
    expect(tooPrecise.error?.issues[0]?.path).toEqual(['unit_amount']);
  });

  it('tells an existing price ({ id }) from a new one in updates', () => {
    const id = '5b1f7b8e-8a4e-4c1e-9b1a-1b2c3d4e5f60';
    expect(productPriceUpdateSchema.parse({ id })).toEqual({ id });
    expect(productPriceUpdateSchema.safeParse({ id, amount_type: 'free' }).success).toBe(false);
    expect(
      productPriceUpdateSchema.safeParse({ amount_type: 'fixed', price_amount: 10 }).error?.issues[0]?.path,
    ).toEqual(['price_amount']);
  });
});
