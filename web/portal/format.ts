import type { CustomerProduct } from '../../domain/customer-portal/schemas';
import type { LicenseKey } from '../../domain/license-keys/schemas';
import type { CardBrand } from '../../domain/payments/test-cards';
import type { PaymentMethod } from '../../domain/payment-methods/schemas';
import { BRAND_NAMES } from '../checkouts/card-brands';
import type { CANCELLATION_REASONS } from '../../domain/subscriptions/schemas';
import { formatMoney } from '../money/format';
import { formatDate } from '../components';
import { describeMeteredPrice, usageBillingWords } from '../../domain/prices/metered-words';
import { priceType, staticPriceOf } from '../../domain/prices/registry';
import { meteredPricesOf } from '../checkouts/plan';

/** Why a buyer leaves, in their own words (the seller's dashboard reads the same reasons as its own). */
export const BUYER_CANCELLATION_REASONS: Record<(typeof CANCELLATION_REASONS)[number], string> = {
  too_expensive: 'It’s too expensive',
  unused: 'I don’t use it enough',
  missing_features: 'It’s missing features I need',
  switched_service: 'I’m switching to another service',
  too_complex: 'It’s too hard to use',
  low_quality: 'The quality isn’t good enough',
  customer_service: 'I wasn’t happy with the support',
  other: 'Another reason',
};

/**
 * A key with all but its last characters hidden: "••••••••-4F2A". `display_key` already hides
 * part of it (Polar's `****-XXXX`); ours keeps the same length as the key, so the reveal does not
 * move the layout much, and never shows more than the last four characters.
 */
export function maskLicenseKey(key: string): string {
  const visible = key.slice(-4);
  return `${'•'.repeat(Math.min(Math.max(key.length - 4, 4), 24))}${visible}`;
}

/** "3 of 10 uses" or "Used 3 times" when the key has no limit. */
export function describeUsage(key: Pick<LicenseKey, 'usage' | 'limit_usage'>): string {
  if (key.limit_usage !== null) return `${key.usage} of ${key.limit_usage} uses`;
  return key.usage === 1 ? 'Used once' : `Used ${key.usage} times`;
}

export function describeExpiry(expiresAt: string | null): string {
  if (!expiresAt) return 'Never expires';
  return new Date(expiresAt).getTime() < Date.now()
    ? `Expired on ${formatDate(expiresAt)}`
    : `Expires on ${formatDate(expiresAt)}`;
}

/** What the fixed part of a plan costs: "$30.00 / month", "Free", "Pay what you want"; null for usage only. */
function describeFixedPart(product: CustomerProduct): string | null {
  const price = staticPriceOf(product.prices);
  if (!price) return null;
  const { words } = priceType(price.amount_type);
  return words.plan(
    price,
    words.isPerPeriod ? product.recurring_interval : null,
    { money: formatMoney },
    product.recurring_interval_count ?? 1,
  );
}

/**
 * A plan as the buyer picks it: its fixed price and each metered price with its unit price and
 * cap ("$10.00 / month plus usage: $0.002 per unit of Tokens, at most $50.00 a month, billed at the
 * end of each month for what you used in it").
 */
export function describeProductPrice(product: CustomerProduct): string {
  const fixed = describeFixedPart(product);
  const metered = meteredPricesOf(product);
  if (metered.length === 0) return fixed ?? 'Pay what you want';
  // Usage is billed, and capped, per meter cycle when the product has one of its own.
  const interval = product.meter_interval ?? product.recurring_interval;
  const count = product.meter_interval
    ? (product.meter_interval_count ?? 1)
    : (product.recurring_interval_count ?? 1);
  const usage = `${metered.map((price) => describeMeteredPrice(price, interval, undefined, count)).join('; ')}, ${usageBillingWords(interval, count)}`;
  return fixed ? `${fixed} plus usage: ${usage}` : `Usage: ${usage}`;
}

/** A signed amount: a credit reads "−$5.00". */
export function signedMoney(amount: number, currency: string): string {
  return amount < 0 ? `−${formatMoney(-amount, currency)}` : formatMoney(amount, currency);
}

const unitsFormats = new Map<string, Intl.NumberFormat>();

/**
 * Units of a meter: whole numbers as they are, fractions to at most 4 places, in the reader's
 * locale (`locale` fixes it, for tests).
 */
export function formatUnits(units: number, locale?: string): string {
  let format = unitsFormats.get(locale ?? '');
  if (!format) {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: 4 });
    unitsFormats.set(locale ?? '', format);
  }
  return format.format(units);
}

/** "apple_pay" → "Apple pay": processors name brands and wallets in snake case. */
function humanize(name: string): string {
  const words = name.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const WALLET_NAMES: Record<string, string> = {
  apple_pay: 'Apple Pay',
  google_pay: 'Google Pay',
  samsung_pay: 'Samsung Pay',
  link: 'Link',
};

/** A card's brand as printed on it ("Visa"); one the checkout does not know, as the processor names it. */
export function cardBrandName(brand: string): string {
  if (brand in BRAND_NAMES) return BRAND_NAMES[brand as CardBrand];
  return brand === 'unknown' || brand === '' ? 'Card' : humanize(brand);
}

/** A saved method listed by type only: the rows kept before card details were. */
const GENERIC_CARD = 'Card saved before expiry dates were kept';

/**
 * A saved card as the list shows it (`text`), as a screen reader says it (`spoken`: "ending in",
 * not four dots) and as the buttons that act on it name it (`name`).
 */
export function describePaymentMethod(
  method: PaymentMethod,
  now: Date = new Date(),
): { text: string; spoken: string; name: string } {
  if (!('card' in method)) return { text: GENERIC_CARD, spoken: GENERIC_CARD, name: 'this card' };
  const { card } = method;
  const brand = cardBrandName(card.brand);
  const wallet = card.wallet ? ` (${WALLET_NAMES[card.wallet] ?? humanize(card.wallet)})` : '';
  const expiry = `${String(card.exp_month).padStart(2, '0')}/${card.exp_year}`;
  // A card is good through the last day of its expiry month.
  const isExpired =
    card.exp_year < now.getFullYear() ||
    (card.exp_year === now.getFullYear() && card.exp_month < now.getMonth() + 1);
  const expires = isExpired ? `expired ${expiry}` : `expires ${expiry}`;
  const name = `${brand} ending in ${card.last4}`;
  return {
    text: `${brand} •••• ${card.last4}${wallet}, ${expires}`,
    spoken: `${name}${wallet}, ${expires}`,
    name,
  };
}
