import { describe, expect, it } from '@jest/globals';
import type { TaxCalculator } from '../domain/tax/calculator.js';
import { createTaxCalculator } from './tax.js';

const stripeTax: TaxCalculator = {
  name: 'stripe',
  quote: async () => ({ amount: 1, rateBasisPoints: null, reference: 'taxcalc_1' }),
};

describe('createTaxCalculator', () => {
  it('uses Stripe Tax when it is handed in, whatever the table', () => {
    expect(createTaxCalculator({ TAX_RATES: { DE: 1900 } }, stripeTax)).toBe(stripeTax);
    expect(createTaxCalculator({ TAX_RATES: undefined }, stripeTax)).toBe(stripeTax);
  });

  it('uses the configured rate table next', async () => {
    const calculator = createTaxCalculator({ TAX_RATES: { DE: 1900 } });
    expect(calculator.name).toBe('rates');
    const quote = await calculator.quote({
      amount: 1000,
      currency: 'eur',
      billingAddress: { country: 'DE' },
      taxId: null,
      productId: '00000000-0000-4000-8000-000000000001',
      idempotencyKey: 'k',
    });
    expect(quote).toEqual({ amount: 190, rateBasisPoints: 1900, reference: null });
  });

  it('charges no tax when nothing is configured', () => {
    expect(createTaxCalculator({ TAX_RATES: undefined }).name).toBe('none');
  });
});
