import { describe, expect, it } from '@jest/globals';
import { readDollars } from './format';

describe('readDollars', () => {
  it('reads dollars with a sign or thousands separators as cents, from the digits', () => {
    expect(readDollars('19.99')).toEqual({ cents: 1999, error: null });
    expect(readDollars('$1,250.50')).toEqual({ cents: 125_050, error: null });
    expect(readDollars('12.')).toEqual({ cents: 1200, error: null });
    expect(readDollars('')).toEqual({ cents: null, error: null });
  });

  it('refuses 10.999 with the precision dollars allow instead of rounding it to $11.00', () => {
    expect(readDollars('10.999')).toEqual({ cents: null, error: 'Enter at most 2 decimals, such as 10.99.' });
    expect(readDollars('$1,000.005').error).toBe('Enter at most 2 decimals, such as 10.99.');
  });

  it('refuses what is not an amount', () => {
    const expected = 'Enter an amount in dollars, such as 9.99.';
    expect(readDollars('ten')).toEqual({ cents: null, error: expected });
    expect(readDollars('1,5')).toEqual({ cents: null, error: expected });
    expect(readDollars('-2')).toEqual({ cents: null, error: expected });
  });
});
