import { dayIn, startOfDayIn } from '../../domain/dates/rules';
import type { Aggregation } from '../../domain/meters/schemas';

export const USAGE_RANGE_IDS = ['7d', '30d', '12w', '12m'] as const;
export type UsageRange = (typeof USAGE_RANGE_IDS)[number];
export const DEFAULT_USAGE_RANGE: UsageRange = '30d';

export type ChartInterval = 'day' | 'week' | 'month';

/** The chart's choices; each ends with the current day, week or month, which is still filling up. */
export const USAGE_RANGES: Record<UsageRange, { label: string; interval: ChartInterval; buckets: number }> = {
  '7d': { label: 'Last 7 days, by day', interval: 'day', buckets: 7 },
  '30d': { label: 'Last 30 days, by day', interval: 'day', buckets: 30 },
  '12w': { label: 'Last 12 weeks, by week', interval: 'week', buckets: 12 },
  '12m': { label: 'Last 12 months, by month', interval: 'month', buckets: 12 },
};

/**
 * From the start of the range's first bucket to the end of the current one, in `timeZone` (the
 * organization's on its pages; the runtime's own by default). Aligned on buckets, the first bar is
 * a whole day (week, month) rather than the part after "now minus 30 days", and the bounds (the
 * query's key) stay the same until the current bucket ends.
 */
export function rangeBounds(
  range: UsageRange,
  now: Date,
  timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone,
): { start: Date; end: Date } {
  const { interval, buckets } = USAGE_RANGES[range];
  const [year, month, day] = dayIn(now, timeZone).split('-').map(Number) as [number, number, number];
  // Calendar arithmetic on dates alone (Date.UTC carries a day 0 or 32 into the next month).
  const date = (y: number, m: number, d: number) =>
    new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);
  let first: string;
  let next: string;
  if (interval === 'month') {
    first = date(year, month - (buckets - 1), 1);
    next = date(year, month + 1, 1);
  } else {
    const days = interval === 'week' ? 7 : 1;
    // Weeks start on Monday, as the API's do.
    const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
    const current = day - (interval === 'week' ? (weekday + 6) % 7 : 0);
    first = date(year, month, current - days * (buckets - 1));
    next = date(year, month, current + days);
  }
  // The API counts an event at the end instant, and the next bucket starts there.
  return { start: startOfDayIn(first, timeZone), end: new Date(startOfDayIn(next, timeZone).getTime() - 1) };
}

/** A bucket as people name it, from the instant it starts (a midnight of `timeZone`). */
export function bucketLabel(timestamp: string, interval: ChartInterval, timeZone?: string): string {
  const start = new Date(timestamp);
  const format = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(undefined, { ...options, timeZone }).format(start);
  if (interval === 'day') return format({ weekday: 'short', month: 'short', day: 'numeric' });
  if (interval === 'week') return `Week of ${format({ month: 'short', day: 'numeric', year: 'numeric' })}`;
  return format({ month: 'long', year: 'numeric' });
}

/** A side of the chart's axis: the furthest bar from zero rounded out to 1, 2 or 5 × 10ⁿ (12 → 20, 0.3 → 0.5). */
export function axisLimit(furthest: number): number {
  if (furthest <= 0) return 0;
  const power = 10 ** Math.floor(Math.log10(furthest));
  const factor = [1, 2, 5].find((candidate) => furthest <= candidate * power) ?? 10;
  return factor * power;
}

/** What the range's total is, which is the sum of the bars only for count and sum meters. */
export function describeTotal(aggregation: Aggregation): string {
  switch (aggregation.func) {
    case 'count':
      return 'Every event the meter counts in the range: the sum of the bars.';
    case 'sum':
      return `The sum of ${aggregation.property} over the range: the sum of the bars.`;
    case 'max':
      return `The highest ${aggregation.property} of the whole range, not the sum of the bars.`;
    case 'min':
      return `The lowest ${aggregation.property} of the whole range, not the sum of the bars.`;
    case 'avg':
      return `The average ${aggregation.property} over every event of the range, not the sum of the bars.`;
  }
}
