import { describe, expect, it } from '@jest/globals';
import { formatMoney, minorDigits, parseMajorInput, toMajorInput } from './money';

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
