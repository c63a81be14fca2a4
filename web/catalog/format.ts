import type { ProductPrice } from '../../domain/products/schemas';
import { readMajorInput } from '../checkouts/money';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Integer cents as "$12.50". */
export function formatCents(cents: number | null | undefined): string {
  return cents === null || cents === undefined ? '—' : usd.format(cents / 100);
}

export type DollarsRead = { cents: number | null; error: null } | { cents: null; error: string };

/**
 * "12.5" dollars → 1250 cents; null for an empty field, or the sentence saying why the text is not
 * an amount. A leading "$" and thousands separators ("1,250.00") are allowed; more decimals than
 * the currency has ("10.999") are refused with the precision it allows, never rounded.
 */
export function readDollars(text: string, currency = 'usd'): DollarsRead {
  const trimmed = text.trim().replace(/^\$/, '');
  const ungrouped = /^\d{1,3}(,\d{3})+(\.\d*)?$/.test(trimmed) ? trimmed.replace(/,/g, '') : trimmed;
  if (/,/.test(ungrouped)) return { cents: null, error: DOLLARS_EXPECTED };
  const read = readMajorInput(ungrouped, currency, DOLLARS_EXPECTED);
  return read.error === null ? { cents: read.amount, error: null } : { cents: null, error: read.error };
}

const DOLLARS_EXPECTED = 'Enter an amount in dollars, such as 9.99.';

export function describePrice(price: ProductPrice): string {
  const per = price.recurring_interval ? ` / ${price.recurring_interval}` : '';
  switch (price.amount_type) {
    case 'free':
      return 'Free';
    case 'fixed':
      return `${formatCents(price.price_amount)}${per}`;
    case 'custom': {
      const bounds = [
        price.minimum_amount === null ? null : `min ${formatCents(price.minimum_amount)}`,
        price.maximum_amount === null ? null : `max ${formatCents(price.maximum_amount)}`,
        price.preset_amount === null ? null : `suggested ${formatCents(price.preset_amount)}`,
      ].filter(Boolean);
      return `Pay what you want${bounds.length ? ` (${bounds.join(', ')})` : ''}${per}`;
    }
    case 'metered_unit':
      return `${price.unit_amount}¢ per unit of ${price.meter.name}${
        price.cap_amount === null ? '' : `, capped at ${formatCents(price.cap_amount)}`
      }${per}`;
  }
}
