import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  maximumUnits,
  quantityRefusal,
  seatTiersOf,
  tableFromSeatTiers,
  tableFromTiers,
  tieredAmount,
  tierLines,
  tierTableIssues,
  tiersOf,
  type Tier,
  type TierMode,
  type TierTable,
} from './tiers.js';

// Tables as sellers write them: 1–5 tiers ending at ascending seat counts, the last one unbounded or
// not, rates from free to $10,000 a seat.
const tableArbitrary = (mode?: TierMode): fc.Arbitrary<TierTable> =>
  fc
    .record({
      mode: mode ? fc.constant(mode) : fc.constantFrom<TierMode>('volume', 'graduated'),
      widths: fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 5 }),
      rates: fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 5, maxLength: 5 }),
      unbounded: fc.boolean(),
    })
    .map(({ mode: tableMode, widths, rates, unbounded }) => {
      let end = 0;
      const tiers: Tier[] = widths.map((width, index) => {
        end += width;
        return { upTo: unbounded && index === widths.length - 1 ? null : end, unitAmount: rates[index]! };
      });
      return { mode: tableMode, tiers, minimum: 1, maximum: null };
    });

/** A quantity the table sells, with the table. */
const tableAndQuantity = (mode?: TierMode) =>
  tableArbitrary(mode).chain((table) =>
    fc.tuple(fc.constant(table), fc.integer({ min: 0, max: maximumUnits(table) ?? 400 })),
  );

/** The rate of the tier unit `n` (1-based) falls in. */
function rateOfUnit(table: TierTable, n: number): number {
  return table.tiers.find((tier) => tier.upTo === null || n <= tier.upTo)!.unitAmount;
}

describe('tieredAmount', () => {
  it('volume: every unit at the rate of the tier the quantity falls in', () => {
    fc.assert(
      fc.property(tableAndQuantity('volume'), ([table, quantity]) => {
        expect(tieredAmount(table, quantity)).toBe(
          quantity === 0 ? 0 : quantity * rateOfUnit(table, quantity),
        );
      }),
    );
  });

  it('graduated: the sum of each unit at the rate of its own tier', () => {
    fc.assert(
      fc.property(tableAndQuantity('graduated'), ([table, quantity]) => {
        let expected = 0;
        for (let n = 1; n <= quantity; n += 1) expected += rateOfUnit(table, n);
        expect(tieredAmount(table, quantity)).toBe(expected);
      }),
    );
  });

  it('graduated: one more unit adds exactly the rate of the tier it lands in, so the total never falls', () => {
    fc.assert(
      fc.property(tableAndQuantity('graduated'), ([table, quantity]) => {
        fc.pre(maximumUnits(table) === null || quantity < maximumUnits(table)!);
        expect(tieredAmount(table, quantity + 1) - tieredAmount(table, quantity)).toBe(
          rateOfUnit(table, quantity + 1),
        );
      }),
    );
  });

  it('both modes agree on a single tier, and on every quantity within the first tier', () => {
    fc.assert(
      fc.property(tableArbitrary(), fc.integer({ min: 0, max: 400 }), (table, quantity) => {
        const firstEnd = table.tiers[0]!.upTo ?? 400;
        const within = Math.min(quantity, firstEnd);
        const volume = tieredAmount({ ...table, mode: 'volume' }, within);
        expect(tieredAmount({ ...table, mode: 'graduated' }, within)).toBe(volume);
        expect(volume).toBe(within * table.tiers[0]!.unitAmount);
      }),
    );
  });

  it('the lines hold every unit once and add up to the total', () => {
    fc.assert(
      fc.property(tableAndQuantity(), ([table, quantity]) => {
        const lines = tierLines(table, quantity);
        expect(lines.reduce((sum, line) => sum + line.units, 0)).toBe(quantity);
        expect(lines.reduce((sum, line) => sum + line.amount, 0)).toBe(tieredAmount(table, quantity));
        for (const line of lines) expect(line.amount).toBe(line.units * line.unitAmount);
        if (table.mode === 'volume') expect(lines.length).toBe(quantity === 0 ? 0 : 1);
      }),
    );
  });

  it('at a tier’s boundary: its last unit is at its rate, the next one at the next tier’s', () => {
    const table: TierTable = {
      mode: 'volume',
      tiers: [
        { upTo: 10, unitAmount: 1000 },
        { upTo: 20, unitAmount: 800 },
        { upTo: null, unitAmount: 500 },
      ],
      minimum: 1,
      maximum: null,
    };
    expect([1, 10, 11, 20, 21, 100].map((seats) => tieredAmount(table, seats))).toEqual([
      1000, 10_000, 8800, 16_000, 10_500, 50_000,
    ]);
    const graduated = { ...table, mode: 'graduated' as const };
    expect([1, 10, 11, 20, 21, 100].map((seats) => tieredAmount(graduated, seats))).toEqual([
      1000, 10_000, 10_800, 18_000, 18_500, 58_000,
    ]);
    expect(tierLines(graduated, 12)).toEqual([
      { from: 1, upTo: 10, units: 10, unitAmount: 1000, amount: 10_000 },
      { from: 11, upTo: 20, units: 2, unitAmount: 800, amount: 1600 },
    ]);
  });

  it('refuses quantities beyond the last tier and quantities that are not whole', () => {
    const table: TierTable = {
      mode: 'volume',
      tiers: [{ upTo: 5, unitAmount: 100 }],
      minimum: 1,
      maximum: null,
    };
    expect(() => tieredAmount(table, 6)).toThrow('beyond the last tier');
    expect(() => tieredAmount(table, -1)).toThrow(RangeError);
    expect(() => tieredAmount(table, 1.5)).toThrow(RangeError);
  });
});

describe('quantityRefusal', () => {
  const table: TierTable = {
    mode: 'graduated',
    tiers: [
      { upTo: 10, unitAmount: 1000 },
      { upTo: 50, unitAmount: 800 },
    ],
    minimum: 3,
    maximum: 40,
  };
  it('says the minimum and the maximum in the buyer’s words', () => {
    expect(quantityRefusal(table, 2)).toBe('Minimum 3 seats required.');
    expect(quantityRefusal(table, 3)).toBeNull();
    expect(quantityRefusal(table, 40)).toBeNull();
    expect(quantityRefusal(table, 41)).toBe('Maximum 40 seats allowed.');
    expect(quantityRefusal({ ...table, maximum: null }, 50)).toBeNull();
    expect(quantityRefusal({ ...table, maximum: null }, 51)).toBe('Maximum 50 seats allowed.');
    expect(quantityRefusal(table, 2.5)).toBe('The number of seats must be a whole number.');
  });
});

describe('tierTableIssues', () => {
  const tier = (upTo: number | null, unitAmount = 100): Tier => ({ upTo, unitAmount });
  const of = (tiers: Tier[], limits: Partial<TierTable> = {}): TierTable => ({
    mode: 'volume',
    tiers,
    minimum: 1,
    maximum: null,
    ...limits,
  });

  it('accepts what the generator makes', () => {
    fc.assert(fc.property(tableArbitrary(), (table) => expect(tierTableIssues(table)).toEqual([])));
  });

  it('refuses an empty table, an unbounded tier before the last, descending ends and fractional rates', () => {
    expect(tierTableIssues(of([]))).toEqual([{ loc: ['tiers'], message: 'Add at least one tier.' }]);
    expect(tierTableIssues(of([tier(null), tier(10)]))[0]).toEqual({
      loc: ['tiers', 0],
      message: 'Only the last tier can be unbounded.',
    });
    expect(tierTableIssues(of([tier(10), tier(10)]))[0]!.message).toBe(
      'Tiers must be in ascending order: this one ends at 10, the one before at 10.',
    );
    expect(tierTableIssues(of([tier(10, 99.5)]))[0]!.loc).toEqual(['tiers', 0]);
    expect(tierTableIssues(of([tier(10, -1)]))).toHaveLength(1);
    expect(tierTableIssues(of([tier(0)]))).toHaveLength(1);
  });

  it('keeps the minimum and maximum inside the tiers', () => {
    expect(tierTableIssues(of([tier(10)], { minimum: 0 }))[0]!.message).toBe(
      'The minimum must be at least 1.',
    );
    expect(tierTableIssues(of([tier(10)], { minimum: 11 }))[0]!.message).toBe(
      'The minimum must be at most 10, where the last tier ends.',
    );
    expect(tierTableIssues(of([tier(10)], { minimum: 5, maximum: 4 }))[0]!.message).toBe(
      'The maximum must be at least the minimum.',
    );
    expect(tierTableIssues(of([tier(10)], { maximum: 11 }))[0]!.message).toBe(
      'The maximum must be at most 10, where the last tier ends.',
    );
    expect(tierTableIssues(of([tier(null)], { minimum: 5, maximum: 500 }))).toEqual([]);
  });
});

describe('the wire shapes', () => {
  it('seat_tiers: read in any order, a missing type is volume, and written back as they were', () => {
    const { table, issues } = tableFromSeatTiers({
      tiers: [
        { min_seats: 11, max_seats: null, price_per_seat: 800 },
        { min_seats: 1, max_seats: 10, price_per_seat: 1000 },
      ],
    });
    expect(issues).toEqual([]);
    expect(table).toEqual({
      mode: 'volume',
      tiers: [
        { upTo: 10, unitAmount: 1000 },
        { upTo: null, unitAmount: 800 },
      ],
      minimum: 1,
      maximum: null,
    });
    expect(seatTiersOf(table)).toEqual({
      seat_tier_type: 'volume',
      tiers: [
        { min_seats: 1, max_seats: 10, price_per_seat: 1000 },
        { min_seats: 11, max_seats: null, price_per_seat: 800 },
      ],
      minimum_seats: 1,
      maximum_seats: null,
    });
  });

  it('seat_tiers: the first tier’s first seat is the minimum, the last one’s end the maximum', () => {
    const { table, issues } = tableFromSeatTiers({
      seat_tier_type: 'graduated',
      tiers: [
        { min_seats: 5, max_seats: 10, price_per_seat: 1000 },
        { min_seats: 11, max_seats: 25, price_per_seat: 900 },
      ],
    });
    expect(issues).toEqual([]);
    expect(table).toMatchObject({ minimum: 5, maximum: null });
    expect(maximumUnits(table)).toBe(25);
    expect(seatTiersOf(table).tiers[0]).toEqual({ min_seats: 5, max_seats: 10, price_per_seat: 1000 });
  });

  it('seat_tiers: a gap or an overlap is refused at the tier that does not follow on', () => {
    const gap = tableFromSeatTiers({
      tiers: [
        { min_seats: 1, max_seats: 10, price_per_seat: 1000 },
        { min_seats: 12, max_seats: null, price_per_seat: 800 },
      ],
    });
    expect(gap.issues).toEqual([
      {
        loc: ['tiers', 1, 'min_seats'],
        message:
          'Tiers must follow on without a gap or an overlap: this one starts at 12, the one before ends at 10.',
      },
    ]);
    const overlap = tableFromSeatTiers({
      tiers: [
        { min_seats: 1, max_seats: 10, price_per_seat: 1000 },
        { min_seats: 10, max_seats: 20, price_per_seat: 800 },
      ],
    });
    expect(overlap.issues[0]!.loc).toEqual(['tiers', 1, 'min_seats']);
  });

  it('any table survives both wire shapes unchanged', () => {
    fc.assert(
      fc.property(tableArbitrary(), (table) => {
        const seat = seatTiersOf(table);
        expect(tableFromSeatTiers(seat)).toEqual({ table, issues: [] });
        const dated = tiersOf(table);
        expect(
          tableFromTiers(dated.tiers, { minimum: dated.minimum_units, maximum: dated.maximum_units }),
        ).toEqual({ table, issues: [] });
      }),
    );
  });

  it('2027-01 tiers: a fractional price per seat is refused, never rounded', () => {
    const { issues } = tableFromTiers(
      { type: 'volume', tiers: [{ bound: null, unit_amount: '1250.5' }] },
      { minimum: null, maximum: null },
    );
    expect(issues).toEqual([
      {
        loc: ['tiers', 0, 'unit_amount'],
        message:
          'A price per seat must be a whole number of minor units (cents); fractions are refused, not rounded.',
      },
    ]);
    // A decimal text whose fraction is zero is that whole number (Polar's serializer writes "1000.00").
    for (const text of ['1000.00', '1000.0', '1000']) {
      expect(
        tableFromTiers(
          { type: 'volume', tiers: [{ bound: null, unit_amount: text }] },
          { minimum: null, maximum: null },
        ),
      ).toEqual({
        table: { mode: 'volume', tiers: [{ upTo: null, unitAmount: 1000 }], minimum: 1, maximum: null },
        issues: [],
      });
    }
    expect(
      tableFromTiers(
        { type: 'volume', tiers: [{ bound: null, unit_amount: '1000.01' }] },
        { minimum: null, maximum: null },
      ).issues,
    ).toHaveLength(1);
  });
});
