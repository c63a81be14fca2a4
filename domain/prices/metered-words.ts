// A metered price as buyers and sellers read it: its unit amount with every digit the price has
// ("$0.002", never rounded to the cent), its cap per period, and when usage is billed (at the end
// of each period, for what was used in it: domain/usage/rules.ts `meteredLineAmount`). Pure.
import { minorUnitDigits } from '../money/rules.js';
import type { RecurringInterval } from './schemas.js';

/** What of a `metered_unit` price (Polar's shape) the words need. */
export type MeteredPrice = {
  /** Minor units per unit, as a decimal string: "0.2" usd is a fifth of a cent. */
  unit_amount: string;
  cap_amount: number | null;
  price_currency: string;
  meter: { name: string };
};

/** `digits` places to the left: ("0.2", 2) → "0.002", ("150", 2) → "1.50". Exact: text, not floats. */
function shiftLeft(decimal: string, digits: number): string {
  const [whole = '0', fraction = ''] = decimal.split('.');
  const allDigits = `${whole}${fraction}`;
  const point = whole.length - digits;
  if (point <= 0) return `0.${'0'.repeat(-point)}${allDigits}`;
  const after = allDigits.slice(point);
  return after ? `${allDigits.slice(0, point)}.${after}` : allDigits;
}

/**
 * Money with at least the currency's minor digits and as many more as the amount has; `locale`
 * undefined is the reader's. Intl formats a decimal string exactly.
 */
function formatDecimalMoney(decimal: string, currency: string, locale: string | undefined): string {
  const digits = minorUnitDigits(currency);
  const fraction = /\.(\d*?)0*$/.exec(decimal)?.[1] ?? '';
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: currency.toUpperCase(),
    minimumFractionDigits: digits,
    maximumFractionDigits: Math.max(digits, fraction.length),
  }).format(decimal as `${number}`);
}

/** A unit amount in minor units as money, every digit kept: "0.2" usd → "$0.002", "0.5" jpy → "¥0.5". */
export function formatUnitAmount(unitAmount: string, currency: string, locale?: string): string {
  return formatDecimalMoney(shiftLeft(unitAmount, minorUnitDigits(currency)), currency, locale);
}

/** Whole minor units as money: 5000 usd → "$50.00", 500 jpy → "¥500". */
function formatMinorUnits(amount: number, currency: string, locale: string | undefined): string {
  return formatDecimalMoney(shiftLeft(String(amount), minorUnitDigits(currency)), currency, locale);
}

/** A plan's billing interval; null for a price read without its product's interval. */
type Interval = RecurringInterval | null;

/** "a month", "every 3 months": how often a cap or a bill comes round, `count` intervals a period. */
function everyPeriod(interval: RecurringInterval, count: number): string {
  return count === 1 ? `a ${interval}` : `every ${count} ${interval}s`;
}

/** "Tokens", "$0.002 per unit", "at most $50.00 a month" (null without a cap). */
export function meteredPriceParts(
  price: MeteredPrice,
  interval: Interval,
  locale?: string,
  count = 1,
): { meter: string; unitPrice: string; cap: string | null } {
  return {
    meter: price.meter.name,
    unitPrice: `${formatUnitAmount(price.unit_amount, price.price_currency, locale)} per unit`,
    cap:
      price.cap_amount === null
        ? null
        : `at most ${formatMinorUnits(price.cap_amount, price.price_currency, locale)} ${interval ? everyPeriod(interval, count) : 'a period'}`,
  };
}

/** "$0.002 per unit of Tokens, at most $50.00 a month". */
export function describeMeteredPrice(
  price: MeteredPrice,
  interval: Interval,
  locale?: string,
  count = 1,
): string {
  const parts = meteredPriceParts(price, interval, locale, count);
  return `${parts.unitPrice} of ${parts.meter}${parts.cap ? `, ${parts.cap}` : ''}`;
}

/** When usage is charged, to the buyer: after the period it was used in, with the renewal. */
export function usageBillingWords(interval: Interval, count = 1): string {
  const period = interval === null ? 'period' : count === 1 ? interval : `${count}-${interval} period`;
  return `billed at the end of each ${period} for what you used in it`;
}
