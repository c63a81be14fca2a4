import { describe, expect, it } from '@jest/globals';
import { meterCycleDivides, meterCycleInputIssues } from '../products/meter-cycles.js';
import { cadencePeriodStart, type Cadence } from './cadence.js';
import {
  currentMeterPeriod,
  meterCycleDueMs,
  meterCycleKey,
  meterCycleStep,
  meterPeriodAt,
  meterPeriodsOf,
  meteringSince,
  type MeterClock,
} from './meter-cycles.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Every 5th day of 2023–2025 at a time of day that moves, month ends and 29 February included. */
function anchors(): Date[] {
  const result: Date[] = [];
  const first = Date.UTC(2023, 0, 1);
  for (let day = 0; day < 3 * 365 + 1; day += 5) {
    result.push(new Date(first + day * DAY_MS + ((day * 7919) % DAY_MS)));
  }
  for (const [y, m, d] of [
    [2024, 0, 31],
    [2024, 1, 29],
    [2023, 2, 31],
    [2024, 7, 30],
  ] as const) {
    result.push(new Date(Date.UTC(y, m, d, 13, 5)));
  }
  return result;
}

/** Billing cadences and meter cycles that divide them (Polar's matrix). */
const PAIRS: { billing: Cadence; meter: Cadence }[] = [
  { billing: { interval: 'year', count: 1 }, meter: { interval: 'month', count: 1 } },
  { billing: { interval: 'year', count: 1 }, meter: { interval: 'month', count: 3 } },
  { billing: { interval: 'year', count: 2 }, meter: { interval: 'year', count: 1 } },
  { billing: { interval: 'month', count: 6 }, meter: { interval: 'month', count: 2 } },
  { billing: { interval: 'month', count: 1 }, meter: { interval: 'day', count: 1 } },
  { billing: { interval: 'week', count: 2 }, meter: { interval: 'day', count: 7 } },
  { billing: { interval: 'week', count: 1 }, meter: { interval: 'day', count: 1 } },
  { billing: { interval: 'month', count: 3 }, meter: { interval: 'month', count: 3 } },
];

/** The clock of period `index` of a subscription anchored at `anchor`. */
function clockOf(anchor: Date, pair: { billing: Cadence; meter: Cadence }, index: number): MeterClock {
  return {
    cycle: pair.meter,
    billingAnchor: anchor,
    currentPeriodStart: cadencePeriodStart(anchor, pair.billing, index),
    currentPeriodEnd: cadencePeriodStart(anchor, pair.billing, index + 1),
    meterPeriodStart: null,
  };
}

describe('meter periods, over many anchors', () => {
  it('tile each billing period: from its start to its end, each starting where the last ended', () => {
    for (const pair of PAIRS) {
      const perPeriod = expectedCyclesPerPeriod(pair);
      for (const anchor of anchors()) {
        for (const index of [0, 1, 4]) {
          const clock = clockOf(anchor, pair, index);
          const periods = meterPeriodsOf(clock);
          if (perPeriod !== null) expect(periods).toHaveLength(perPeriod);
          expect(periods[0]!.start).toEqual(clock.currentPeriodStart);
          expect(periods.at(-1)!.end).toEqual(clock.currentPeriodEnd);
          periods.forEach((period, at) => {
            expect(period.end.getTime()).toBeGreaterThan(period.start.getTime());
            if (at > 0) expect(period.start).toEqual(periods[at - 1]!.end);
            // Each boundary is on the anchor's grid: not drifting from the previous one's day.
            expect(meterPeriodAt(clock, new Date(period.end.getTime() - 1))).toEqual(period);
          });
        }
      }
    }
  });

  it('are what the workflow closes one after another: each due end becomes the next start', () => {
    const pair = PAIRS[0]!;
    for (const anchor of anchors()) {
      const clock = clockOf(anchor, pair, 2);
      const seen: number[] = [];
      let state: MeterClock = clock;
      for (let due = meterCycleDueMs(state); due !== null; due = meterCycleDueMs(state)) {
        seen.push(due);
        state = { ...state, meterPeriodStart: new Date(due) };
      }
      // Twelve monthly cycles: eleven close inside the year, the twelfth with the renewal.
      expect(seen).toEqual(
        meterPeriodsOf(clock)
          .slice(0, -1)
          .map((period) => period.end.getTime()),
      );
      expect(currentMeterPeriod(state)!.end).toEqual(clock.currentPeriodEnd);
    }
  });

  it('keep the anchor day: a plan bought on 31 January closes its cycles on 29 Feb, 31 Mar, 30 Apr', () => {
    const anchor = new Date('2024-01-31T10:00:00.000Z');
    const ends = meterPeriodsOf(clockOf(anchor, PAIRS[0]!, 0))
      .slice(0, 4)
      .map((period) => period.end.toISOString());
    expect(ends).toEqual([
      '2024-02-29T10:00:00.000Z',
      '2024-03-31T10:00:00.000Z',
      '2024-04-30T10:00:00.000Z',
      '2024-05-31T10:00:00.000Z',
    ]);
  });

  it('without a cycle of its own: none, the billing period meters', () => {
    const anchor = new Date('2024-03-10T00:00:00.000Z');
    const clock = { ...clockOf(anchor, PAIRS[0]!, 0), cycle: null };
    expect(currentMeterPeriod(clock)).toBeNull();
    expect(meterCycleDueMs(clock)).toBeNull();
  });

  it('meters from the last closed cycle, also once the row has no cycle, and from the period before any', () => {
    const anchor = new Date('2024-03-10T00:00:00.000Z');
    const clock = clockOf(anchor, PAIRS[0]!, 0);
    expect(meteringSince(clock)).toEqual(anchor);
    const closed = { ...clock, meterPeriodStart: new Date('2024-05-10T00:00:00.000Z') };
    expect(meteringSince(closed)).toEqual(closed.meterPeriodStart);
    expect(meteringSince({ ...closed, cycle: null })).toEqual(closed.meterPeriodStart);
    // A renewal moved the period past it: the new period's start.
    const renewed = {
      ...closed,
      ...clockOf(anchor, PAIRS[0]!, 1),
      meterPeriodStart: closed.meterPeriodStart,
    };
    expect(meteringSince(renewed)).toEqual(renewed.currentPeriodStart);
  });

  it('a period started off the grid (a resume) is still tiled, its first cycle cut short', () => {
    const anchor = new Date('2024-01-15T00:00:00.000Z');
    const clock: MeterClock = {
      cycle: { interval: 'month', count: 1 },
      billingAnchor: anchor,
      currentPeriodStart: new Date('2024-03-01T00:00:00.000Z'),
      currentPeriodEnd: new Date('2025-03-01T00:00:00.000Z'),
      meterPeriodStart: null,
    };
    const periods = meterPeriodsOf(clock);
    expect(periods[0]).toEqual({
      start: clock.currentPeriodStart,
      end: new Date('2024-03-15T00:00:00.000Z'),
    });
    expect(periods.at(-1)!.end).toEqual(clock.currentPeriodEnd);
  });
});

describe('the meter-cycle step', () => {
  it('comes before the period ends, and never at it (the renewal bills the last cycle)', () => {
    expect(meterCycleStep({ currentPeriodIndex: 3, currentPeriodEndMs: 100, meterCycleEndMs: 40 })).toEqual({
      kind: 'meter_cycle',
      index: 3,
      atMs: 40,
    });
    expect(
      meterCycleStep({ currentPeriodIndex: 3, currentPeriodEndMs: 100, meterCycleEndMs: 100 }),
    ).toBeNull();
    expect(
      meterCycleStep({ currentPeriodIndex: 3, currentPeriodEndMs: 100, meterCycleEndMs: null }),
    ).toBeNull();
    expect(meterCycleStep({ currentPeriodIndex: 3, currentPeriodEndMs: 100 })).toBeNull();
  });

  it('keys its order by subscription, period and cycle end', () => {
    expect(meterCycleKey('s1', 2, Date.UTC(2025, 1, 3))).toBe(
      'subscription:s1:meter-cycle:2:2025-02-03T00:00:00.000Z',
    );
  });
});

describe('meter_interval dividing the billing interval (Polar)', () => {
  it.each([
    ['month', 1, 'year', 1, true],
    ['month', 5, 'year', 1, false],
    ['month', 4, 'year', 1, true],
    ['year', 1, 'month', 1, false],
    ['week', 1, 'month', 1, false],
    ['day', 1, 'month', 1, true],
    ['day', 2, 'month', 1, false],
    ['day', 7, 'week', 1, true],
    ['day', 3, 'week', 1, false],
    ['week', 1, 'week', 2, true],
    ['month', 2, 'month', 3, false],
    ['month', 1, 'week', 4, false],
  ] as const)('%s×%d on %s×%d: %s', (meter, m, billing, n, divides) => {
    expect(meterCycleDivides({ interval: meter, count: m }, { interval: billing, count: n })).toBe(divides);
  });

  it('refuses one on a one-time product, and one that does not divide, at body.meter_interval', () => {
    expect(meterCycleInputIssues({ meter_interval: 'month' }, { interval: null, count: null })).toEqual([
      expect.objectContaining({ loc: ['body', 'meter_interval'] }),
    ]);
    expect(
      meterCycleInputIssues(
        { meter_interval: 'month', meter_interval_count: 5 },
        { interval: 'year', count: 1 },
      ),
    ).toEqual([expect.objectContaining({ loc: ['body', 'meter_interval'], type: 'value_error' })]);
    expect(meterCycleInputIssues({ meter_interval: 'month' }, { interval: 'year', count: 1 })).toEqual([]);
    expect(
      meterCycleInputIssues(
        { meter_interval: null, meter_interval_count: 5 },
        { interval: null, count: null },
      ),
    ).toEqual([]);
  });
});

/** How many meter cycles make one period, when both count in the same unit family exactly. */
function expectedCyclesPerPeriod({ billing, meter }: { billing: Cadence; meter: Cadence }): number | null {
  const months = { month: 1, year: 12 } as Record<string, number>;
  const days = { day: 1, week: 7 } as Record<string, number>;
  if (months[billing.interval] && months[meter.interval]) {
    return (billing.count * months[billing.interval]!) / (meter.count * months[meter.interval]!);
  }
  if (days[billing.interval] && days[meter.interval]) {
    return (billing.count * days[billing.interval]!) / (meter.count * days[meter.interval]!);
  }
  return null;
}
