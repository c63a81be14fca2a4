import { describe, expect, it } from '@jest/globals';
import { meteredUnitPrice } from './metered-unit.js';

const meter = { id: '00000000-0000-4000-8000-000000000003', name: 'Tokens' };
const row = {
  amountType: 'metered_unit',
  priceCurrency: 'usd',
  priceAmount: null,
  minimumAmount: null,
  maximumAmount: null,
  presetAmount: null,
  unitAmount: { toFixed: () => '0.200' },
  capAmount: 5000,
  meterId: meter.id,
  meter,
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
  amount_type: 'metered_unit',
  price_currency: 'usd',
  unit_amount: '0.2',
  cap_amount: 5000,
  meter_id: meter.id,
  meter: { ...meter, unit: 'scalar', custom_label: null, custom_multiplier: null },
} as const;

describe('a metered price', () => {
  it('is billed in arrears for its meter’s usage, at its unit amount and cap', () => {
    expect(meteredUnitPrice.billing).toBe('in_arrears');
    expect(meteredUnitPrice.cycle.usage(row)).toEqual({
      meterId: meter.id,
      unitAmount: '0.200',
      capAmount: 5000,
    });
    expect(meteredUnitPrice.cycle.usage({ ...row, meter: null })).toBeNull();
    expect(meteredUnitPrice.cycle.planChange(row, null)).toEqual({ fee: 0 });
  });

  it('charges nothing up front in a plan and cannot be bought once', () => {
    const charge = meteredUnitPrice.checkout.price(row);
    expect(meteredUnitPrice.checkout.amount(charge, null, true)).toBe(0);
    expect(() => meteredUnitPrice.checkout.amount(charge, null, false)).toThrow(/metered/);
  });

  it('shows its unit amount exactly on the wire and in words', () => {
    expect(meteredUnitPrice.view(row)).toMatchObject({ unit_amount: '0.2', meter_id: meter.id });
    expect(meteredUnitPrice.words.terms(view, { money: String, locale: 'en-US' })).toBe(
      '$0.002 per unit of Tokens, at most $50.00 a month, billed by usage',
    );
    expect(meteredUnitPrice.words.plan(view, 'month', { money: String })).toBeNull();
    expect(meteredUnitPrice.words.checkout(view, { money: String })).toBe('Billed by usage of Tokens');
  });

  it('names the meter a new price counts, for the organization check', () => {
    const create = {
      amount_type: 'metered_unit',
      meter_id: meter.id,
      price_currency: 'usd',
      unit_amount: '0.2',
    } as const;
    expect(meteredUnitPrice.meterId(create)).toBe(meter.id);
    expect(meteredUnitPrice.columns(create)).toMatchObject({
      unitAmount: '0.2',
      meterId: meter.id,
      capAmount: null,
    });
    expect(meteredUnitPrice.editor.fields.map((field) => field.kind)).toEqual(['cents', 'meter', 'dollars']);
  });
});
