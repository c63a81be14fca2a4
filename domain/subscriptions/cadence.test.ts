import { describe, expect, it } from '@jest/globals';
import {
  billedEveryWords,
  cadencePeriodAt,
  cadencePeriodStart,
  durationWords,
  perPeriodWords,
  type Cadence,
} from './cadence.js';
import { describePriceSchedule } from './schedule.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A deterministic spread of anchors: every day of 2023–2025 at a time of day that moves. */
function anchors(): Date[] {
  const result: Date[] = [];
  const first = Date.UTC(2023, 0, 1);
  for (let day = 0; day < 3 * 365 + 1; day += 1) {
    result.push(new Date(first + day * DAY_MS + ((day * 7919) % DAY_MS)));
  }
  return result;
}

const CADENCES: Cadence[] = [
  { interval: 'day', count: 1 },
  { interval: 'day', count: 10 },
  { interval: 'week', count: 1 },
  { interval: 'week', count: 2 },
  { interval: 'month', count: 1 },
  { interval: 'month', count: 3 },
  { interval: 'month', count: 7 },
  { interval: 'year', count: 1 },
  { interval: 'year', count: 2 },
];

describe('cadence periods, over 1,096 anchors and several counts', () => {
  it('are contiguous, each starting where the last ended, and each found again by periodAt', () => {
    for (const cadence of CADENCES) {
      for (const anchor of anchors()) {
        let previousEnd = anchor.getTime();
        for (let index = 0; index < 14; index += 1) {
          const start = cadencePeriodStart(anchor, cadence, index);
          const end = cadencePeriodStart(anchor, cadence, index + 1);
          expect(start.getTime()).toBe(previousEnd);
          expect(end.getTime()).toBeGreaterThan(start.getTime());
          const inside = new Date(start.getTime() + Math.floor((end.getTime() - start.getTime()) / 2));
          expect(cadencePeriodAt(anchor, cadence, inside)).toEqual({ index, start, end });
          expect(cadencePeriodAt(anchor, cadence, start).index).toBe(index);
          expect(cadencePeriodAt(anchor, cadence, new Date(end.getTime() - 1)).index).toBe(index);
          previousEnd = end.getTime();
        }
      }
    }
  });

  it('keep the anchor day of the month, clamped to a shorter month’s last day, and its time of day', () => {
    const cadence: Cadence = { interval: 'month', count: 3 };
    for (const anchor of anchors()) {
      for (let index = 1; index < 20; index += 1) {
        const start = cadencePeriodStart(anchor, cadence, index);
        const months = anchor.getUTCMonth() + 3 * index;
        expect(start.getUTCFullYear()).toBe(anchor.getUTCFullYear() + Math.floor(months / 12));
        expect(start.getUTCMonth()).toBe(months % 12);
        const lastDay = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 0)).getUTCDate();
        expect(start.getUTCDate()).toBe(Math.min(anchor.getUTCDate(), lastDay));
        expect(start.getTime() % DAY_MS).toBe(anchor.getTime() % DAY_MS);
      }
    }
  });

  it('every 3 months from 31 January: 30 April, 31 July, 31 October, 31 January, for years', () => {
    const anchor = new Date('2024-01-31T10:00:00.000Z');
    const starts = Array.from({ length: 13 }, (_, index) =>
      cadencePeriodStart(anchor, { interval: 'month', count: 3 }, index).toISOString().slice(0, 10),
    );
    expect(starts).toEqual([
      '2024-01-31',
      '2024-04-30',
      '2024-07-31',
      '2024-10-31',
      '2025-01-31',
      '2025-04-30',
      '2025-07-31',
      '2025-10-31',
      '2026-01-31',
      '2026-04-30',
      '2026-07-31',
      '2026-10-31',
      '2027-01-31',
    ]);
  });

  it('every 2 weeks and every 2 years are exact', () => {
    const anchor = new Date('2024-02-29T00:00:00.000Z');
    expect(cadencePeriodStart(anchor, { interval: 'week', count: 2 }, 3).toISOString()).toBe(
      '2024-04-11T00:00:00.000Z',
    );
    expect(cadencePeriodStart(anchor, { interval: 'year', count: 2 }, 1).toISOString()).toBe(
      '2026-02-28T00:00:00.000Z',
    );
    expect(cadencePeriodStart(anchor, { interval: 'year', count: 2 }, 2).toISOString()).toBe(
      '2028-02-29T00:00:00.000Z',
    );
  });

  it('refuse an instant before the anchor', () => {
    expect(() =>
      cadencePeriodAt(
        new Date('2025-01-01T00:00:00Z'),
        { interval: 'week', count: 2 },
        new Date('2024-12-31T00:00:00Z'),
      ),
    ).toThrow(RangeError);
  });
});

describe('cadence words', () => {
  it('say one interval as "/ month" and several as "every 3 months"', () => {
    expect(perPeriodWords('$20.00', { interval: 'month', count: 1 })).toBe('$20.00 / month');
    expect(perPeriodWords('$60.00', { interval: 'month', count: 3 })).toBe('$60.00 every 3 months');
    expect(durationWords(2, { interval: 'month', count: 3 })).toBe('for 6 months');
    expect(billedEveryWords({ interval: 'week', count: 2 })).toBe('Every 2 weeks');
    expect(billedEveryWords({ interval: 'day', count: 1 })).toBe('Daily');
  });

  it('tell what an every-3-months plan costs over time', () => {
    const at = new Date('2026-12-12T00:00:00.000Z');
    const format = {
      money: (amount: number) => `$${(amount / 100).toFixed(2)}`,
      date: () => '12 March 2027',
    };
    const phases = [
      { amount: 3000, periods: 1, startsAt: at, endsAt: new Date('2027-03-12T00:00:00.000Z') },
      { amount: 6000, periods: null, startsAt: new Date('2027-03-12T00:00:00.000Z'), endsAt: null },
    ];
    expect(describePriceSchedule(phases, { interval: 'month', count: 3 }, format, { from: 'purchase' })).toBe(
      '$30.00 today, then $60.00 every 3 months',
    );
    expect(describePriceSchedule(phases, { interval: 'month', count: 3 }, format, { from: 'current' })).toBe(
      '$30.00 until 12 March 2027, then $60.00 every 3 months',
    );
  });
});
