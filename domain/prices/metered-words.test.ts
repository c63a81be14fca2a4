import { describe, expect, it } from '@jest/globals';
import {
  describeMeteredPrice,
  formatUnitAmount,
  meteredPriceParts,
  usageBillingWords,
} from './metered-words.js';

const tokens = (unitAmount: string, cap: number | null, currency = 'usd') => ({
  unit_amount: unitAmount,
  cap_amount: cap,
  price_currency: currency,
  meter: { name: 'Tokens' },
});

describe('formatUnitAmount', () => {
  it('keeps every digit of a sub-cent unit amount (Polar sends cents as a decimal string)', () => {
    expect(formatUnitAmount('0.2', 'usd', 'en-US')).toBe('$0.002');
    expect(formatUnitAmount('0.000000000001', 'usd', 'en-US')).toBe('$0.00000000000001');
    expect(formatUnitAmount('12.345', 'usd', 'en-US')).toBe('$0.12345');
  });

  it('shows at least the currency’s minor digits', () => {
    expect(formatUnitAmount('150', 'usd', 'en-US')).toBe('$1.50');
    expect(formatUnitAmount('5', 'usd', 'en-US')).toBe('$0.05');
    expect(formatUnitAmount('123456', 'usd', 'en-US')).toBe('$1,234.56');
  });

  it('reads minor units of zero- and three-decimal currencies', () => {
    expect(formatUnitAmount('3', 'jpy', 'en-US')).toBe('¥3');
    expect(formatUnitAmount('0.5', 'jpy', 'en-US')).toBe('¥0.5');
    expect(formatUnitAmount('12.5', 'kwd', 'en-US')).toBe('KWD\u00a00.0125');
  });

  it('writes money as the reader’s locale does', () => {
    expect(formatUnitAmount('0.2', 'eur', 'de-DE')).toBe('0,002\u00a0€');
  });
});

describe('a metered price in words', () => {
  it('names the meter, the unit price and the cap per period', () => {
    expect(describeMeteredPrice(tokens('0.2', 5000), 'month', 'en-US')).toBe(
      '$0.002 per unit of Tokens, at most $50.00 a month',
    );
    expect(describeMeteredPrice(tokens('0.2', null), 'year', 'en-US')).toBe('$0.002 per unit of Tokens');
    expect(meteredPriceParts(tokens('1', 500, 'jpy'), 'year', 'en-US')).toEqual({
      meter: 'Tokens',
      unitPrice: '¥1 per unit',
      cap: 'at most ¥500 a year',
    });
  });

  it('says usage is billed after the period it was used in', () => {
    expect(usageBillingWords('month')).toBe('billed at the end of each month for what you used in it');
  });
});
