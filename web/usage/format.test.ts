import { describe, expect, it } from '@jest/globals';
import { axisLimit, describeTotal, rangeBounds } from './format';

// Local times: the bounds are the browser's midnights, whatever zone the tests run in.
const at = (year: number, month: number, day: number, hour = 0) => new Date(year, month - 1, day, hour);
const justBefore = (date: Date) => new Date(date.getTime() - 1);

describe('rangeBounds', () => {
  const now = at(2026, 3, 4, 15); // a Wednesday

  it('runs the last 7 and 30 days from a midnight to the end of today', () => {
    expect(rangeBounds('7d', now)).toEqual({ start: at(2026, 2, 26), end: justBefore(at(2026, 3, 5)) });
    expect(rangeBounds('30d', now)).toEqual({ start: at(2026, 2, 3), end: justBefore(at(2026, 3, 5)) });
  });

  it('runs the last 12 weeks from a Monday to the end of this week', () => {
    expect(rangeBounds('12w', now)).toEqual({ start: at(2025, 12, 15), end: justBefore(at(2026, 3, 9)) });
    // On a Sunday, the week is the one that began six days before.
    expect(rangeBounds('12w', at(2026, 3, 8, 23)).start).toEqual(at(2025, 12, 15));
    expect(rangeBounds('12w', at(2026, 3, 9)).start).toEqual(at(2025, 12, 22));
  });

  it('runs the last 12 months from the first of a month to the end of this one, across a year', () => {
    expect(rangeBounds('12m', now)).toEqual({ start: at(2025, 4, 1), end: justBefore(at(2026, 4, 1)) });
    expect(rangeBounds('12m', at(2026, 12, 31, 23))).toEqual({
      start: at(2026, 1, 1),
      end: justBefore(at(2027, 1, 1)),
    });
  });
});

describe('axisLimit', () => {
  it('rounds the furthest bar out to 1, 2 or 5 times a power of ten', () => {
    expect([1, 3, 10, 12, 20, 21, 70, 101].map(axisLimit)).toEqual([1, 5, 10, 20, 20, 50, 100, 200]);
    expect(axisLimit(0.3)).toBeCloseTo(0.5);
  });

  it('is zero on a side without bars', () => {
    expect(axisLimit(0)).toBe(0);
  });
});

describe('describeTotal', () => {
  it('says the total is the sum of the bars only for count and sum meters', () => {
    expect(describeTotal({ func: 'count' })).toContain('the sum of the bars');
    expect(describeTotal({ func: 'sum', property: 'tokens' })).toContain(': the sum of the bars');
    for (const func of ['max', 'min', 'avg'] as const) {
      expect(describeTotal({ func, property: 'latency' })).toContain('not the sum of the bars');
    }
  });
});

describe('rangeBounds in a time zone', () => {
  it("cuts the days at the zone's midnights, whatever the runtime's", () => {
    // 23:30 UTC on Wednesday 4 March is already Thursday the 5th in Auckland (UTC+13).
    const now = new Date('2026-03-04T23:30:00Z');
    // From Friday 27 February to the end of Thursday 5 March, Auckland's midnights in UTC.
    expect(rangeBounds('7d', now, 'Pacific/Auckland')).toEqual({
      start: new Date('2026-02-26T11:00:00Z'),
      end: new Date(new Date('2026-03-05T11:00:00Z').getTime() - 1),
    });
    expect(rangeBounds('7d', now, 'UTC').start).toEqual(new Date('2026-02-26T00:00:00Z'));
  });
});
