import type { z } from 'zod';
import type { addressSchema } from '../addresses/schemas.js';

export type Address = z.infer<typeof addressSchema>;

const INVOICE_PREFIX = /^[A-Z0-9]{1,10}$/;
const INVOICE_PREFIX_FALLBACK = 'INV';
const INVOICE_SEQUENCE_DIGITS = 4;

// Letters that Unicode decomposition leaves alone but that have an obvious Latin spelling.
const LATIN_FOLDS: Record<string, string> = {
  Æ: 'AE',
  Đ: 'D',
  Ð: 'D',
  Ħ: 'H',
  Ł: 'L',
  Ø: 'O',
  Œ: 'OE',
  Þ: 'TH',
  Ŧ: 'T',
};

/**
 * The invoice-number prefix of an organization, from its slug (or name): the letters and digits
 * upper-cased, accents dropped, at most 10 characters ("acme-inc" → "ACMEINC", "Łódź Café" →
 * "LODZCAFE"). "INV" when nothing Latin is left (a name written only in another script).
 */
export function invoicePrefixFor(slugOrName: string): string {
  const folded = [...slugOrName.toUpperCase().normalize('NFKD')]
    .map((character) => LATIN_FOLDS[character] ?? character)
    .join('')
    .replace(/[^A-Z0-9]/g, '');
  return folded.slice(0, 10) || INVOICE_PREFIX_FALLBACK;
}

/**
 * Invoice numbers are `<PREFIX>-<sequence>`, the sequence counted per organization from 1 and
 * zero-padded to four digits ("ACME-0042"); from 10000 on it simply grows ("ACME-10000").
 */
export function formatInvoiceNumber(organizationPrefix: string, sequence: number): string {
  if (!INVOICE_PREFIX.test(organizationPrefix)) {
    throw new RangeError(`"${organizationPrefix}" is not an invoice prefix (1–10 of A–Z and 0–9).`);
  }
  if (!Number.isSafeInteger(sequence) || sequence < 1) {
    throw new RangeError(`${sequence} is not an invoice sequence number (1 or more).`);
  }
  return `${organizationPrefix}-${String(sequence).padStart(INVOICE_SEQUENCE_DIGITS, '0')}`;
}

// Countries that write "City, ST 12345" on one line; elsewhere the postal code leads ("10115 Berlin").
const CITY_FIRST_COUNTRIES = new Set(['US', 'CA', 'AU']);

/** The lines of a postal address, the country spelled out in `locale`. */
export function formatAddressLines(address: Address, locale = 'en-US'): string[] {
  const country = address.country.trim();
  const city = address.city?.trim() ?? '';
  const state = address.state?.trim() ?? '';
  const postalCode = address.postal_code?.trim() ?? '';
  const locality = CITY_FIRST_COUNTRIES.has(country.toUpperCase())
    ? [[city, state].filter(Boolean).join(', '), postalCode].filter(Boolean).join(' ')
    : [[postalCode, city].filter(Boolean).join(' '), state].filter(Boolean).join(', ');
  return [
    address.line1?.trim() ?? '',
    address.line2?.trim() ?? '',
    locality,
    countryName(country, locale),
  ].filter(Boolean);
}

function countryName(country: string, locale: string): string {
  if (!/^[A-Za-z]{2}$/.test(country)) return country;
  return (
    new Intl.DisplayNames(locale, { type: 'region', fallback: 'code' }).of(country.toUpperCase()) ?? country
  );
}
