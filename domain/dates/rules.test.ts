import { describe, expect, it } from '@jest/globals';
import { dayIn, formatDay, formatInstant, isKnownTimeZone, startOfDayIn } from './rules.js';

// 23:30 UTC on 24 November: already the 25th in Auckland (UTC+13), still the 24th in New York.
const lateEvening = '2026-11-24T23:30:00.000Z';

describe('formatDay', () => {
  it('names the calendar day of the time zone, in the locale', () => {
    expect(formatDay(lateEvening, { locale: 'en-US' })).toBe('Nov 24, 2026');
    expect(formatDay(lateEvening, { locale: 'en-US', timeZone: 'Pacific/Auckland' })).toBe('Nov 25, 2026');
    expect(formatDay(lateEvening, { locale: 'en-GB', timeZone: 'America/New_York' })).toBe('24 Nov 2026');
    expect(formatDay(lateEvening, { locale: 'de-DE', timeZone: 'Pacific/Auckland' })).toBe('25.11.2026');
  });

  it('writes the month in full for emails and documents', () => {
    expect(formatDay(new Date(lateEvening), { locale: 'en-US', style: 'long' })).toBe('November 24, 2026');
  });
});

describe('formatInstant', () => {
  it('gives the time on the time zone’s clocks, and names the zone when asked', () => {
    expect(formatInstant(lateEvening, { locale: 'en-US' })).toBe('Nov 24, 2026, 11:30 PM');
    expect(formatInstant(lateEvening, { locale: 'en-US', timeZone: 'Asia/Kolkata' })).toBe(
      'Nov 25, 2026, 5:00 AM',
    );
    expect(formatInstant(lateEvening, { locale: 'en-US', timeZone: 'Europe/Berlin', withZone: true })).toBe(
      'Nov 25, 2026, 12:30 AM GMT+1',
    );
    expect(formatInstant(lateEvening, { locale: 'en-GB', withZone: true, style: 'long' })).toBe(
      '24 November 2026 at 23:30 UTC',
    );
  });
});

describe('isKnownTimeZone', () => {
  it('accepts IANA names and refuses the rest', () => {
    expect(isKnownTimeZone('Europe/Berlin')).toBe(true);
    expect(isKnownTimeZone('UTC')).toBe(true);
    expect(isKnownTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isKnownTimeZone('')).toBe(false);
    expect(isKnownTimeZone(`Europe/${'x'.repeat(80)}`)).toBe(false);
  });
});

describe('startOfDayIn and dayIn', () => {
  it('finds the midnight that starts a day in the time zone', () => {
    expect(startOfDayIn('2026-11-24', 'UTC').toISOString()).toBe('2026-11-24T00:00:00.000Z');
    expect(startOfDayIn('2026-11-24', 'America/New_York').toISOString()).toBe('2026-11-24T05:00:00.000Z');
    expect(startOfDayIn('2026-11-24', 'Pacific/Auckland').toISOString()).toBe('2026-11-23T11:00:00.000Z');
    expect(startOfDayIn('2026-11-24', 'Asia/Kolkata').toISOString()).toBe('2026-11-23T18:30:00.000Z');
  });

  it('follows the clocks on the days they change', () => {
    // Berlin moves from UTC+1 to UTC+2 at 01:00 UTC on 29 March 2026: that day starts at UTC+1.
    expect(startOfDayIn('2026-03-29', 'Europe/Berlin').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfDayIn('2026-03-30', 'Europe/Berlin').toISOString()).toBe('2026-03-29T22:00:00.000Z');
    // Santiago skips its midnight on 6 September 2026 (00:00 becomes 01:00): the day starts then.
    expect(startOfDayIn('2026-09-06', 'America/Santiago').toISOString()).toBe('2026-09-06T04:00:00.000Z');
  });

  it('names the day an instant falls on', () => {
    expect(dayIn(lateEvening, 'UTC')).toBe('2026-11-24');
    expect(dayIn(lateEvening, 'Pacific/Auckland')).toBe('2026-11-25');
    expect(dayIn(startOfDayIn('2026-09-06', 'America/Santiago'), 'America/Santiago')).toBe('2026-09-06');
  });
});
