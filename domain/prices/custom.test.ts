import { describe, expect, it } from '@jest/globals';
import { customPrice, defaultCustomAmount } from './custom.js';

const money = { money: (amount: number, currency: string) => `${currency}:${amount}` };
const row = {
  amountType: 'custom',
  priceCurrency: 'usd',
  priceAmount: null,
  minimumAmount: 500,
  maximumAmount: 5000,
  presetAmount: null,
};
const view = {
  created_at: '2026-01-01T00:00:00Z',
  modified_at: null,
  id: '00000000-0000-4000-8000-000000000001',
  is_archived: false,
  product_id: '00000000-0000-4000-8000-000000000002',
  type: 'one_time',
  recurring_interval: null,
  source: 'catalog',
  tax_behavior: null,
  amount_type: 'custom',
  price_currency: 'usd',
  minimum_amount: 500,
  maximum_amount: 5000,
  preset_amount: null,
} as const;

describe('a pay-what-you-want price', () => {
  it('charges the buyer’s amount within its bounds, else its default', () => {
    const charge = customPrice.checkout.price(row);
    expect(customPrice.checkout.takesBuyerAmount).toBe(true);
    expect(customPrice.checkout.amount(charge, 1200, false)).toBe(1200);
    expect(customPrice.checkout.amount(charge, null, false)).toBe(defaultCustomAmount(charge));
    expect(customPrice.checkout.amountIssue(charge, 6000)?.type).toBe('less_than_equal');
    expect(() => customPrice.checkout.amount(charge, 100, false)).toThrow(RangeError);
    expect(customPrice.checkout.buyerAmount(view)).toEqual({ minimum: 500, maximum: 5000 });
  });

  it('cannot be switched to by a plan change: the amount is the buyer’s', () => {
    expect(customPrice.cycle.planChange(row, null)).toEqual({
      refusal: 'A pay-what-you-want product cannot be switched to; the buyer chooses its amount at checkout.',
    });
  });

  it('reads its bounds to the seller and its minimum to the buyer', () => {
    expect(customPrice.words.terms(view, money)).toBe('Pay what you want (min usd:500, max usd:5000)');
    expect(customPrice.words.plan(view, 'month', money)).toBe('Pay what you want / month');
    expect(customPrice.words.checkout(view, money)).toBe('Pay what you want, from usd:500');
    expect(customPrice.editor.fields.map((field) => field.wire)).toEqual([
      'minimum_amount',
      'maximum_amount',
      'preset_amount',
    ]);
  });

  it('refuses bounds that leave no room to pay', () => {
    expect(
      customPrice.issues({
        amount_type: 'custom',
        price_currency: 'usd',
        minimum_amount: 900,
        maximum_amount: 800,
      }),
    ).toEqual([
      { loc: ['maximum_amount'], message: 'The maximum amount must be at least the minimum amount.' },
    ]);
  });
});
