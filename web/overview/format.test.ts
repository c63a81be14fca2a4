import { describe, expect, it } from '@jest/globals';
import { dayIn } from '../../domain/dates/rules';
import {
  axisFormat,
  formatRate,
  overviewWindows,
  percentChange,
  periodLabel,
  periodTick,
  pointChange,
  windowDates,
} from './format';

describe('overviewWindows', () => {
  const now = '2026-11-24';

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

  it("ends on the organization's today, whatever the hour in UTC", () => {
    const lateEvening = new Date('2026-11-24T23:30:00Z');
    expect(overviewWindows('7d', dayIn(lateEvening, 'UTC')).current.end_date).toBe('2026-11-24');
    expect(overviewWindows('7d', dayIn(lateEvening, 'Pacific/Auckland')).current.end_date).toBe('2026-11-25');
  });

  it('takes twelve months to today, against the same dates a year earlier', () => {
    expect(overviewWindows('12m', now)).toEqual({
      current: { start_date: '2025-12-01', end_date: '2026-11-24', interval: 'month' },
      previous: { start_date: '2024-12-01', end_date: '2025-11-24', interval: 'month' },
    });
  });

  it('ends the year before on the last day of a shorter month', () => {
    expect(overviewWindows('12m', '2028-02-29').previous).toEqual({
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

describe('periodLabel and periodTick', () => {
  it("name days and months in the organization's time zone, where the metrics cut them", () => {
    expect(periodLabel('2026-11-24T00:00:00.000Z', 'day', 'UTC', 'en-US')).toBe('Tue, Nov 24');
    expect(periodLabel('2026-11-01T00:00:00.000Z', 'month', 'UTC', 'en-US')).toBe('November 2026');
    // Midnight in Auckland is 11:00 UTC the day before.
    expect(periodLabel('2026-11-23T11:00:00.000Z', 'day', 'Pacific/Auckland', 'en-US')).toBe('Tue, Nov 24');
    expect(periodTick('2026-11-23T11:00:00.000Z', 'day', 'Pacific/Auckland', 'en-US')).toBe('Nov 24');
    expect(periodTick('2026-10-31T11:00:00.000Z', 'month', 'Pacific/Auckland', 'en-US')).toBe('Nov 2026');
  });
});

describe('windowDates and axisFormat', () => {
  it('write a window as a range of days', () => {
    const dates = windowDates({ start_date: '2026-10-26', end_date: '2026-11-24', interval: 'day' }, 'en-US');
    // ICU sets the dash between thin spaces.
    expect(dates.replace(/\s/g, ' ')).toBe('Oct 26 – Nov 24, 2026');
  });

  it('shortens the axis: money from minor units, counts and rates', () => {
    expect(axisFormat('money', 'usd', 'en-US')(125_000)).toBe('$1.3K');
    expect(axisFormat('money', 'jpy', 'en-US')(5000)).toBe('¥5K');
    // Forints in hundredths, as the processor counts them: 150 000 is 1 500 forints.
    expect(axisFormat('money', 'huf', 'en-US')(150_000)).toBe('HUF\u00a01.5K');
    expect(axisFormat('count', 'usd', 'en-US')(340)).toBe('340');
    expect(axisFormat('rate', 'usd', 'en-US')(0.25)).toBe('25%');
  });
});
