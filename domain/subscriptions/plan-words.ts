// A plan's prices in the buyer's words, for the emails about it: what it costs over time (the
// schedule the renewals follow), its next payment, and its metered prices. Pure.
import { storedMeterCycle } from '../products/meter-cycles.js';
import { priceView } from '../products/views.js';
import { describeMeteredPrice, usageBillingWords, type MeteredPrice } from '../prices/metered-words.js';
import { usagePricesOf } from '../prices/registry.js';
import type { SubscriptionRow } from './repository.js';
import type { RecurringInterval } from './rules.js';
import { describePriceSchedule, nextRenewalAmount, type ScheduleFormat } from './schedule.js';
import { priceScheduleOf } from './views.js';

export type PlanWords = {
  /** "$16.00 today, then $20.00 / month plus usage"; null once the plan has ended. */
  price: string | null;
  /** The next renewal's fees ("$20.00", "$10.00 plus usage"); null when the plan does not renew. */
  nextPayment: string | null;
  /** "Usage is billed at the end of each month …: $0.002 per unit of Tokens"; null without metered prices. */
  usage: string | null;
};

/** The plan's metered prices, in the order the plan lists them. */
export function meteredPricesOf(row: Pick<SubscriptionRow, 'prices'>): MeteredPrice[] {
  return usagePricesOf(row.prices.map(({ productPrice }) => priceView(productPrice)));
}

/** `from`: 'purchase' for the email that welcomes the buyer, 'current' for those of a running plan. */
export function planWords(
  row: SubscriptionRow,
  format: ScheduleFormat,
  from: 'purchase' | 'current',
): PlanWords {
  const interval = row.recurringInterval as RecurringInterval;
  const count = row.recurringIntervalCount;
  const phases = priceScheduleOf(row);
  const metered = meteredPricesOf(row);
  const plus = metered.length > 0 ? ['usage'] : [];
  // Usage is billed, and capped, per meter cycle when the plan has one of its own.
  const usage = storedMeterCycle(row) ?? { interval, count };
  const next = nextRenewalAmount(phases);
  return {
    price:
      phases.length > 0 ? describePriceSchedule(phases, { interval, count }, format, { from, plus }) : null,
    nextPayment: next === null ? null : `${format.money(next)}${plus.length > 0 ? ' plus usage' : ''}`,
    usage:
      metered.length > 0
        ? `Usage is ${usageBillingWords(usage.interval, usage.count)}: ${metered.map((price) => describeMeteredPrice(price, usage.interval, 'en-US', usage.count)).join('; ')}.`
        : null,
  };
}
