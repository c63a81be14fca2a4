import { describe, expect, it } from '@jest/globals';
import { PERCENT_DECIMALS, readPercent } from './words';

const NOT_A_PERCENTAGE = 'Enter a percentage, such as 12.5.';

describe('readPercent', () => {
  it('reads a percentage as basis points from its digits', () => {
    expect(readPercent('12.5', NOT_A_PERCENTAGE)).toEqual({ basisPoints: 1250, error: null });
    expect(readPercent('12,34 %', NOT_A_PERCENTAGE)).toEqual({ basisPoints: 1234, error: null });
    // 0.29 * 100 is 28.999999999999996 in floating point; the digits make 29.
    expect(readPercent('0.29', NOT_A_PERCENTAGE)).toEqual({ basisPoints: 29, error: null });
    expect(readPercent('.5', NOT_A_PERCENTAGE)).toEqual({ basisPoints: 50, error: null });
    expect(readPercent('100', NOT_A_PERCENTAGE)).toEqual({ basisPoints: 10_000, error: null });
    expect(readPercent(' ', NOT_A_PERCENTAGE)).toEqual({ basisPoints: null, error: null });
  });

  it('refuses 12.345 % with the precision allowed instead of rounding it', () => {
    expect(readPercent('12.345', NOT_A_PERCENTAGE)).toEqual({ basisPoints: null, error: PERCENT_DECIMALS });
    expect(PERCENT_DECIMALS).toBe('Enter a percentage with at most 2 decimals, such as 12.35.');
  });

  it('refuses what is not a percentage', () => {
    expect(readPercent('ten', NOT_A_PERCENTAGE).error).toBe(NOT_A_PERCENTAGE);
    expect(readPercent('.', NOT_A_PERCENTAGE).error).toBe(NOT_A_PERCENTAGE);
    expect(readPercent('-5', NOT_A_PERCENTAGE).error).toBe(NOT_A_PERCENTAGE);
  });
});
