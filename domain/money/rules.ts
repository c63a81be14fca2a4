// Money arithmetic shared by discounts, checkouts and tax, and money as people read it, in one place
// for the server (invoices, emails, operators' words) and the web app. Amounts are integer minor
// units of one currency (cents, or yen for zero-decimal currencies: the arithmetic is the same),
// never floats.

/** 100% in basis points. */
export const BASIS_POINTS_SCALE = 10_000;

/**
 * `amount × basisPoints / 10 000`, rounded to the nearest minor unit with ties away from zero
 * (half-up for the non-negative amounts money takes here). Polar rounds percentage discounts the
 * same way (`polar_round`: 8.5 → 9), unlike JavaScript's `Math.round` on negatives or banker's
 * rounding. Computed on integers, so 1005 × 10% is exactly 100.5 → 101, with no float error.
 */
export function applyBasisPoints(amount: number, basisPoints: number): number {
  assertMinorUnits(amount, 'amount');
  if (!Number.isSafeInteger(basisPoints) || basisPoints < 0) {
    throw new RangeError(`basis points must be a non-negative integer, got ${basisPoints}`);
  }
  // BigInt: amount (≤ 2^53) × basis points can exceed Number's exact integer range.
  const product = BigInt(amount) * BigInt(basisPoints);
  const scale = BigInt(BASIS_POINTS_SCALE);
  const quotient = product / scale;
  const remainder = product % scale;
  return Number(remainder * 2n >= scale ? quotient + 1n : quotient);
}

/** Amounts are non-negative safe integers; anything else is a bug upstream, not buyer input. */
export function assertMinorUnits(amount: number, name: string): void {
  if (!Number.isSafeInteger(amount) || amount < 0) {
    throw new RangeError(`${name} must be a non-negative integer amount in minor units, got ${amount}`);
  }
}

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
 * rounded on an invoice. The default locale is that of documents and emails, which have no reader's
 * locale (`DOCUMENT_LOCALE` in domain/dates); the web app passes its reader's.
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
