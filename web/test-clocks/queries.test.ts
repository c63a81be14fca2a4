import { describe, expect, it } from '@jest/globals';
import { addDays, addMonths } from './queries';

describe('addMonths', () => {
  it('keeps the day and time, or takes the last day of a shorter month', () => {
    expect(addMonths(new Date('2026-01-15T09:30:00Z'), 1).toISOString()).toBe('2026-02-15T09:30:00.000Z');
    expect(addMonths(new Date('2026-01-31T09:30:00Z'), 1).toISOString()).toBe('2026-02-28T09:30:00.000Z');
    expect(addMonths(new Date('2028-01-31T00:00:00Z'), 1).toISOString()).toBe('2028-02-29T00:00:00.000Z');
    expect(addMonths(new Date('2026-12-31T23:00:00Z'), 1).toISOString()).toBe('2027-01-31T23:00:00.000Z');
    expect(addMonths(new Date('2028-02-29T00:00:00Z'), 12).toISOString()).toBe('2029-02-28T00:00:00.000Z');
  });
});

describe('addDays', () => {
  it('adds whole days', () => {
    expect(addDays(new Date('2026-02-28T10:00:00Z'), 1).toISOString()).toBe('2026-03-01T10:00:00.000Z');
  });
});
