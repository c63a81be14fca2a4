// Dates as people read them, in one place for the server (emails, invoices) and the web app: Intl,
// the reader's locale and the organization's time zone. Machines read ISO-8601 in UTC instead (the
// wire, CSV exports); nothing here is for them.

/** The time zone of an organization that has not chosen one. */
export const DEFAULT_TIME_ZONE = 'UTC';

/** The longest IANA name we accept (the longest known today, `America/Argentina/ComodRivadavia`, has 32). */
export const TIME_ZONE_MAX_LENGTH = 64;

/** Emails and invoices have no reader's locale: they are written in English. */
export const DOCUMENT_LOCALE = 'en-US';

export type DateInput = Date | string | number;

export type DateWords = {
  /** IANA name; UTC when absent. */
  timeZone?: string;
  /** BCP 47 tag; the runtime's own (the browser's: the viewer's) when absent. */
  locale?: string;
  /** `medium` ("Nov 24, 2026") in lists and pages, `long` ("November 24, 2026") in emails and documents. */
  style?: 'medium' | 'long';
};

const formats = new Map<string, Intl.DateTimeFormat>();

/** Building a format costs far more than using one: each is kept for the process's life. */
function formatOf(locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}

const toDate = (value: DateInput) => (value instanceof Date ? value : new Date(value));

/** The calendar day an instant falls on in the time zone: "Nov 24, 2026" (renewals, period ends). */
export function formatDay(value: DateInput, words: DateWords = {}): string {
  return formatOf(words.locale, {
    dateStyle: words.style ?? 'medium',
    timeZone: words.timeZone ?? DEFAULT_TIME_ZONE,
  }).format(toDate(value));
}

/**
 * An instant: its day and time in the time zone, "Nov 24, 2026, 3:04 PM". `withZone` names the
 * zone ("3:04 PM GMT+1"), for readers who may be elsewhere (emails, a viewer in another zone).
 */
export function formatInstant(value: DateInput, words: DateWords & { withZone?: boolean } = {}): string {
  const long = words.style === 'long';
  return formatOf(words.locale, {
    year: 'numeric',
    month: long ? 'long' : 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: words.timeZone ?? DEFAULT_TIME_ZONE,
    ...(words.withZone ? { timeZoneName: 'short' } : {}),
  }).format(toDate(value));
}

/** Whether the runtime's Intl knows the IANA name (the server checks PostgreSQL's list too). */
export function isKnownTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > TIME_ZONE_MAX_LENGTH) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Year, month (1–12), day and the time of day of an instant, as a clock in the time zone shows it. */
function wallClock(time: number, timeZone: string) {
  const parts = formatOf('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(time));
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((candidate) => candidate.type === type)?.value ?? 0);
  return {
    year: part('year'),
    month: part('month'),
    day: part('day'),
    hour: part('hour'),
    minute: part('minute'),
    second: part('second'),
  };
}

/** How far the time zone's clocks are ahead of UTC at an instant, in milliseconds. */
function offsetAt(time: number, timeZone: string): number {
  const clock = wallClock(time, timeZone);
  const asUtc = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second);
  return asUtc - Math.floor(time / 1000) * 1000;
}

/**
 * The instant a calendar day (`YYYY-MM-DD`) starts in the time zone: its midnight, or the first
 * instant of the day where daylight saving time skips midnight (the clocks jump from 23:59 to 01:00).
 */
export function startOfDayIn(day: string, timeZone: string): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const midnightUtc = Date.UTC(year, month - 1, date);
  // The offset at midnight UTC, then at that guess: they differ only around a change of the clocks,
  // where the earlier of the two instants that fall on the day is its start.
  const first = midnightUtc - offsetAt(midnightUtc, timeZone);
  const second = midnightUtc - offsetAt(first, timeZone);
  const onTheDay = [first, second].filter((time) => {
    const clock = wallClock(time, timeZone);
    return clock.year === year && clock.month === month && clock.day === date;
  });
  return new Date(onTheDay.length > 0 ? Math.min(...onTheDay) : first);
}

/** The calendar day (`YYYY-MM-DD`) an instant falls on in the time zone. */
export function dayIn(value: DateInput, timeZone: string): string {
  const clock = wallClock(toDate(value).getTime(), timeZone);
  const pad = (number: number, width = 2) => String(number).padStart(width, '0');
  return `${pad(clock.year, 4)}-${pad(clock.month)}-${pad(clock.day)}`;
}
