// How often a plan renews: an interval (Polar's day, week, month, year) and how many of them make
// one period (`recurring_interval_count`: 3 months a quarter, 2 weeks a fortnight). Periods are
// counted from the plan's anchor, never from the previous period's end, so a plan bought on the
// 31st keeps renewing on the 31st (or its month's last day) for ever. Pure.

import type { RecurringInterval } from '../prices/schemas.js';

export type CadenceInterval = RecurringInterval;

export type Cadence = { interval: CadenceInterval; count: number };

const DAY_MS = 24 * 60 * 60 * 1000;

/** The cadence of an interval alone (count 1), or the cadence itself: old callers pass an interval. */
export function cadenceOf(interval: CadenceInterval | Cadence, count = 1): Cadence {
  if (typeof interval !== 'string') return interval;
  if (!Number.isInteger(count) || count < 1) throw new RangeError('An interval count is a whole number ≥ 1.');
  return { interval, count };
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/**
 * `months` calendar months after `from`, on the same day of the month or the month's last day when
 * it is shorter, at the same time of day (UTC).
 */
export function addMonthsUtc(from: Date, months: number): Date {
  const monthIndex = from.getUTCMonth() + months;
  const year = from.getUTCFullYear() + Math.floor(monthIndex / 12);
  const month = ((monthIndex % 12) + 12) % 12;
  const day = Math.min(from.getUTCDate(), daysInMonth(year, month));
  return new Date(
    Date.UTC(
      year,
      month,
      day,
      from.getUTCHours(),
      from.getUTCMinutes(),
      from.getUTCSeconds(),
      from.getUTCMilliseconds(),
    ),
  );
}

/** `units` of `interval` after `from`: days and weeks are exact (UTC has no daylight saving). */
export function addIntervals(from: Date, interval: CadenceInterval, units: number): Date {
  switch (interval) {
    case 'day':
      return new Date(from.getTime() + units * DAY_MS);
    case 'week':
      return new Date(from.getTime() + units * 7 * DAY_MS);
    case 'month':
      return addMonthsUtc(from, units);
    case 'year':
      return addMonthsUtc(from, units * 12);
  }
}

/** Where period `index` of the cadence starts (0 = the anchor itself). */
export function cadencePeriodStart(anchor: Date, cadence: Cadence, index: number): Date {
  return addIntervals(anchor, cadence.interval, cadence.count * index);
}

/**
 * A first guess of the index of the period holding `at`, at most one off either way: whole
 * calendar months (or days) between the two, divided by the period's length.
 */
function estimateIndex(anchor: Date, cadence: Cadence, at: Date): number {
  switch (cadence.interval) {
    case 'day':
    case 'week': {
      const days = cadence.interval === 'day' ? cadence.count : cadence.count * 7;
      return Math.floor((at.getTime() - anchor.getTime()) / (days * DAY_MS));
    }
    case 'month':
    case 'year': {
      const months =
        (at.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (at.getUTCMonth() - anchor.getUTCMonth());
      return Math.floor(months / (cadence.interval === 'year' ? 12 * cadence.count : cadence.count));
    }
  }
}

export type CadencePeriod = { index: number; start: Date; end: Date };

/** The period of the cadence that contains `at` (periods include their start and exclude their end). */
export function cadencePeriodAt(anchor: Date, cadence: Cadence, at: Date): CadencePeriod {
  if (at.getTime() < anchor.getTime()) throw new RangeError('The instant is before the anchor.');
  let index = Math.max(0, estimateIndex(anchor, cadence, at));
  // The estimate can be one period ahead (earlier in the month than the anchor day) or behind.
  while (index > 0 && cadencePeriodStart(anchor, cadence, index).getTime() > at.getTime()) index -= 1;
  while (cadencePeriodStart(anchor, cadence, index + 1).getTime() <= at.getTime()) index += 1;
  return {
    index,
    start: cadencePeriodStart(anchor, cadence, index),
    end: cadencePeriodStart(anchor, cadence, index + 1),
  };
}

/** Two cadences renew alike. */
export const sameCadence = (a: Cadence, b: Cadence) => a.interval === b.interval && a.count === b.count;

const plural = (unit: CadenceInterval, count: number) => (count === 1 ? unit : `${unit}s`);

/**
 * An amount per period in words: "$20.00 / month" for a period of one interval, "$60.00 every 3
 * months" for several.
 */
export function perPeriodWords(money: string, cadence: Cadence): string {
  return cadence.count === 1
    ? `${money} / ${cadence.interval}`
    : `${money} every ${cadence.count} ${plural(cadence.interval, cadence.count)}`;
}

/** How long `periods` periods last: "for 3 months", or "for 9 months" of a plan renewed every 3. */
export function durationWords(periods: number, cadence: Cadence): string {
  const units = periods * cadence.count;
  return `for ${units} ${plural(cadence.interval, units)}`;
}

/** "month", "3 months": the length of one period, for "each …" and "every …". */
export function periodLengthWords(cadence: Cadence): string {
  return cadence.count === 1
    ? cadence.interval
    : `${cadence.count} ${plural(cadence.interval, cadence.count)}`;
}

/** "Monthly", "Every 3 months": how often the plan bills, as a label. */
export function billedEveryWords(cadence: Cadence): string {
  if (cadence.count === 1) {
    return { day: 'Daily', week: 'Weekly', month: 'Monthly', year: 'Yearly' }[cadence.interval];
  }
  return `Every ${periodLengthWords(cadence)}`;
}
