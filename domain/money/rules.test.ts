import { describe, expect, it } from '@jest/globals';
import { applyBasisPoints, assertMinorUnits, decimalAmount, formatMoney, minorUnitDigits } from './rules.js';

const NBSP = '\u00a0';
const NARROW_NBSP = '\u202f';

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

describe('formatMoney', () => {
  it('writes each currency with its own number of minor digits', () => {
    expect(formatMoney(123456, 'usd')).toBe('$1,234.56');
    expect(formatMoney(123456, 'eur', 'de-DE')).toBe(`1.234,56${NBSP}€`);
    expect(formatMoney(123456, 'EUR', 'fr-FR')).toBe(`1${NARROW_NBSP}234,56${NBSP}€`);
    expect(formatMoney(1234, 'jpy')).toBe('¥1,234');
    expect(formatMoney(1234, 'kwd')).toBe(`KWD${NBSP}1.234`);
  });

  it('shows every minor digit, including a trailing zero and amounts below one unit', () => {
    expect(formatMoney(5, 'usd')).toBe('$0.05');
    expect(formatMoney(1230, 'usd')).toBe('$12.30');
    expect(formatMoney(1, 'kwd')).toBe(`KWD${NBSP}0.001`);
  });

  it('signs negative amounts and drops the sign of zero', () => {
    expect(formatMoney(-790, 'usd')).toBe('-$7.90');
    expect(formatMoney(-0, 'usd')).toBe('$0.00');
  });

  it('keeps every digit of amounts beyond float precision', () => {
    // 9007199254740991 / 100 is 90071992547409.9 as a double: a division would print ...409.90.
    expect(formatMoney(Number.MAX_SAFE_INTEGER, 'usd')).toBe('$90,071,992,547,409.91');
    expect(formatMoney(Number.MAX_SAFE_INTEGER, 'jpy')).toBe('¥9,007,199,254,740,991');
    expect(formatMoney(Number.MAX_SAFE_INTEGER, 'kwd')).toBe(`KWD${NBSP}9,007,199,254,740.991`);
    expect(formatMoney(-Number.MAX_SAFE_INTEGER, 'eur', 'de-DE')).toBe(`-90.071.992.547.409,91${NBSP}€`);
  });

  it('counts minor units as the payment processor does, not as ICU displays the currency', () => {
    // ICU shows forints and krónur without decimals; Stripe still counts them in hundredths.
    expect(formatMoney(12345, 'huf')).toBe(`HUF${NBSP}123.45`);
    expect(formatMoney(150000, 'huf')).toBe(`HUF${NBSP}1,500.00`);
    expect(formatMoney(50000, 'isk')).toBe(`ISK${NBSP}500.00`);
  });

  it('refuses amounts that are not whole minor units and codes that are not currencies', () => {
    expect(() => formatMoney(12.5, 'usd')).toThrow(RangeError);
    expect(() => formatMoney(Number.MAX_SAFE_INTEGER + 1, 'usd')).toThrow(RangeError);
    expect(() => formatMoney(Number.NaN, 'usd')).toThrow(RangeError);
    expect(() => formatMoney(100, 'us')).toThrow(RangeError);
    expect(() => formatMoney(100, 'usd', 'not a locale')).toThrow(RangeError);
  });
});

describe('minorUnitDigits', () => {
  it('follows Stripe’s zero- and three-decimal lists and counts hundredths otherwise', () => {
    expect(minorUnitDigits('jpy')).toBe(0);
    expect(minorUnitDigits('KRW')).toBe(0);
    expect(minorUnitDigits('ugx')).toBe(0);
    expect(minorUnitDigits('usd')).toBe(2);
    expect(minorUnitDigits('kwd')).toBe(3);
    expect(minorUnitDigits('BHD')).toBe(3);
  });

  it.each(['huf', 'isk', 'cop', 'idr', 'pkr'])(
    'counts hundredths of %s, which ICU writes without decimals',
    (currency) => {
      const icu = new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions();
      expect(icu.maximumFractionDigits).toBe(0);
      expect(minorUnitDigits(currency)).toBe(2);
    },
  );

  it('refuses codes that are not currencies', () => {
    expect(() => minorUnitDigits('us')).toThrow(RangeError);
    expect(() => minorUnitDigits('')).toThrow(RangeError);
  });
});

describe('decimalAmount', () => {
  it('places the decimal point in the digits, as many as the currency has', () => {
    expect(decimalAmount(12345, 'huf')).toBe('123.45');
    expect(decimalAmount(1234, 'jpy')).toBe('1234');
    expect(decimalAmount(1234, 'kwd')).toBe('1.234');
    expect(decimalAmount(5, 'usd')).toBe('0.05');
    expect(decimalAmount(-790, 'usd')).toBe('-7.90');
  });

  it('keeps every digit of the largest safe amount', () => {
    expect(decimalAmount(Number.MAX_SAFE_INTEGER, 'usd')).toBe('90071992547409.91');
    expect(decimalAmount(Number.MAX_SAFE_INTEGER, 'kwd')).toBe('9007199254740.991');
  });

  it('refuses amounts that are not whole minor units', () => {
    expect(() => decimalAmount(0.5, 'usd')).toThrow(RangeError);
    expect(() => decimalAmount(Number.MAX_SAFE_INTEGER + 1, 'usd')).toThrow(RangeError);
  });
});
