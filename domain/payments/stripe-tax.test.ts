import { describe, expect, it } from '@jest/globals';
import { percentageToBasisPoints } from './stripe-tax.js';

describe('percentageToBasisPoints', () => {
  it.each([
    ['20.0', 2000],
    ['20', 2000],
    ['7.1', 710],
    ['8.25', 825],
    ['0.0', 0],
    ['19.000', 1900],
  ])('reads %s as %d', (percentage, basisPoints) => {
    expect(percentageToBasisPoints(percentage)).toBe(basisPoints);
  });

  it('has no whole number of basis points for finer rates or non-numbers', () => {
    expect(percentageToBasisPoints('9.875')).toBeNull();
    expect(percentageToBasisPoints('abc')).toBeNull();
    expect(percentageToBasisPoints('-5')).toBeNull();
  });
});
