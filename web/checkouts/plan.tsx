// A plan as the buyer is told about it before paying: what it costs period after period (the
// discount as the renewals will apply it, domain/subscriptions/schedule.ts) and what its metered
// prices add, billed at the end of each period.
import type { CheckoutPublic } from '../../domain/checkouts/schemas';
import type { ProductPrice, RecurringInterval } from '../../domain/products/schemas';
import { cadenceOf, type Cadence } from '../../domain/subscriptions/cadence';
import {
  describePriceSchedule,
  priceSchedule,
  withTrial,
  type PricePhase,
} from '../../domain/subscriptions/schedule';
import { meteredPriceParts, usageBillingWords } from '../../domain/prices/metered-words';
import { usagePricesOf, type UsagePrice } from '../../domain/prices/registry';
import { formatDate } from '../components';
import { formatMoney } from '../money/format';

type PlanCheckout = Pick<
  CheckoutPublic,
  | 'product'
  | 'product_price'
  | 'amount'
  | 'net_amount'
  | 'discount_amount'
  | 'discount'
  | 'currency'
  | 'tax_amount'
> &
  Partial<Pick<CheckoutPublic, 'active_trial_interval' | 'trial_end'>>;

/**
 * When the free trial the buyer gets ends, or null without one (none on the product or checkout,
 * or declined): a trial charges nothing today and the first period is billed at its end.
 */
export function checkoutTrialEnd(
  checkout: Partial<Pick<CheckoutPublic, 'active_trial_interval' | 'trial_end'>>,
) {
  return checkout.active_trial_interval && checkout.trial_end ? new Date(checkout.trial_end) : null;
}

/** How often a plan is billed: its price's interval (Polar's), else its product's; null when bought once. */
export function checkoutInterval(
  checkout: Pick<CheckoutPublic, 'product' | 'product_price'>,
): RecurringInterval | null {
  return checkout.product_price.recurring_interval ?? checkout.product.recurring_interval;
}

/** How often a plan renews: its interval, every `recurring_interval_count` of them; null when bought once. */
export function checkoutCadence(checkout: Pick<CheckoutPublic, 'product' | 'product_price'>): Cadence | null {
  const interval = checkoutInterval(checkout);
  return interval ? cadenceOf(interval, checkout.product.recurring_interval_count ?? 1) : null;
}

export type MeteredProductPrice = UsagePrice;

/** The product's metered prices, which the subscription bills by usage besides the one bought. */
export function meteredPricesOf(product: { prices: ProductPrice[] }): MeteredProductPrice[] {
  return usagePricesOf(product.prices);
}

/**
 * The plan's phases as if it started `now`: the first period at the checkout's net amount, the
 * renewals at the price less the discount each one applies. The subscription keeps the discount
 * only when it took something off (domain/checkouts/payment.ts), as here.
 */
export function checkoutPhases(checkout: PlanCheckout, now: Date): PricePhase[] | null {
  const cadence = checkoutCadence(checkout);
  if (!cadence) return null;
  const trialEnd = checkoutTrialEnd(checkout);
  // With a trial the periods (and a discount's duration) count from its end, as the subscription's.
  const start = trialEnd ?? now;
  const discount = checkout.discount_amount > 0 ? checkout.discount : null;
  const paid = priceSchedule({
    pricing: {
      fees: checkout.amount,
      currency: checkout.currency,
      discount: discount
        ? {
            type: discount.type,
            amount: discount.amount ?? null,
            currency: discount.currency ?? null,
            basisPoints: discount.basis_points ?? null,
            duration: discount.duration,
            durationInMonths: discount.duration_in_months ?? null,
            firstPeriodStart: start,
          }
        : null,
    },
    periods: { interval: cadence.interval, count: cadence.count, anchor: start, index: 0 },
    currentAmount: checkout.net_amount,
    renews: true,
  });
  return trialEnd ? withTrial(paid, now, trialEnd) : paid;
}

/**
 * "$16.00 today, then $20.00 / month" ("$0.00 today, then $20.00 / month from <date>" with a
 * trial), with what comes on top ("plus tax and usage"); null for a
 * product bought once. Amounts are before tax: tax is quoted again for each renewal.
 */
export function describeCheckoutPlan(checkout: PlanCheckout, now = new Date()): string | null {
  const phases = checkoutPhases(checkout, now);
  const cadence = checkoutCadence(checkout);
  if (!phases || !cadence) return null;
  const plus = [
    ...(checkout.tax_amount ? ['tax'] : []),
    ...(meteredPricesOf(checkout.product).length > 0 ? ['usage'] : []),
  ];
  return describePriceSchedule(
    phases,
    cadence,
    { money: (amount) => formatMoney(amount, checkout.currency), date: (at) => formatDate(at) },
    { from: 'purchase', plus },
  );
}

/** Each metered price with its unit price and cap, and when usage is billed. */
export function MeteredPrices({
  prices,
  interval: periodInterval,
  count: periodCount = 1,
  meterInterval = null,
  meterIntervalCount = null,
}: {
  prices: MeteredProductPrice[];
  interval: RecurringInterval;
  /** Intervals per period (`recurring_interval_count`). */
  count?: number;
  /** The product's meter cycle of its own (`meter_interval`): usage is billed, and capped, per cycle. */
  meterInterval?: RecurringInterval | null;
  meterIntervalCount?: number | null;
}) {
  if (prices.length === 0) return null;
  const interval = meterInterval ?? periodInterval;
  const count = meterInterval ? (meterIntervalCount ?? 1) : periodCount;
  return (
    <div className="metered-prices" data-testid="metered-prices">
      <p>Plus usage, {usageBillingWords(interval, count)}:</p>
      <ul>
        {prices.map((price) => {
          const parts = meteredPriceParts(price, interval, undefined, count);
          return (
            <li key={price.id} data-testid="metered-price">
              <strong className="wrap">{parts.meter}</strong>: {parts.unitPrice}
              {parts.cap ? `, ${parts.cap}` : ''}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
