import { describe, expect, it } from '@jest/globals';
import type { TaxAddress, TaxQuoteInput } from './calculator.js';
import { noTax, rateTableTax, taxRateFor, taxRateTableSchema, type TaxRateTable } from './rules.js';

const table: TaxRateTable = {
  DE: 1900,
  FR: 2000,
  US: 0,
  'US-CA': 725,
  'US-NY': 400,
  'CA-QC': 1498,
  default: 1000,
};

function address(country: string, state: string | null = null): TaxAddress {
  return { country, state, line1: null, line2: null, city: null, postal_code: null };
}

function quoteInput(overrides: Partial<TaxQuoteInput> = {}): TaxQuoteInput {
  return {
    amount: 10_000,
    currency: 'usd',
    billingAddress: address('DE'),
    taxId: null,
    productId: '00000000-0000-4000-8000-000000000001',
    idempotencyKey: 'checkout:1:tax',
    ...overrides,
  };
}

describe('taxRateFor', () => {
  it('takes the rate of the country', () => {
    expect(taxRateFor(table, address('DE'))).toBe(1900);
    expect(taxRateFor(table, address('fr'))).toBe(2000);
    expect(taxRateFor(table, address(' FR '))).toBe(2000);
  });

  it('prefers the region of the country, typed with or without the country prefix', () => {
    expect(taxRateFor(table, address('US', 'CA'))).toBe(725);
    expect(taxRateFor(table, address('US', 'US-CA'))).toBe(725);
    expect(taxRateFor(table, address('us', 'ny'))).toBe(400);
    expect(taxRateFor(table, address('CA', 'CA-QC'))).toBe(1498);
  });

  it('falls back to the country for a region without its own rate, then to the default', () => {
    expect(taxRateFor(table, address('US', 'TX'))).toBe(0);
    expect(taxRateFor(table, address('DE', 'BY'))).toBe(1900);
    expect(taxRateFor(table, address('CA', 'ON'))).toBe(1000);
    expect(taxRateFor(table, address('JP'))).toBe(1000);
  });

  it('charges no tax to an unlisted country when there is no default', () => {
    expect(taxRateFor({ DE: 1900 }, address('JP'))).toBe(0);
    expect(taxRateFor({}, address('DE'))).toBe(0);
  });

  it('cannot tell without a country, or without the region of a country that has regional rates', () => {
    expect(taxRateFor(table, null)).toBeNull();
    expect(taxRateFor(table, address(''))).toBeNull();
    expect(taxRateFor(table, address('US'))).toBeNull();
    expect(taxRateFor(table, address('US', '  '))).toBeNull();
    expect(taxRateFor(table, address('CA'))).toBeNull();
    expect(taxRateFor({ US: 500 }, address('US'))).toBe(500);
  });
});

describe('taxRateTableSchema', () => {
  it('takes countries, regions and a default, in basis points from 0 to 100%', () => {
    expect(taxRateTableSchema.safeParse(table).success).toBe(true);
    expect(taxRateTableSchema.safeParse({ 'DE-BY': 0, GB: 10_000 }).success).toBe(true);
  });

  it('refuses other keys and rates', () => {
    for (const bad of [
      { de: 1900 },
      { DEU: 1900 },
      { 'US-': 1 },
      { 'US-ABCD': 1 },
      { Default: 1 },
      { DE: 19.5 },
      { DE: -1 },
      { DE: 10_001 },
    ]) {
      expect(taxRateTableSchema.safeParse(bad).success).toBe(false);
    }
  });
});

describe('noTax', () => {
  it('charges nothing, known without an address', async () => {
    expect(noTax.name).toBe('none');
    const zero = { amount: 0, rateBasisPoints: 0, reference: null };
    expect(await noTax.quote(quoteInput())).toEqual(zero);
    expect(await noTax.quote(quoteInput({ billingAddress: null }))).toEqual(zero);
  });
});

describe('rateTableTax', () => {
  const rates = rateTableTax(table);

  it('taxes the net amount at the address rate', async () => {
    expect(rates.name).toBe('rates');
    expect(await rates.quote(quoteInput())).toEqual({ amount: 1900, rateBasisPoints: 1900, reference: null });
    expect(await rates.quote(quoteInput({ billingAddress: address('US', 'CA') }))).toEqual({
      amount: 725,
      rateBasisPoints: 725,
      reference: null,
    });
    expect(await rates.quote(quoteInput({ amount: 0 }))).toMatchObject({ amount: 0 });
  });

  it('rounds half-up to the minor unit', async () => {
    // 7.25% of 1000 = 72.5 → 73; of 999 = 72.4275 → 72; 19% of 1 = 0.19 → 0; of 3 = 0.57 → 1.
    const inCalifornia = (amount: number) => quoteInput({ amount, billingAddress: address('US', 'CA') });
    expect((await rates.quote(inCalifornia(1000)))?.amount).toBe(73);
    expect((await rates.quote(inCalifornia(999)))?.amount).toBe(72);
    expect((await rates.quote(quoteInput({ amount: 1 })))?.amount).toBe(0);
    expect((await rates.quote(quoteInput({ amount: 3 })))?.amount).toBe(1);
    // Zero-decimal currencies round to the yen the same way: 10% of ¥1005 = 100.5 → ¥101.
    expect(
      (await rates.quote(quoteInput({ amount: 1005, currency: 'jpy', billingAddress: address('JP') })))
        ?.amount,
    ).toBe(101);
  });

  it('quotes nothing while the rate cannot be known', async () => {
    expect(await rates.quote(quoteInput({ billingAddress: null }))).toBeNull();
    expect(await rates.quote(quoteInput({ billingAddress: address('US') }))).toBeNull();
  });

  it('refuses a table that is not one', () => {
    expect(() => rateTableTax({ de: 1900 })).toThrow();
    expect(() => rateTableTax({ DE: 100_000 })).toThrow();
  });
});
