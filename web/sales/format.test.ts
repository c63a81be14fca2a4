import { describe, expect, it } from '@jest/globals';
import { countOf, endOfDay, nextSorting, startOfDay } from './format';

describe('nextSorting', () => {
  it('sorts a new column in its first direction, then turns it at each click', () => {
    expect(nextSorting('-created_at', 'amount', 'desc')).toBe('-amount');
    expect(nextSorting('-created_at', 'customer', 'asc')).toBe('customer');
    expect(nextSorting('customer', 'customer', 'asc')).toBe('-customer');
    expect(nextSorting('-customer', 'customer', 'asc')).toBe('customer');
  });
});

describe('countOf', () => {
  it('says one in the singular and every other count in the plural', () => {
    expect(countOf(0, 'order')).toBe('0 orders');
    expect(countOf(1, 'order')).toBe('1 order');
    expect(countOf(2, 'order')).toBe('2 orders');
    expect(countOf(12_345, 'customer')).toBe('12,345 customers');
    expect(countOf(1, 'checkout', 'checkouts')).toBe('1 checkout');
  });
});

describe('startOfDay and endOfDay', () => {
  it('bound a whole local day, the end being the next day’s start', () => {
    const start = new Date(startOfDay('2026-03-28'));
    const end = new Date(endOfDay('2026-03-28'));
    expect([start.getFullYear(), start.getMonth(), start.getDate(), start.getHours()]).toEqual([
      2026, 2, 28, 0,
    ]);
    expect([end.getFullYear(), end.getMonth(), end.getDate(), end.getHours()]).toEqual([2026, 2, 29, 0]);
  });

  it('crosses month and year ends', () => {
    expect(new Date(endOfDay('2026-12-31')).getFullYear()).toBe(2027);
  });
});
