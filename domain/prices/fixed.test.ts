import { describe, expect, it } from '@jest/globals';
import { fixedPrice } from './fixed.js';

const usd = { money: (amount: number, currency: string) => `${currency}:${amount}` };
const row = {
  amountType: 'fixed',
  priceCurrency: 'usd',
  priceAmount: 2000,
  minimumAmount: null,
  maximumAmount: null,
  presetAmount: null,
};
const view = {
  created_at: '2026-01-01T00:00:00Z',
  modified_at: null,
  id: '00000000-0000-4000-8000-000000000001',
  is_archived: false,
  product_id: '00000000-0000-4000-8000-000000000002',
  type: 'recurring',
  recurring_interval: 'month',
  source: 'catalog',
  tax_behavior: null,
  amount_type: 'fixed',
  price_currency: 'usd',
  price_amount: 2000,
} as const;

describe('a fixed price', () => {
  it('charges its amount, takes discounts and no buyer amount', () => {
    const charge = fixedPrice.checkout.price(row);
    expect(fixedPrice.checkout.amount(charge, 999, false)).toBe(2000);
    expect(fixedPrice.checkout.amountIssue(charge, 1)).toBeNull();
    expect(fixedPrice.checkout.currency({ ...charge, currency: 'USD' })).toBe('usd');
    expect(fixedPrice.checkout.isFree).toBe(false);
    expect(fixedPrice.checkout.buyerAmount(view)).toBeNull();
  });

  it('bills its amount up front each period, so a plan change prorates it', () => {
    expect(fixedPrice.billing).toBe('in_advance');
    expect(fixedPrice.cycle.planChange(row, null)).toEqual({ fee: 2000 });
    expect(fixedPrice.cycle.usage(row)).toBeNull();
  });

  it('reads "$20.00 / month" and is typed in dollars', () => {
    expect(fixedPrice.words.terms(view, usd)).toBe('usd:2000 / month');
    expect(fixedPrice.words.plan(view, 'year', usd)).toBe('usd:2000 / year');
    expect(fixedPrice.words.checkout(view, usd)).toBe('usd:2000');
    expect(fixedPrice.editor.fields.map((field) => [field.wire, field.kind])).toEqual([
      ['price_amount', 'dollars'],
    ]);
  });

  it('writes its amount and currency only', () => {
    expect(fixedPrice.columns({ amount_type: 'fixed', price_amount: 2000, price_currency: 'usd' })).toEqual({
      priceCurrency: 'usd',
      priceAmount: 2000,
      minimumAmount: null,
      maximumAmount: null,
      presetAmount: null,
      unitAmount: null,
      capAmount: null,
      meterId: null,
      tierTable: null,
    });
  });
});
