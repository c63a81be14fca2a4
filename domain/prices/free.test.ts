import { describe, expect, it } from '@jest/globals';
import { freePrice } from './free.js';
import { NO_COLUMNS } from './strategy.js';

const row = {
  amountType: 'free',
  priceCurrency: null,
  priceAmount: null,
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
  amount_type: 'free',
  price_currency: 'usd',
} as const;

describe('a free price', () => {
  it('charges nothing, in USD, and saves no card', () => {
    const charge = freePrice.checkout.price(row);
    expect(freePrice.checkout.amount(charge, null, true)).toBe(0);
    expect(freePrice.checkout.currency(charge)).toBe('usd');
    expect(freePrice.checkout.isFree).toBe(true);
  });

  it('fits a plan in any currency at no fee', () => {
    expect(freePrice.cycle.planChange(row, null)).toEqual({ fee: 0 });
    expect(freePrice.cycle.currency(row)).toBeNull();
  });

  it('reads "Free", has no fields and writes no columns', () => {
    expect(freePrice.words.plan(view, 'month', { money: String })).toBe('Free');
    expect(freePrice.editor.fields).toEqual([]);
    expect(freePrice.columns({ amount_type: 'free' })).toEqual(NO_COLUMNS);
  });
});
