import { describe, expect, it } from '@jest/globals';
import {
  formatAddressLines,
  formatInvoiceNumber,
  formatMoney,
  invoicePrefixFor,
  minorUnitDigits,
} from './rules.js';

const NBSP = '\u00a0';
const NARROW_NBSP = '\u202f';

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
    expect(minorUnitDigits('huf')).toBe(2);
    expect(formatMoney(150000, 'huf')).toBe(`HUF${NBSP}1,500.00`);
    expect(formatMoney(50000, 'isk')).toBe(`ISK${NBSP}500.00`);
    expect(minorUnitDigits('krw')).toBe(0);
    expect(minorUnitDigits('bhd')).toBe(3);
  });

  it('refuses amounts that are not whole minor units and codes that are not currencies', () => {
    expect(() => formatMoney(12.5, 'usd')).toThrow(RangeError);
    expect(() => formatMoney(Number.MAX_SAFE_INTEGER + 1, 'usd')).toThrow(RangeError);
    expect(() => formatMoney(Number.NaN, 'usd')).toThrow(RangeError);
    expect(() => formatMoney(100, 'us')).toThrow(RangeError);
    expect(() => formatMoney(100, 'usd', 'not a locale')).toThrow(RangeError);
  });
});

describe('invoice numbers', () => {
  it('pads the per-organization sequence to four digits and lets it grow past them', () => {
    expect(formatInvoiceNumber('ACME', 42)).toBe('ACME-0042');
    expect(formatInvoiceNumber('ACME', 1)).toBe('ACME-0001');
    expect(formatInvoiceNumber('ACME', 12345)).toBe('ACME-12345');
  });

  it('refuses prefixes and sequences that are not of the format', () => {
    expect(() => formatInvoiceNumber('acme', 1)).toThrow(RangeError);
    expect(() => formatInvoiceNumber('ACME-INC', 1)).toThrow(RangeError);
    expect(() => formatInvoiceNumber('', 1)).toThrow(RangeError);
    expect(() => formatInvoiceNumber('ACME', 0)).toThrow(RangeError);
    expect(() => formatInvoiceNumber('ACME', 1.5)).toThrow(RangeError);
  });

  it('derives a prefix from a slug or name that formatInvoiceNumber accepts', () => {
    expect(invoicePrefixFor('acme')).toBe('ACME');
    expect(invoicePrefixFor('acme-inc')).toBe('ACMEINC');
    expect(invoicePrefixFor('Łódź Café')).toBe('LODZCAFE');
    expect(invoicePrefixFor('Straße & Søn')).toBe('STRASSESON');
    expect(invoicePrefixFor('my-awesome-startup')).toBe('MYAWESOMES');
    expect(invoicePrefixFor('東京商事')).toBe('INV');
    for (const name of ['acme-inc', 'Łódź Café', '東京商事', 'x']) {
      expect(formatInvoiceNumber(invoicePrefixFor(name), 7)).toMatch(/^[A-Z0-9]{1,10}-0007$/);
    }
  });
});

describe('formatAddressLines', () => {
  it('writes the locality as the country does and spells the country out in the locale', () => {
    expect(
      formatAddressLines({
        line1: '1 Main St',
        line2: 'Floor 2',
        postal_code: '10001',
        city: 'New York',
        state: 'NY',
        country: 'US',
      }),
    ).toEqual(['1 Main St', 'Floor 2', 'New York, NY 10001', 'United States']);
    expect(
      formatAddressLines(
        { line1: 'Unter den Linden 1', postal_code: '10117', city: 'Berlin', country: 'DE' },
        'de-DE',
      ),
    ).toEqual(['Unter den Linden 1', '10117 Berlin', 'Deutschland']);
  });

  it('leaves out what the address does not have', () => {
    expect(formatAddressLines({ line1: null, line2: '  ', city: null, country: 'gb' })).toEqual([
      'United Kingdom',
    ]);
    expect(formatAddressLines({ country: 'Narnia' })).toEqual(['Narnia']);
  });
});
