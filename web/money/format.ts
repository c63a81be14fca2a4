import { formatMoney as formatMoneyIn, minorUnitDigits } from '../../domain/money/rules';

// Amounts travel as integer minor units of their currency (spec §5); people read and type them in
// major units. How many minor digits a currency has is the payment processor's count
// (`minorUnitDigits`), not Intl's: Intl writes HUF or ISK without decimals, Stripe counts hundredths.

/**
 * The reader's locale: the one Intl picks when given none, i.e. the browser's. Documents and emails,
 * which have no reader, are written in `en-US` instead (`formatMoney` in domain/money/rules.ts).
 */
const READER_LOCALE = new Intl.NumberFormat().resolvedOptions().locale;

/** 1250 usd → "$12.50" in the reader's locale (`locale` fixes it, for tests), every digit exact. */
export function formatMoney(amount: number, currency: string, locale = READER_LOCALE): string {
  return formatMoneyIn(amount, currency, locale);
}

/**
 * "12.5" usd → 1250; null when the text is not an amount of that currency (more decimals than it
 * has, letters, a sign). Works on the digits as text: 19.99 * 100 is not 1999 in floating point.
 * A comma is read as the decimal separator too, as many buyers type it.
 */
export function parseMajorInput(text: string, currency: string): number | null {
  const digits = minorUnitDigits(currency);
  const match = /^(\d{1,12})(?:[.,](\d*))?$/.exec(text.trim());
  if (!match) return null;
  const [, whole = '', fraction = ''] = match;
  if (fraction.length > digits) return null;
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}

/** What a field of `currency` says when more decimals were typed than the currency has. */
export function decimalsMessage(currency: string): string {
  const digits = minorUnitDigits(currency);
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
  if (decimal && decimal[2]!.length > minorUnitDigits(currency)) {
    return { amount: null, error: decimalsMessage(currency) };
  }
  // ".5" is half a unit too, as people type it.
  const amount = parseMajorInput(trimmed.replace(/^([.,])/, '0$1'), currency);
  return amount === null ? { amount: null, error: notAnAmount } : { amount, error: null };
}
