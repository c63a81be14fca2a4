import { describe, expect, it } from '@jest/globals';
import { formatRate, overviewWindows, percentChange, periodLabel, pointChange } from './format';

describe('overviewWindows', () => {
  const now = new Date('2026-11-24T20:00:00Z');

  it('ends a range of days today and compares it with as many days before', () => {
    expect(overviewWindows('7d', now)).toEqual({
      current: { start_date: '2026-11-18', end_date: '2026-11-24', interval: 'day' },
      previous: { start_date: '2026-11-11', end_date: '2026-11-17', interval: 'day' },
    });
    expect(overviewWindows('30d', now).current.start_date).toBe('2026-10-26');
    expect(overviewWindows('90d', now).previous).toEqual({
      start_date: '2026-05-29',
      end_date: '2026-08-26',
      interval: 'day',
    });
  });

  it('counts days in UTC, whatever the hour', () => {
    expect(overviewWindows('7d', new Date('2026-11-24T00:30:00+02:00')).current.end_date).toBe('2026-11-23');
  });

  it('takes twelve months to today, against the same dates a year earlier', () => {
    expect(overviewWindows('12m', now)).toEqual({
      current: { start_date: '2025-12-01', end_date: '2026-11-24', interval: 'month' },
      previous: { start_date: '2024-12-01', end_date: '2025-11-24', interval: 'month' },
    });
  });

  it('ends the year before on the last day of a shorter month', () => {
    expect(overviewWindows('12m', new Date('2028-02-29T12:00:00Z')).previous).toEqual({
      start_date: '2026-03-01',
      end_date: '2027-02-28',
      interval: 'month',
    });
  });
});

describe('changes', () => {
  it('says how much a figure moved, in percent', () => {
    expect(percentChange(150, 100, 'en-US')).toEqual({ text: '+50%', tone: 'up' });
    expect(percentChange(2, 3, 'en-US')).toEqual({ text: '-33.3%', tone: 'down' });
    expect(percentChange(7, 7, 'en-US')).toEqual({ text: 'No change', tone: 'flat' });
  });

  it('has no percentage for a rise from nothing', () => {
    expect(percentChange(5, 0, 'en-US')).toEqual({ text: 'Up from 0', tone: 'up' });
    expect(percentChange(0, 0, 'en-US')).toEqual({ text: 'No change', tone: 'flat' });
  });

  it('moves rates in percentage points', () => {
    expect(pointChange(0.25, 0.2, 'en-US')).toEqual({ text: '+5.0 pts', tone: 'up' });
    expect(pointChange(0.1, 0.3333, 'en-US')).toEqual({ text: '-23.3 pts', tone: 'down' });
    expect(pointChange(0.5, 0.5, 'en-US')).toEqual({ text: 'No change', tone: 'flat' });
    expect(formatRate(1 / 3, 'en-US')).toBe('33.3%');
  });
});

describe('periodLabel', () => {
  it('names days and months in UTC', () => {
    expect(periodLabel('2026-11-24T00:00:00.000Z', 'day', 'en-US')).toBe('Tue, Nov 24');
    expect(periodLabel('2026-11-01T00:00:00.000Z', 'month', 'en-US')).toBe('November 2026');
  });
});
