// The bounds every price type shares (Polar's API as of @polar-sh/sdk@0.33.2, spec §3 Price, §5:
// amounts are integers in minor units, unit amounts decimal strings) and the processor's smallest
// charge. Pure.

/**
 * Stripe's smallest charge in USD; Polar refuses fixed prices and pay-what-you-want minimums below
 * it, except a minimum of 0 ("free or pay what you want").
 */
export const MIN_PRICE_AMOUNT = 50;
export const MAX_PRICE_AMOUNT = 99_999_999;
/** Pay-what-you-want maximum and preset: $10,000, Polar's ceiling. */
export const MAX_CUSTOM_AMOUNT = 1_000_000;
/** Only USD, as Polar's API says ("Currently, only `usd` is supported"). */
export const SUPPORTED_CURRENCIES = ['usd'] as const;
/** Unit amounts are stored as numeric(17, 12): five integer digits, twelve decimals. */
export const UNIT_AMOUNT_DECIMALS = 12;
const UNIT_AMOUNT_INTEGER_DIGITS = 5;

/** A free price has no currency of its own; Polar's checkouts then use USD. */
export const DEFAULT_CURRENCY = 'usd';

/**
 * Stripe's smallest charge per presentment currency, in minor units ("Minimum and maximum charge
 * amounts", stripe.com/docs/currencies). Zero-decimal currencies (jpy) are already whole units.
 * A currency not listed falls back to USD's 50: Stripe's rule for the rest is "the equivalent of
 * $0.50", which a pure function cannot convert, and the catalog sells only USD today.
 */
const MINIMUM_CHARGE_AMOUNTS: Readonly<Record<string, number>> = {
  usd: 50,
  aed: 200,
  aud: 50,
  bgn: 100,
  brl: 50,
  cad: 50,
  chf: 50,
  czk: 1500,
  dkk: 250,
  eur: 50,
  gbp: 30,
  hkd: 400,
  huf: 17500,
  inr: 50,
  jpy: 50,
  mxn: 1000,
  myr: 200,
  nok: 300,
  nzd: 50,
  pln: 200,
  ron: 200,
  sek: 300,
  sgd: 50,
  thb: 1000,
};

export function minimumChargeAmount(currency: string): number {
  return MINIMUM_CHARGE_AMOUNTS[currency.toLowerCase()] ?? 50;
}

/** Plain decimal notation of a number, without the exponent JavaScript uses for tiny or huge values. */
function plainDecimal(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  return value.toFixed(20);
}

/**
 * A unit amount in minor units as the canonical decimal string (`0.5`, `12`), or null when it is
 * not a positive decimal with at most 12 decimals and 5 integer digits.
 */
export function normalizeUnitAmount(value: number | string): string | null {
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  const text = typeof value === 'number' ? plainDecimal(value) : value.trim();
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return null;
  const integer = (match[1] ?? '').replace(/^0+(?=\d)/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > UNIT_AMOUNT_DECIMALS || integer.length > UNIT_AMOUNT_INTEGER_DIGITS) return null;
  if (/^0*$/.test(integer + fraction)) return null;
  return fraction ? `${integer}.${fraction}` : integer;
}
