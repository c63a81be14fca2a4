import type { z } from 'zod';
import type { addressSchema } from '../addresses/schemas.js';

export type Address = z.infer<typeof addressSchema>;

// Amounts are stored in the payment processor's minor units (spec §5), and Stripe's idea of a
// currency's minor unit is not ICU's: ICU shows HUF, ISK, COP, IDR, PKR and a dozen more without
// decimals, while Stripe counts them in hundredths. Deriving the exponent from Intl would print
// those amounts a hundred times too large, so the exponent follows Stripe's published lists.
const ZERO_DECIMAL_CURRENCIES = new Set(
  'BIF CLP DJF GNF JPY KMF KRW MGA PYG RWF UGX VND VUV XAF XOF XPF'.split(' '),
);
const THREE_DECIMAL_CURRENCIES = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);

const CURRENCY_CODE = /^[A-Za-z]{3}$/;

/** Decimal places of one minor unit of `currency` as amounts are stored: usd 2, jpy 0, kwd 3. */
export function minorUnitDigits(currency: string): number {
  if (!CURRENCY_CODE.test(currency)) throw new RangeError(`"${currency}" is not an ISO 4217 currency code.`);
  const code = currency.toUpperCase();
  if (ZERO_DECIMAL_CURRENCIES.has(code)) return 0;
  if (THREE_DECIMAL_CURRENCIES.has(code)) return 3;
  return 2;
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

function moneyFormat(currency: string, locale: string, digits: number): Intl.NumberFormat {
  const key = `${locale}|${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    moneyFormats.set(key, format);
  }
  return format;
}

/**
 * `amountMinor` minor units of `currency` as the locale writes money: 123456 usd → "$1,234.56",
 * 1234 jpy → "¥1,234", 1234 kwd → "KWD 1.234". Always shows every minor digit, so no amount is
 * rounded on an invoice.
 */
export function formatMoney(amountMinor: number, currency: string, locale = 'en-US'): string {
  const decimal = decimalAmount(amountMinor, currency);
  return moneyFormat(currency.toUpperCase(), locale, minorUnitDigits(currency)).format(
    decimal as `${number}`,
  );
}

/** `amountMinor` minor units of `currency` as a plain decimal: 123456 usd → "1234.56", 1234 jpy → "1234". */
export function decimalAmount(amountMinor: number, currency: string): string {
  if (!Number.isSafeInteger(amountMinor)) {
    throw new RangeError(`${amountMinor} is not an integer amount of minor units.`);
  }
  const digits = minorUnitDigits(currency);
  // Placing the decimal point in the digit string keeps every digit exact: dividing by 100 in
  // floating point would turn 9007199254740991 cents into ...740.99 dollars and then some.
  const magnitude = String(Math.abs(amountMinor)).padStart(digits + 1, '0');
  const whole = magnitude.slice(0, magnitude.length - digits);
  const fraction = magnitude.slice(magnitude.length - digits);
  return `${amountMinor < 0 ? '-' : ''}${whole}${digits > 0 ? `.${fraction}` : ''}`;
}

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
