import type { UpcomingInvoice, UpcomingInvoiceMeter } from '../../domain/subscriptions/schemas';
import { formatUnitAmount } from '../../domain/prices/metered-words';
import { formatMoney } from '../money/format';
import { formatUnits } from '../portal/format';

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
  return `${used} × ${formatUnitAmount(meter.unit_amount, currency, locale)}${cap}`;
}

/** The estimate's headline: what will be charged and when, or that nothing more will be. */
export function describeUpcomingCharge(invoice: UpcomingInvoice, billedOn: string): string {
  if (invoice.billed_at === null) return 'Nothing more will be billed.';
  const total = formatMoney(invoice.total_amount, invoice.currency);
  return invoice.ends_subscription
    ? `${total} on ${billedOn}, the last invoice of this subscription`
    : `${total} on ${billedOn}`;
}
