import { minorUnitDigits } from '../../domain/money/rules';

// The Overview's ranges and how its figures read. The metrics count the organization's days (the
// `timezone` of docs/metrics.md): the ranges are its dates and the periods are named in its zone.

export const OVERVIEW_RANGE_IDS = ['7d', '30d', '90d', '12m'] as const;
export type OverviewRange = (typeof OVERVIEW_RANGE_IDS)[number];
export const DEFAULT_OVERVIEW_RANGE: OverviewRange = '30d';

export type OverviewInterval = 'day' | 'month';

/** Each choice ends today (the organization's) and is compared with as long a stretch just before it. */
export const OVERVIEW_RANGES: Record<
  OverviewRange,
  { label: string; interval: OverviewInterval; length: number; previous: string }
> = {
  '7d': { label: 'Last 7 days', interval: 'day', length: 7, previous: 'the 7 days before' },
  '30d': { label: 'Last 30 days', interval: 'day', length: 30, previous: 'the 30 days before' },
  '90d': { label: 'Last 90 days', interval: 'day', length: 90, previous: 'the 90 days before' },
  '12m': { label: 'Last 12 months', interval: 'month', length: 12, previous: 'the 12 months before' },
};

/** What one call of `/v1/metrics/` asks for. */
export type MetricsWindow = { start_date: string; end_date: string; interval: OverviewInterval };

const DAY_MS = 24 * 60 * 60 * 1000;
const isoDate = (time: number) => new Date(time).toISOString().slice(0, 10);
const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/** The same day `months` months earlier, or that month's last day (29 February → 28 February). */
function monthsBefore(time: number, months: number): number {
  const date = new Date(time);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() - months;
  const day = Math.min(date.getUTCDate(), daysInMonth(year, month));
  return Date.UTC(year, month, day);
}

/**
 * The range's dates and those of the stretch before it, from `today` (`YYYY-MM-DD`, the
 * organization's: `dayIn(now, timeZone)`). Days: the last N days with today, and the N days
 * before. Months: the 11 whole months before this one and this month to today, against the same
 * dates a year earlier, so both end on the same day of their month.
 */
export function overviewWindows(
  range: OverviewRange,
  todayDate: string,
): { current: MetricsWindow; previous: MetricsWindow } {
  const { interval, length } = OVERVIEW_RANGES[range];
  // Calendar arithmetic on the date alone: a UTC midnight stands for it, whatever the zone.
  const now = new Date(`${todayDate}T00:00:00Z`);
  const today = now.getTime();
  if (interval === 'day') {
    const start = today - (length - 1) * DAY_MS;
    return {
      current: { start_date: isoDate(start), end_date: isoDate(today), interval },
      previous: {
        start_date: isoDate(start - length * DAY_MS),
        end_date: isoDate(today - length * DAY_MS),
        interval,
      },
    };
  }
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (length - 1), 1);
  return {
    current: { start_date: isoDate(start), end_date: isoDate(today), interval },
    previous: {
      start_date: isoDate(monthsBefore(start, length)),
      end_date: isoDate(monthsBefore(today, length)),
      interval,
    },
  };
}

export type Change = { text: string; tone: 'up' | 'down' | 'flat' };

/** How a figure moved since the previous stretch, in percent of what it was. */
export function percentChange(current: number, previous: number, locale?: string): Change {
  if (current === previous) return { text: 'No change', tone: 'flat' };
  // A rise from nothing has no percentage.
  if (previous === 0) return { text: 'Up from 0', tone: 'up' };
  const ratio = (current - previous) / Math.abs(previous);
  const text = new Intl.NumberFormat(locale, {
    style: 'percent',
    maximumFractionDigits: 1,
    signDisplay: 'always',
  }).format(ratio);
  return { text, tone: ratio > 0 ? 'up' : 'down' };
}

/** How a rate moved, in percentage points: from 20% to 25% is 5 points, not 25%. */
export function pointChange(current: number, previous: number, locale?: string): Change {
  const points = Math.round((current - previous) * 1000) / 10;
  if (points === 0) return { text: 'No change', tone: 'flat' };
  const text = new Intl.NumberFormat(locale, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
    signDisplay: 'always',
  }).format(points);
  return { text: `${text} pts`, tone: points > 0 ? 'up' : 'down' };
}

/** A ratio from 0 to 1 as a percentage: 0.3333 → "33.3%". */
export function formatRate(ratio: number, locale?: string): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(ratio);
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale ?? ''}:${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}

/**
 * A period as people name it, from the instant it starts (a midnight of `timeZone`, where the
 * metrics cut it): "Tue, Nov 24", "November 2026".
 */
export function periodLabel(
  timestamp: string,
  interval: OverviewInterval,
  timeZone: string,
  locale?: string,
): string {
  return formatOf(
    locale,
    interval === 'day'
      ? { weekday: 'short', month: 'short', day: 'numeric', timeZone }
      : { month: 'long', year: 'numeric', timeZone },
  ).format(new Date(timestamp));
}

/** The same, short enough for an axis: "Nov 24", "Nov 2026". */
export function periodTick(
  timestamp: string,
  interval: OverviewInterval,
  timeZone: string,
  locale?: string,
): string {
  return formatOf(
    locale,
    interval === 'day'
      ? { month: 'short', day: 'numeric', timeZone }
      : { month: 'short', year: 'numeric', timeZone },
  ).format(new Date(timestamp));
}

/** A window's dates as people read them: "Oct 26 – Nov 24, 2026". */
export function windowDates(window: MetricsWindow, locale?: string): string {
  const day = (date: string) => new Date(`${date}T00:00:00Z`);
  return formatOf(locale, { dateStyle: 'medium', timeZone: 'UTC' }).formatRange(
    day(window.start_date),
    day(window.end_date),
  );
}

/** An axis's amounts, short: "$1.2K", "340", "25%". */
export function axisFormat(figure: 'money' | 'count' | 'rate', currency: string, locale?: string) {
  const format =
    figure === 'money'
      ? new Intl.NumberFormat(locale, {
          style: 'currency',
          currency: currency.toUpperCase(),
          notation: 'compact',
          maximumFractionDigits: 1,
        })
      : figure === 'rate'
        ? new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 })
        : new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 });
  // Money arrives in minor units; the axis speaks in the currency's units. A tick may fall between
  // two minor units and is cut to "$1.2K" anyway, so a division is exact enough here, unlike
  // `formatMoney`, which writes every digit and takes whole minor units only.
  const scale = figure === 'money' ? 10 ** minorUnitDigits(currency) : 1;
  return (value: number) => format.format(value / scale);
}
