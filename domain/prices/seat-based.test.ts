import { describe, expect, it } from '@jest/globals';
import { schemaForVersion } from '../platform/api-versions.js';
import { priceCreateSchema, productPriceSchema } from './registry.js';
import { seatBasedPrice, tableOfNewPrice } from './seat-based.js';

const usd = { money: (amount: number, currency: string) => `${currency}:${amount}` };

/** 1–10 seats at $10, 11–20 at $8, 21 and more at $6. */
const seatTiers = (type?: 'volume' | 'graduated') => ({
  ...(type ? { seat_tier_type: type } : {}),
  tiers: [
    { min_seats: 1, max_seats: 10, price_per_seat: 1000 },
    { min_seats: 11, max_seats: 20, price_per_seat: 800 },
    { min_seats: 21, max_seats: null, price_per_seat: 600 },
  ],
});

const create = (fields: Record<string, unknown>) =>
  priceCreateSchema.parse({ amount_type: 'seat_based', ...fields }) as Parameters<
    typeof seatBasedPrice.columns
  >[0];

function storedRow(fields: Record<string, unknown>) {
  const columns = seatBasedPrice.columns(create(fields));
  return { amountType: 'seat_based', ...columns, unitAmount: null };
}

const common = {
  created_at: '2026-01-01T00:00:00Z',
  modified_at: null,
  id: '00000000-0000-4000-8000-000000000001',
  is_archived: false,
  product_id: '00000000-0000-4000-8000-000000000002',
  type: 'recurring',
  recurring_interval: 'month',
  source: 'catalog',
  tax_behavior: null,
  amount_type: 'seat_based',
} as const;

describe('a seat-based price', () => {
  it('stores seat_tiers as one table (a missing type is volume) and charges by it', () => {
    const row = storedRow({ seat_tiers: seatTiers() });
    expect(row.tierTable).toEqual({
      mode: 'volume',
      tiers: [
        { upTo: 10, unitAmount: 1000 },
        { upTo: 20, unitAmount: 800 },
        { upTo: null, unitAmount: 600 },
      ],
      minimum: 1,
      maximum: null,
    });
    const charge = seatBasedPrice.checkout.price(row);
    expect(seatBasedPrice.checkout.amount(charge, null, false, 12)).toBe(12 * 800);
    expect(seatBasedPrice.checkout.amount(charge, null, true, 25)).toBe(25 * 600);
    // No seats asked for yet: the fewest the table sells.
    expect(seatBasedPrice.checkout.defaultSeats(charge)).toBe(1);
    expect(seatBasedPrice.checkout.amount(charge, null, false)).toBe(1000);
  });

  it('sums each tier’s own seats under graduated tiers', () => {
    const charge = seatBasedPrice.checkout.price(storedRow({ seat_tiers: seatTiers('graduated') }));
    expect(seatBasedPrice.checkout.amount(charge, null, false, 12)).toBe(10 * 1000 + 2 * 800);
    const wire = productPriceSchema.parse({
      ...common,
      ...seatBasedPrice.view(storedRow({ seat_tiers: seatTiers('graduated') })),
    });
    if (wire.amount_type !== 'seat_based') throw new Error('parsed as another type');
    expect(seatBasedPrice.words.seatMath(wire, 12, usd)).toEqual([
      '10 seats × usd:1000 = usd:10000',
      '2 seats × usd:800 = usd:1600',
    ]);
    expect(seatBasedPrice.cycle.planChange(storedRow({ seat_tiers: seatTiers('graduated') }), 21)).toEqual({
      fee: 10 * 1000 + 10 * 800 + 600,
    });
  });

  it('refuses seats outside the table in the buyer’s words, and never charges them', () => {
    const row = storedRow({
      seat_tiers: {
        tiers: [
          { min_seats: 3, max_seats: 10, price_per_seat: 1000 },
          { min_seats: 11, max_seats: 40, price_per_seat: 900 },
        ],
      },
    });
    const charge = seatBasedPrice.checkout.price(row);
    expect(seatBasedPrice.checkout.seatsIssue(charge, 2)).toEqual({
      loc: ['seats'],
      msg: 'Minimum 3 seats required.',
      type: 'value_error',
    });
    expect(seatBasedPrice.checkout.seatsIssue(charge, 41)?.msg).toBe('Maximum 40 seats allowed.');
    expect(seatBasedPrice.checkout.seatsIssue(charge, 40)).toBeNull();
    expect(() => seatBasedPrice.checkout.amount(charge, null, false, 41)).toThrow(RangeError);
    expect(seatBasedPrice.cycle.planChange(row, 2)).toEqual({ refusal: 'Minimum 3 seats required.' });
    expect(() => seatBasedPrice.cycle.planChange(row, null)).toThrow(RangeError);
  });

  it('takes 2027-01 tiers with minimum_units; a fractional rate per seat is refused, not rounded', () => {
    const tiers = {
      type: 'graduated',
      tiers: [
        { bound: 5, unit_amount: '1500' },
        { bound: null, unit_amount: 1200 },
      ],
    };
    const row = storedRow({ tiers, minimum_units: 2 });
    expect(row.tierTable).toEqual({
      mode: 'graduated',
      tiers: [
        { upTo: 5, unitAmount: 1500 },
        { upTo: null, unitAmount: 1200 },
      ],
      minimum: 2,
      maximum: null,
    });
    const fractional = create({ tiers: { type: 'volume', tiers: [{ bound: null, unit_amount: '999.5' }] } });
    expect(seatBasedPrice.issues(fractional)).toEqual([
      {
        loc: ['tiers', 'tiers', 0, 'unit_amount'],
        message:
          'A price per seat must be a whole number of minor units (cents); fractions are refused, not rounded.',
      },
    ]);
  });

  it('refuses a table where every seat is free: that is a free price, which asks for no card', () => {
    expect(
      seatBasedPrice.issues(create({ seat_tiers: { tiers: [{ min_seats: 1, price_per_seat: 0 }] } })),
    ).toEqual([
      { loc: ['seat_tiers'], message: 'Every seat is free at these rates: use a free price instead.' },
    ]);
    expect(
      seatBasedPrice.issues(
        create({
          seat_tiers: {
            tiers: [
              { min_seats: 1, max_seats: 3, price_per_seat: 0 },
              { min_seats: 4, price_per_seat: 500 },
            ],
          },
        }),
      ),
    ).toEqual([]);
  });

  it('asks for exactly one shape of tiers, and names the tier in its refusals', () => {
    expect(tableOfNewPrice(create({})).issues[0]?.loc).toEqual(['seat_tiers']);
    expect(
      tableOfNewPrice(
        create({ seat_tiers: seatTiers(), tiers: { type: 'volume', tiers: [{ unit_amount: 1 }] } }),
      ).issues[0]?.loc,
    ).toEqual(['tiers']);
    expect(tableOfNewPrice(create({ seat_tiers: seatTiers(), minimum_units: 2 })).issues[0]?.loc).toEqual([
      'minimum_units',
    ]);
    const gap = create({
      seat_tiers: {
        tiers: [
          { min_seats: 1, max_seats: 10, price_per_seat: 1000 },
          { min_seats: 12, max_seats: null, price_per_seat: 800 },
        ],
      },
    });
    expect(seatBasedPrice.issues(gap)).toEqual([
      {
        loc: ['seat_tiers', 'tiers', 1, 'min_seats'],
        message:
          'Tiers must follow on without a gap or an overlap: this one starts at 12, the one before ends at 10.',
      },
    ]);
    expect(() => create({ seat_tiers: { tiers: [] } })).toThrow(/Add at least one tier/);
    expect(() => create({ seat_tiers: { tiers: [{ min_seats: 1, price_per_seat: 10.5 }] } })).toThrow();
  });

  it('shows seat_tiers up to 2026-10 and tiers with minimum_units and maximum_units from 2027-01', () => {
    const row = storedRow({
      seat_tiers: {
        seat_tier_type: 'graduated',
        tiers: [
          { min_seats: 2, max_seats: 10, price_per_seat: 1000 },
          { min_seats: 11, max_seats: 30, price_per_seat: 800 },
        ],
      },
    });
    const wire = { ...common, ...seatBasedPrice.view(row) };
    const seat_tiers = {
      seat_tier_type: 'graduated',
      tiers: [
        { min_seats: 2, max_seats: 10, price_per_seat: 1000 },
        { min_seats: 11, max_seats: 30, price_per_seat: 800 },
      ],
      minimum_seats: 2,
      maximum_seats: 30,
    };
    const tiers = {
      type: 'graduated',
      tiers: [
        { bound: 10, unit_amount: '1000' },
        { bound: 30, unit_amount: '800' },
      ],
    };
    expect(schemaForVersion(productPriceSchema, '2026-10').parse(wire)).toEqual({
      ...common,
      price_currency: 'usd',
      seat_tiers,
    });
    expect(schemaForVersion(productPriceSchema, '2027-01').parse(wire)).toEqual({
      ...common,
      price_currency: 'usd',
      tiers,
      minimum_units: 2,
      maximum_units: 30,
    });
    // Unversioned (the SDKs without a Polar-Version header): every field.
    expect(productPriceSchema.parse(wire)).toMatchObject({ seat_tiers, tiers, minimum_units: 2 });
  });

  it('reads its tiers and bounds to the seller and the rate at a glance to the buyer', () => {
    const row = storedRow({
      seat_tiers: {
        tiers: [
          { min_seats: 3, max_seats: 10, price_per_seat: 1000 },
          { min_seats: 11, max_seats: 40, price_per_seat: 800 },
        ],
      },
    });
    const wire = productPriceSchema.parse({ ...common, ...seatBasedPrice.view(row) });
    if (wire.amount_type !== 'seat_based') throw new Error('parsed as another type');
    expect(seatBasedPrice.words.terms(wire, usd)).toBe(
      'Seats 3–10 at usd:1000, 11–40 at usd:800 each (every seat at the rate the total reaches) / month, min 3 seats, max 40 seats',
    );
    expect(seatBasedPrice.words.plan(wire, 'month', usd)).toBe('From usd:800 per seat / month');
    expect(seatBasedPrice.words.checkout(wire, usd)).toBe('From usd:800 per seat');
    // The buyer's tier math: volume puts every seat at the rate the total reaches.
    expect(seatBasedPrice.words.seatMath(wire, 12, usd)).toEqual(['12 seats × usd:800 = usd:9600']);
    expect(seatBasedPrice.words.seatMath(wire, 3, usd)).toEqual(['3 seats × usd:1000 = usd:3000']);
    const single = productPriceSchema.parse({
      ...common,
      ...seatBasedPrice.view(
        storedRow({ seat_tiers: { tiers: [{ min_seats: 1, max_seats: null, price_per_seat: 1500 }] } }),
      ),
    });
    if (single.amount_type !== 'seat_based') throw new Error('parsed as another type');
    expect(seatBasedPrice.words.terms(single, usd)).toBe('usd:1500 per seat / month');
    // Graduated: the first seats' rate and where it ends; no buyer pays the lowest rate on average.
    const graduated = productPriceSchema.parse({
      ...common,
      ...seatBasedPrice.view(storedRow({ seat_tiers: seatTiers('graduated') })),
    });
    if (graduated.amount_type !== 'seat_based') throw new Error('parsed as another type');
    expect(seatBasedPrice.words.checkout(graduated, usd)).toBe('usd:1000 per seat up to 10, then by tier');
    // Graduated, bought from 11 seats: the first ten are still charged at $10.
    const graduatedFromEleven = productPriceSchema.parse({
      ...common,
      ...seatBasedPrice.view(
        storedRow({
          tiers: {
            type: 'graduated',
            tiers: [
              { bound: 10, unit_amount: '1000' },
              { bound: null, unit_amount: '800' },
            ],
          },
          minimum_units: 11,
        }),
      ),
    });
    if (graduatedFromEleven.amount_type !== 'seat_based') throw new Error('parsed as another type');
    expect(seatBasedPrice.words.checkout(graduatedFromEleven, usd)).toBe(
      'usd:1000 per seat up to 10, then by tier',
    );
    expect(seatBasedPrice.words.terms(graduatedFromEleven, usd)).toContain('1–10 at usd:1000');
    // A volume tier below the table's fewest seats is never reached: one rate.
    const capped = productPriceSchema.parse({
      ...common,
      ...seatBasedPrice.view(
        storedRow({
          tiers: {
            type: 'volume',
            tiers: [
              { bound: 10, unit_amount: '1000' },
              { bound: null, unit_amount: '800' },
            ],
          },
          minimum_units: 11,
        }),
      ),
    });
    if (capped.amount_type !== 'seat_based') throw new Error('parsed as another type');
    expect(seatBasedPrice.words.checkout(capped, usd)).toBe('usd:800 per seat');
    expect(seatBasedPrice.editor.fields.map((field) => [field.wire, field.kind])).toEqual([
      ['seat_tiers', 'tiers'],
    ]);
  });
});
