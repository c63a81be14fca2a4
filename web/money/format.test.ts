import { describe, expect, it } from '@jest/globals';
import { decimalAmount } from '../../domain/money/rules';
import { decimalsMessage, formatMoney, parseMajorInput, readMajorInput } from './format';

// Intl separates a currency code from the number with a no-break space.
const NBSP = '\u00a0';

describe('formatMoney', () => {
  it('writes each currency with the minor digits the payment processor counts', () => {
    expect(formatMoney(1250, 'usd', 'en-US')).toBe('$12.50');
    expect(formatMoney(500, 'jpy', 'en-US')).toBe('¥500');
    expect(formatMoney(1234, 'kwd', 'en-US')).toBe(`KWD${NBSP}1.234`);
    expect(formatMoney(1234, 'bhd', 'en-US')).toBe(`BHD${NBSP}1.234`);
  });

  it('writes forints in hundredths, where Intl alone would show 12345 as 12,345 forints', () => {
    expect(formatMoney(12345, 'huf', 'en-US')).toBe(`HUF${NBSP}123.45`);
    expect(formatMoney(50000, 'isk', 'en-US')).toBe(`ISK${NBSP}500.00`);
  });

  it('keeps every digit of the largest safe amount, which a division by 100 would round', () => {
    expect(formatMoney(Number.MAX_SAFE_INTEGER, 'usd', 'en-US')).toBe('$90,071,992,547,409.91');
  });

  it('writes in the locale it is given', () => {
    expect(formatMoney(123456, 'eur', 'de-DE')).toBe(`1.234,56${NBSP}€`);
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

describe('an amount typed, sent and shown again', () => {
  it('comes back as typed for forints, which the processor counts in hundredths', () => {
    const amount = parseMajorInput('123.45', 'huf');
    expect(amount).toBe(12345);
    expect(decimalAmount(amount!, 'huf')).toBe('123.45');
    expect(formatMoney(amount!, 'huf', 'en-US')).toBe(`HUF${NBSP}123.45`);
    expect(readMajorInput('1500', 'huf', 'Enter an amount.')).toEqual({ amount: 150000, error: null });
    expect(readMajorInput('123.456', 'huf', 'Enter an amount.').error).toBe(
      'Enter at most 2 decimals, such as 10.99.',
    );
  });

  it('comes back as typed for yen and dinars', () => {
    expect(decimalAmount(parseMajorInput('500', 'jpy')!, 'jpy')).toBe('500');
    expect(decimalAmount(parseMajorInput('1.234', 'kwd')!, 'kwd')).toBe('1.234');
  });
});
