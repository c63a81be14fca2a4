// Pure helpers of the sales lists (orders, checkouts, customers): no React, unit-tested.

/**
 * A list's `sorting` as Polar spells it (`created_at`, `-created_at`): clicking a column's header
 * sorts by it, clicking it again turns the direction.
 */
export function nextSorting(current: string, field: string, firstDirection: 'asc' | 'desc'): string {
  if (current === field) return `-${field}`;
  if (current === `-${field}`) return field;
  return firstDirection === 'desc' ? `-${field}` : field;
}

/** "1 order", "2 orders". */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? singular : plural}`;
}

/** `YYYY-MM-DD` from a date field as the instant its day starts where the seller is. */
export function startOfDay(date: string): string {
  return new Date(`${date}T00:00:00`).toISOString();
}

/** The instant the day after `YYYY-MM-DD` starts: a "to" date includes its whole day. */
export function endOfDay(date: string): string {
  const day = new Date(`${date}T00:00:00`);
  day.setDate(day.getDate() + 1);
  return day.toISOString();
}
