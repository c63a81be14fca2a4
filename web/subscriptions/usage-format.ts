import type { UpcomingInvoice, UpcomingInvoiceMeter } from '../../domain/subscriptions/schemas';
import { minorUnitDigits } from '../../domain/money/rules';
import { formatMoney } from '../money/format';
import { formatUnits } from '../portal/format';

/** `text` (a non-negative decimal) divided by 10^places, exactly, as decimal text: ("0.35", 2) → "0.0035". */
export function shiftDecimalLeft(text: string, places: number): `${number}` {
  const [whole = '0', fraction = ''] = text.split('.');
  const digits = `${whole}${fraction}`;
  const pointAt = whole.length - places;
  const shifted =
    pointAt <= 0
      ? `0.${'0'.repeat(-pointAt)}${digits}`
      : `${digits.slice(0, pointAt)}.${digits.slice(pointAt)}`;
  const [integer = '0', decimals = ''] = shifted.split('.');
  const trimmed = decimals.replace(/0+$/, '');
  return `${integer.replace(/^0+(?=\d)/, '')}${trimmed ? `.${trimmed}` : ''}` as `${number}`;
}

/**
 * A metered price's unit amount (a decimal of the currency's minor unit, e.g. 0.35 ¢) in the
 * currency's main unit, every digit kept: "$0.0035". Rounding it to cents would say "$0.00".
 */
export function formatUnitPrice(unitAmount: string, currency: string, locale?: string): string {
  const digits = minorUnitDigits(currency);
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: currency.toUpperCase(),
    minimumFractionDigits: digits,
    maximumFractionDigits: 20,
  }).format(shiftDecimalLeft(unitAmount, digits));
}

/**
 * How a metered line is worked out, in one sentence: "300 used − 100 credited = 200 × $0.0035,
 * capped at $0.50".
 */
export function describeMeteredCharge(
  meter: UpcomingInvoiceMeter,
  currency: string,
  locale?: string,
): string {
  const units = (value: number) => formatUnits(value, locale);
  const used =
    meter.credited_units > 0
      ? `${units(meter.consumed_units)} used − ${units(meter.credited_units)} credited = ${units(meter.billable_units)}`
      : `${units(meter.consumed_units)} used`;
  const cap =
    meter.cap_amount === null
      ? ''
      : `, ${meter.capped ? 'capped at' : 'up to'} ${formatMoney(meter.cap_amount, currency, locale)}`;
  return `${used} × ${formatUnitPrice(meter.unit_amount, currency, locale)}${cap}`;
}

/** The estimate's headline: what will be charged and when, or that nothing more will be. */
export function describeUpcomingCharge(invoice: UpcomingInvoice, billedOn: string): string {
  if (invoice.billed_at === null) return 'Nothing more will be billed.';
  const total = formatMoney(invoice.total_amount, invoice.currency);
  return invoice.ends_subscription
    ? `${total} on ${billedOn}, the last invoice of this subscription`
    : `${total} on ${billedOn}`;
}
