// Tiered amounts: what a quantity (seats today) costs under a table of tiers, and why a table is
// refused (docs/prices.md, "Seat-based prices"). One engine serves every wire shape of a tier table:
// the legacy `seat_tiers` ({min_seats, max_seats, price_per_seat}) and the dated API's `tiers`
// ({bound, unit_amount}) translate to the one stored shape here. Integers only: a rate is whole
// minor units per unit, so every total is exact. Pure.

/**
 * `volume`: every unit at the rate of the tier the whole quantity falls in (12 seats in "11–20 at
 * $8" cost 12 × $8). `graduated`: each tier's own units at its own rate, summed (10 × $10 + 2 × $8).
 */
export const TIER_MODES = ['volume', 'graduated'] as const;
export type TierMode = (typeof TIER_MODES)[number];

/** One tier: up to and including `upTo` units (null: no end, the last tier only), at `unitAmount`. */
export type Tier = { upTo: number | null; unitAmount: number };

/**
 * A price's tiers as stored: in ascending order, contiguous by construction (a tier starts one
 * past the previous one's `upTo`), and the quantity a buyer may choose.
 */
export type TierTable = {
  mode: TierMode;
  tiers: Tier[];
  /** The fewest units a buyer may take (at least 1). */
  minimum: number;
  /** The most (null: unbounded), never beyond the last tier's `upTo`. */
  maximum: number | null;
};

/** A refusal of a table, `loc` under the table's wire field. */
export type TierIssue = { loc: (string | number)[]; message: string };

/** One tier's share of a total, for the buyer's "tier math". */
export type TierLine = {
  /** The tier's first and last unit (last null: no end). */
  from: number;
  upTo: number | null;
  /** How many of the quantity's units are charged at this tier's rate. */
  units: number;
  unitAmount: number;
  amount: number;
};

/** Large enough for any seat count a business buys, small enough that totals stay exact. */
export const MAX_TIER_UNITS = 1_000_000;

/** The first unit of each tier: 1, then one past the previous tier's end. */
function tierStarts(tiers: readonly Tier[]): number[] {
  return tiers.map((_, index) => (index === 0 ? 1 : tiers[index - 1]!.upTo! + 1));
}

/** What is wrong with a table; empty when it can be stored and charged. */
export function tierTableIssues(table: TierTable): TierIssue[] {
  const issues: TierIssue[] = [];
  const { tiers } = table;
  if (tiers.length === 0) return [{ loc: ['tiers'], message: 'Add at least one tier.' }];
  tiers.forEach((tier, index) => {
    if (!Number.isSafeInteger(tier.unitAmount) || tier.unitAmount < 0) {
      issues.push({
        loc: ['tiers', index],
        message: 'The price per unit must be a whole, non-negative amount in minor units (cents).',
      });
    }
    if (tier.upTo === null) {
      if (index !== tiers.length - 1) {
        issues.push({ loc: ['tiers', index], message: 'Only the last tier can be unbounded.' });
      }
      return;
    }
    if (!Number.isSafeInteger(tier.upTo) || tier.upTo < 1 || tier.upTo > MAX_TIER_UNITS) {
      issues.push({
        loc: ['tiers', index],
        message: `A tier must end at a whole number of units between 1 and ${MAX_TIER_UNITS}.`,
      });
      return;
    }
    const previous = index > 0 ? tiers[index - 1]!.upTo : 0;
    if (previous !== null && tier.upTo <= previous) {
      issues.push({
        loc: ['tiers', index],
        message: `Tiers must be in ascending order: this one ends at ${tier.upTo}, the one before at ${previous}.`,
      });
    }
  });
  if (issues.length > 0) return issues;
  const last = tiers[tiers.length - 1]!.upTo;
  if (!Number.isSafeInteger(table.minimum) || table.minimum < 1) {
    issues.push({ loc: ['minimum'], message: 'The minimum must be at least 1.' });
  } else if (last !== null && table.minimum > last) {
    issues.push({
      loc: ['minimum'],
      message: `The minimum must be at most ${last}, where the last tier ends.`,
    });
  }
  if (table.maximum !== null) {
    if (!Number.isSafeInteger(table.maximum) || table.maximum < Math.max(1, table.minimum)) {
      issues.push({ loc: ['maximum'], message: 'The maximum must be at least the minimum.' });
    } else if (last !== null && table.maximum > last) {
      issues.push({
        loc: ['maximum'],
        message: `The maximum must be at most ${last}, where the last tier ends.`,
      });
    }
  }
  return issues;
}

/** Why `quantity` cannot be bought under the table, in the buyer's words; null when it can. */
export function quantityRefusal(table: TierTable, quantity: number, unit = 'seats'): string | null {
  if (!Number.isSafeInteger(quantity) || quantity < 0) return `The number of ${unit} must be a whole number.`;
  if (quantity < table.minimum) return `Minimum ${table.minimum} ${unit} required.`;
  const maximum = maximumUnits(table);
  if (maximum !== null && quantity > maximum) return `Maximum ${maximum} ${unit} allowed.`;
  return null;
}

/** The most units the table sells: its maximum, else the last tier's end (null: unbounded). */
export function maximumUnits(table: TierTable): number | null {
  return table.maximum ?? table.tiers[table.tiers.length - 1]!.upTo;
}

/**
 * Each tier's share of `quantity` units: under `graduated` every tier reached holds its own units;
 * under `volume` only the tier the quantity falls in, holding them all. Zero units charge nothing.
 * Throws on a quantity the table does not cover (`quantityRefusal` says why to a buyer first).
 */
export function tierLines(table: TierTable, quantity: number): TierLine[] {
  if (!Number.isSafeInteger(quantity) || quantity < 0) {
    throw new RangeError(`a quantity must be a non-negative integer, got ${quantity}`);
  }
  const starts = tierStarts(table.tiers);
  const last = table.tiers[table.tiers.length - 1]!.upTo;
  if (last !== null && quantity > last) {
    throw new RangeError(`${quantity} units lie beyond the last tier, which ends at ${last}`);
  }
  if (quantity === 0) return [];
  const lines: TierLine[] = [];
  table.tiers.forEach((tier, index) => {
    const from = starts[index]!;
    if (from > quantity) return;
    const covers = tier.upTo === null || quantity <= tier.upTo;
    if (table.mode === 'volume') {
      // Tiers past the quantity were skipped above: the one that covers it holds every unit.
      if (covers) {
        lines.push({
          from,
          upTo: tier.upTo,
          units: quantity,
          unitAmount: tier.unitAmount,
          amount: quantity * tier.unitAmount,
        });
      }
      return;
    }
    const units = (covers ? quantity : tier.upTo!) - from + 1;
    lines.push({
      from,
      upTo: tier.upTo,
      units,
      unitAmount: tier.unitAmount,
      amount: units * tier.unitAmount,
    });
  });
  return lines;
}

/** What `quantity` units cost under the table, in minor units. */
export function tieredAmount(table: TierTable, quantity: number): number {
  const total = tierLines(table, quantity).reduce((sum, line) => sum + line.amount, 0);
  if (!Number.isSafeInteger(total))
    throw new RangeError(`${quantity} units cost more than can be counted exactly`);
  return total;
}

/** The legacy wire shape (@polar-sh/sdk 0.48.1, API versions 2026-04 and 2026-10). */
export type SeatTiersWire = {
  seat_tier_type?: TierMode | null;
  tiers: { min_seats: number; max_seats?: number | null; price_per_seat: number }[];
};

/**
 * `seat_tiers` as a table: tiers sorted by their first seat, which must follow on from the one
 * before; the first tier's first seat is the minimum and the last one's end the maximum. A missing
 * type is volume, as Polar reads it.
 */
export function tableFromSeatTiers(wire: SeatTiersWire): { table: TierTable; issues: TierIssue[] } {
  const indexed = wire.tiers
    .map((tier, index) => ({ tier, index }))
    .sort((a, b) => a.tier.min_seats - b.tier.min_seats);
  const issues: TierIssue[] = [];
  indexed.forEach(({ tier, index }, position) => {
    if (position === 0) return;
    const before = indexed[position - 1]!.tier;
    if (before.max_seats === null || before.max_seats === undefined) return;
    if (tier.min_seats !== before.max_seats + 1) {
      issues.push({
        loc: ['tiers', index, 'min_seats'],
        message: `Tiers must follow on without a gap or an overlap: this one starts at ${tier.min_seats}, the one before ends at ${before.max_seats}.`,
      });
    }
  });
  const tiers = indexed.map(({ tier }) => ({
    upTo: tier.max_seats ?? null,
    unitAmount: tier.price_per_seat,
  }));
  const first = indexed[0]?.tier;
  const table: TierTable = {
    mode: wire.seat_tier_type ?? 'volume',
    tiers,
    minimum: Math.max(1, first?.min_seats ?? 1),
    // The last tier's end is the maximum already (`maximumUnits`).
    maximum: null,
  };
  const tableIssues = tierTableIssues(table).map((issue) =>
    issue.loc[0] === 'tiers' && typeof issue.loc[1] === 'number'
      ? { ...issue, loc: ['tiers', indexed[issue.loc[1]]!.index] }
      : { ...issue, loc: ['tiers', 0, 'min_seats'] },
  );
  return { table, issues: [...issues, ...tableIssues] };
}

/** A table as `seat_tiers`, with the minimum and maximum seats every version answers. */
export function seatTiersOf(table: TierTable) {
  const starts = tierStarts(table.tiers);
  const maximum = maximumUnits(table);
  return {
    seat_tier_type: table.mode,
    tiers: table.tiers.map((tier, index) => ({
      min_seats: index === 0 ? Math.max(starts[0]!, table.minimum) : starts[index]!,
      max_seats: index === table.tiers.length - 1 && maximum !== null ? maximum : tier.upTo,
      price_per_seat: tier.unitAmount,
    })),
    minimum_seats: table.minimum,
    maximum_seats: maximum,
  };
}

/** The 2027-01 wire shape: bounds and unit amounts as decimal text. */
export type TiersWire = { type: TierMode; tiers: { bound?: number | null; unit_amount: string }[] };

/** Whole minor units, with a fraction only when it is zero ("1000.00" is 1000; "1000.5" is refused). */
const WHOLE_MINOR_UNITS = /^(\d{1,15})(?:\.0+)?$/;

/**
 * `tiers` (API 2027-01) as a table. A seat's price is whole minor units: "1250.5" is refused, not
 * rounded.
 */
export function tableFromTiers(
  wire: TiersWire,
  limits: { minimum?: number | null; maximum?: number | null },
): { table: TierTable; issues: TierIssue[] } {
  const issues: TierIssue[] = [];
  const tiers = wire.tiers.map((tier, index) => {
    const text = tier.unit_amount.trim();
    if (!WHOLE_MINOR_UNITS.test(text)) {
      issues.push({
        loc: ['tiers', index, 'unit_amount'],
        message:
          'A price per seat must be a whole number of minor units (cents); fractions are refused, not rounded.',
      });
    }
    const whole = WHOLE_MINOR_UNITS.exec(text);
    return { upTo: tier.bound ?? null, unitAmount: whole ? Number(whole[1]) : 0 };
  });
  const lastBound = tiers.length > 0 ? tiers[tiers.length - 1]!.upTo : null;
  const table: TierTable = {
    mode: wire.type,
    tiers,
    minimum: Math.max(1, limits.minimum ?? 1),
    // A maximum at the last tier's end says nothing more than the tiers do.
    maximum: limits.maximum === lastBound ? null : (limits.maximum ?? null),
  };
  return { table, issues: [...issues, ...tierTableIssues(table)] };
}

/** A table as the 2027-01 API answers it. */
export function tiersOf(table: TierTable) {
  return {
    tiers: {
      type: table.mode,
      tiers: table.tiers.map((tier) => ({ bound: tier.upTo, unit_amount: String(tier.unitAmount) })),
    },
    minimum_units: table.minimum,
    maximum_units: maximumUnits(table),
  };
}
