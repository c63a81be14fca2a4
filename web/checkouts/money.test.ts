import { describe, expect, it } from '@jest/globals';
import {
  decimalsMessage,
  formatMoney,
  minorDigits,
  parseMajorInput,
  readMajorInput,
  toMajorInput,
} from './money';

describe('minorDigits', () => {
  it('knows currencies without, with two and with three minor digits', () => {
    expect(minorDigits('jpy')).toBe(0);
    expect(minorDigits('usd')).toBe(2);
    expect(minorDigits('BHD')).toBe(3);
  });
});

describe('formatMoney', () => {
  it('divides by the currency’s minor units', () => {
    expect(formatMoney(1250, 'usd', 'en-US')).toBe('$12.50');
    expect(formatMoney(500, 'jpy', 'en-US')).toBe('¥500');
    // Intl separates a currency code from the number with a no-break space.
    expect(formatMoney(1234, 'bhd', 'en-US')).toBe('BHD\u00a01.234');
  });
});

describe('toMajorInput', () => {
  it('writes minor units as a decimal without floating point', () => {
    expect(toMajorInput(1250, 'usd')).toBe('12.50');
    expect(toMajorInput(5, 'usd')).toBe('0.05');
    expect(toMajorInput(0, 'usd')).toBe('0.00');
    expect(toMajorInput(500, 'jpy')).toBe('500');
  });
});

describe('parseMajorInput', () => {
  it('reads whole amounts, decimals and a decimal comma', () => {
    expect(parseMajorInput('12', 'usd')).toBe(1200);
    expect(parseMajorInput('12.5', 'usd')).toBe(1250);
    expect(parseMajorInput(' 19,99 ', 'usd')).toBe(1999);
    expect(parseMajorInput('12.', 'usd')).toBe(1200);
    expect(parseMajorInput('500', 'jpy')).toBe(500);
  });

  it('refuses more decimals than the currency has, signs and words', () => {
    expect(parseMajorInput('1.999', 'usd')).toBeNull();
    expect(parseMajorInput('5.5', 'jpy')).toBeNull();
    expect(parseMajorInput('-3', 'usd')).toBeNull();
    expect(parseMajorInput('ten', 'usd')).toBeNull();
    expect(parseMajorInput('', 'usd')).toBeNull();
  });
});

describe('readMajorInput', () => {
  const NOT_AN_AMOUNT = 'Enter an amount.';

  it('reads amounts as their currency holds them, and nothing for an empty field', () => {
    expect(readMajorInput('10.99', 'usd', NOT_AN_AMOUNT)).toEqual({ amount: 1099, error: null });
    expect(readMajorInput('.5', 'usd', NOT_AN_AMOUNT)).toEqual({ amount: 50, error: null });
    expect(readMajorInput('500', 'jpy', NOT_AN_AMOUNT)).toEqual({ amount: 500, error: null });
    expect(readMajorInput('  ', 'usd', NOT_AN_AMOUNT)).toEqual({ amount: null, error: null });
  });

  it('refuses more decimals than the currency has with the precision it allows, never rounding', () => {
    expect(readMajorInput('10.999', 'usd', NOT_AN_AMOUNT)).toEqual({
      amount: null,
      error: 'Enter at most 2 decimals, such as 10.99.',
    });
    expect(readMajorInput('10,999', 'usd', NOT_AN_AMOUNT).error).toBe(decimalsMessage('usd'));
    expect(readMajorInput('5.5', 'jpy', NOT_AN_AMOUNT).error).toBe(
      'JPY amounts have no decimals: enter a whole number, such as 500.',
    );
    expect(decimalsMessage('bhd')).toBe('Enter at most 3 decimals, such as 10.999.');
  });

  it('says what to type for text that is no amount at all', () => {
    expect(readMajorInput('ten', 'usd', NOT_AN_AMOUNT)).toEqual({ amount: null, error: NOT_AN_AMOUNT });
    expect(readMajorInput('-3', 'usd', NOT_AN_AMOUNT).error).toBe(NOT_AN_AMOUNT);
  });
});
