// Amounts travel as integer minor units of their currency (spec §5); people read and type them in
// major units. How many minor digits a currency has comes from Intl (USD 2, JPY 0, BHD 3).

const formatters = new Map<string, Intl.NumberFormat>();

function formatterFor(currency: string, locale?: string): Intl.NumberFormat {
  const key = `${locale ?? ''}:${currency}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() });
    formatters.set(key, formatter);
  }
  return formatter;
}

export function minorDigits(currency: string): number {
  return formatterFor(currency, 'en').resolvedOptions().maximumFractionDigits ?? 2;
}

/** 1250 usd → "$12.50" in the reader's locale (`locale` fixes it, for tests). */
export function formatMoney(amount: number, currency: string, locale?: string): string {
  return formatterFor(currency, locale).format(amount / 10 ** minorDigits(currency));
}

/** Minor units as a plain decimal for an input field: 1250 usd → "12.50", 500 jpy → "500". */
export function toMajorInput(amount: number, currency: string): string {
  const digits = minorDigits(currency);
  if (digits === 0) return String(amount);
  const sign = amount < 0 ? '-' : '';
  const padded = String(Math.abs(amount)).padStart(digits + 1, '0');
  return `${sign}${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

/**
 * "12.5" usd → 1250; null when the text is not an amount of that currency (more decimals than it
 * has, letters, a sign). Works on the digits as text: 19.99 * 100 is not 1999 in floating point.
 * A comma is read as the decimal separator too, as many buyers type it.
 */
export function parseMajorInput(text: string, currency: string): number | null {
  const digits = minorDigits(currency);
  const match = /^(\d{1,12})(?:[.,](\d*))?$/.exec(text.trim());
  if (!match) return null;
  const [, whole = '', fraction = ''] = match;
  if (fraction.length > digits) return null;
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}

/** What a field of `currency` says when more decimals were typed than the currency has. */
export function decimalsMessage(currency: string): string {
  const digits = minorDigits(currency);
  return digits === 0
    ? `${currency.toUpperCase()} amounts have no decimals: enter a whole number, such as 500.`
    : `Enter at most ${digits} decimals, such as 10.${'9'.repeat(digits)}.`;
}

export type MajorInputRead = { amount: number | null; error: null } | { amount: null; error: string };

/**
 * Typed text as an amount of `currency` in minor units: null for an empty field; refused with the
 * precision the currency allows when it has more decimals (10.999 dollars is never rounded to
 * 11.00), and with `notAnAmount` when it is not a number at all.
 */
export function readMajorInput(text: string, currency: string, notAnAmount: string): MajorInputRead {
  const trimmed = text.trim();
  if (!trimmed) return { amount: null, error: null };
  const decimal = /^(\d*)[.,](\d+)$/.exec(trimmed);
  if (decimal && decimal[2]!.length > minorDigits(currency)) {
    return { amount: null, error: decimalsMessage(currency) };
  }
  // ".5" is half a unit too, as people type it.
  const amount = parseMajorInput(trimmed.replace(/^([.,])/, '0$1'), currency);
  return amount === null ? { amount: null, error: notAnAmount } : { amount, error: null };
}
