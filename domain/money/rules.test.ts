import { describe, expect, it } from '@jest/globals';
import { applyBasisPoints, assertMinorUnits } from './rules.js';

describe('applyBasisPoints', () => {
  it('takes a share of an amount exactly when it divides', () => {
    expect(applyBasisPoints(10_000, 1_500)).toBe(1_500);
    expect(applyBasisPoints(2_000, 2_500)).toBe(500);
    expect(applyBasisPoints(1_000, 10_000)).toBe(1_000);
    expect(applyBasisPoints(1_000, 0)).toBe(0);
    expect(applyBasisPoints(0, 5_000)).toBe(0);
  });

  it('rounds ties up, and everything else to the nearest minor unit', () => {
    // One minor unit: 0.5 → 1, 0.4999 → 0, 0.5001 → 1.
    expect(applyBasisPoints(1, 5_000)).toBe(1);
    expect(applyBasisPoints(1, 4_999)).toBe(0);
    expect(applyBasisPoints(1, 5_001)).toBe(1);
    expect(applyBasisPoints(1, 1)).toBe(0);
    // Ties away from zero, never to even: 1.5 → 2, 2.5 → 3, 12.5 → 13.
    expect(applyBasisPoints(3, 5_000)).toBe(2);
    expect(applyBasisPoints(5, 5_000)).toBe(3);
    expect(applyBasisPoints(50, 2_500)).toBe(13);
    // 100.4 → 100, 100.5 → 101, 100.6 → 101.
    expect(applyBasisPoints(1_004, 1_000)).toBe(100);
    expect(applyBasisPoints(1_005, 1_000)).toBe(101);
    expect(applyBasisPoints(1_006, 1_000)).toBe(101);
    // 15.15 → 15, 1.25 → 1, 0.99 × 19% = 18.81 → 19.
    expect(applyBasisPoints(101, 1_500)).toBe(15);
    expect(applyBasisPoints(10, 1_250)).toBe(1);
    expect(applyBasisPoints(99, 1_900)).toBe(19);
  });

  it('rounds true ties up where floating point would see x.4999…', () => {
    // 25 × 0.58 is 14.499999999999998 in floats; the exact value is the tie 14.5.
    expect(25 * (5_800 / 10_000)).toBeLessThan(14.5);
    expect(applyBasisPoints(25, 5_800)).toBe(15);
    expect(applyBasisPoints(45, 7_000)).toBe(32);
    expect(applyBasisPoints(75, 8_200)).toBe(62);
  });

  it('stays exact beyond the range where amount × basis points fits a double', () => {
    expect(applyBasisPoints(Number.MAX_SAFE_INTEGER, 10_000)).toBe(Number.MAX_SAFE_INTEGER);
    // 9007199254740991 × 5000 / 10000 = 4503599627370495.5 → 4503599627370496.
    expect(applyBasisPoints(Number.MAX_SAFE_INTEGER, 5_000)).toBe(4_503_599_627_370_496);
    // 99 999 999 × 33.33% = 33 329 999.6667 → 33 330 000.
    expect(applyBasisPoints(99_999_999, 3_333)).toBe(33_330_000);
  });

  it('refuses amounts and rates that are not non-negative integers', () => {
    expect(() => applyBasisPoints(-1, 100)).toThrow(RangeError);
    expect(() => applyBasisPoints(10.5, 100)).toThrow(RangeError);
    expect(() => applyBasisPoints(Number.NaN, 100)).toThrow(RangeError);
    expect(() => applyBasisPoints(100, -1)).toThrow(RangeError);
    expect(() => applyBasisPoints(100, 2.5)).toThrow(RangeError);
  });
});

describe('assertMinorUnits', () => {
  it('accepts zero and safe positive integers only', () => {
    expect(() => assertMinorUnits(0, 'amount')).not.toThrow();
    expect(() => assertMinorUnits(Number.MAX_SAFE_INTEGER, 'amount')).not.toThrow();
    expect(() => assertMinorUnits(Number.MAX_SAFE_INTEGER + 1, 'amount')).toThrow(/amount/);
    expect(() => assertMinorUnits(-1, 'tax')).toThrow(/tax must be/);
    expect(() => assertMinorUnits(Number.POSITIVE_INFINITY, 'amount')).toThrow(RangeError);
  });
});
