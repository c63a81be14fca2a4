import { describe, expect, it } from '@jest/globals';
import { priceTypeBranches } from '../../scripts/lib/price-branches.js';
import { listSources, parseSource, readSource } from '../../scripts/lib/sources.js';
import {
  AMOUNT_TYPES,
  AMOUNT_TYPE_SORT_ORDER,
  priceBilledInAdvance,
  priceCreateSchema,
  priceType,
  productPriceSchema,
  usagePricesOf,
  type ProductPrice,
} from './registry.js';

const wireTypes = (schema: { options: readonly { shape: { amount_type: { value: string } } }[] }) =>
  schema.options.map((option) => option.shape.amount_type.value).sort();

describe('the price-type registry', () => {
  it('lists fixed, custom, free, metered_unit and seat_based, exactly the types the wire reads and takes', () => {
    expect([...AMOUNT_TYPES].sort()).toEqual(['custom', 'fixed', 'free', 'metered_unit', 'seat_based']);
    expect(wireTypes(productPriceSchema)).toEqual([...AMOUNT_TYPES].sort());
    expect(wireTypes(priceCreateSchema)).toEqual([...AMOUNT_TYPES].sort());
  });

  it('ranks every type once for sorting products by their price type', () => {
    expect([...AMOUNT_TYPE_SORT_ORDER].sort()).toEqual([...AMOUNT_TYPES].sort());
  });

  it('answers each type by its own module and refuses a type it does not know', () => {
    for (const type of AMOUNT_TYPES) expect(priceType(type).amountType).toBe(type);
    expect(() => priceType('metered_package')).toThrow(RangeError);
    expect(() => priceType('toString')).toThrow(RangeError);
  });

  it('gives every type a label and editor fields that name wire fields of its create schema', () => {
    for (const type of AMOUNT_TYPES) {
      const create = priceCreateSchema.options.find((option) => option.shape.amount_type.value === type);
      expect(priceType(type).words.label).not.toBe('');
      for (const field of priceType(type).editor.fields)
        expect(Object.keys(create!.shape)).toContain(field.wire);
    }
  });

  it('bills fixed, custom, free and seat prices up front and metered prices in arrears', () => {
    const billing = Object.fromEntries(AMOUNT_TYPES.map((type) => [type, priceType(type).billing]));
    expect(billing).toEqual({
      fixed: 'in_advance',
      custom: 'in_advance',
      free: 'in_advance',
      metered_unit: 'in_arrears',
      seat_based: 'in_advance',
    });
    const metered = { amountType: 'metered_unit', id: 'm' };
    const fixed = { amountType: 'fixed', id: 'f' };
    expect(priceBilledInAdvance([metered, fixed])).toBe(fixed);
    expect(priceBilledInAdvance([metered])).toBeNull();
  });

  it('picks the prices billed by usage out of a product’s', () => {
    const common = {
      created_at: '2026-01-01T00:00:00Z',
      modified_at: null,
      is_archived: false,
      product_id: '00000000-0000-4000-8000-000000000001',
      type: 'recurring',
      recurring_interval: 'month',
      source: 'catalog',
      tax_behavior: null,
    } as const;
    const prices: ProductPrice[] = [
      { ...common, id: '00000000-0000-4000-8000-000000000002', amount_type: 'free', price_currency: 'usd' },
      {
        ...common,
        id: '00000000-0000-4000-8000-000000000003',
        amount_type: 'metered_unit',
        price_currency: 'usd',
        unit_amount: '0.2',
        cap_amount: null,
        meter_id: '00000000-0000-4000-8000-000000000004',
        meter: {
          id: '00000000-0000-4000-8000-000000000004',
          name: 'Tokens',
          unit: 'scalar',
          custom_label: null,
          custom_multiplier: null,
        },
      },
    ];
    expect(usagePricesOf(prices).map((price) => price.id)).toEqual(['00000000-0000-4000-8000-000000000003']);
  });
});

describe('branches on the price type', () => {
  it('are found however they are written', () => {
    const source = parseSource(
      'example.ts',
      `
      if (price.amount_type === 'fixed') {}
      if ('custom' !== row.amountType) {}
      const free = (row.amountType as AmountType) == 'free';
      switch (row.amountType as AmountType) {}
      switch (price['amount_type']) {}
      const type = priceType(price.amount_type);
      `,
    );
    expect(priceTypeBranches(source)).toBe(5);
  });

  it('are made nowhere outside domain/prices: every layer asks the registry', () => {
    const branching = listSources()
      .filter((file) => !file.startsWith('domain/prices/'))
      .filter((file) => priceTypeBranches(readSource(file).source) > 0);
    expect(branching).toEqual([]);
  });
});
