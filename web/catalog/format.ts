import type { ProductPrice } from '../../domain/products/schemas';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Integer cents as "$12.50". */
export function formatCents(cents: number | null | undefined): string {
  return cents === null || cents === undefined ? '—' : usd.format(cents / 100);
}

export type DollarsRead = { cents: number | null; error: null } | { cents: null; error: string };

/**
 * "12.5" dollars → 1250 cents; null for an empty field, or the sentence saying why the text is not
 * an amount. Rounded to the cent because the API takes integer minor units (spec §5) and
 * 19.99 * 100 is 1998.9999999999998 in floating point.
 */
export function readDollars(text: string): DollarsRead {
  const trimmed = text.trim().replace(/^\$/, '').replace(/,/g, '');
  if (!trimmed) return { cents: null, error: null };
  if (!/^\d+(\.\d*)?$|^\.\d+$/.test(trimmed)) {
    return { cents: null, error: 'Enter an amount in dollars, such as 9.99.' };
  }
  return { cents: Math.round(Number(trimmed) * 100), error: null };
}

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
