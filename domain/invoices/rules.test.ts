import { describe, expect, it } from '@jest/globals';
import { formatAddressLines, formatInvoiceNumber, invoicePrefixFor } from './rules.js';

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
