// What a plan costs period after period, and how that is said. Pure. The renewal prices each
// period with `discountOfPeriod` (renewal-pricing.ts `periodFees`); `priceSchedule` walks the same rule
// over the periods to come, so the checkout, the portal, the dashboard and the emails say what the
// renewals will charge instead of guessing it: a `once` or `repeating` discount is never shown as
// the price for good.
import { discountAmountFor } from '../prices/discount.js';
import type { DiscountTerms } from '../discounts/rules.js';
import { cadenceOf, durationWords, perPeriodWords, type Cadence } from './cadence.js';
import { discountApplies, periodStart, type RecurringInterval } from './rules.js';

/** A discount as a plan holds it: its terms, and the start of the first period it applied to. */
export type PlanDiscount = DiscountTerms & { firstPeriodStart: Date };

/** What one period of a plan is billed before usage and proration lines. */
export type PlanPricing = {
  /** The fixed fees of one period before the discount (the sum of the plan's prices), minor units. */
  fees: number;
  currency: string;
  discount: PlanDiscount | null;
};

/** What the discount takes off the fees of the period that starts at `start`. */
export function discountOfPeriod(pricing: PlanPricing, start: Date): { applies: boolean; amount: number } {
  const { discount } = pricing;
  if (!discount || !discountApplies(discount, discount.firstPeriodStart, start)) {
    return { applies: false, amount: 0 };
  }
  return { applies: true, amount: discountAmountFor(discount, pricing.fees, pricing.currency) };
}

/** Consecutive periods billed the same amount. */
export type PricePhase = {
  amount: number;
  /** How many periods; null: every period from `startsAt` on, for as long as the plan renews. */
  periods: number | null;
  startsAt: Date;
  /** When the phase's last period ends (the next phase starts); null when `periods` is. */
  endsAt: Date | null;
  /** A free trial (nothing charged): the phase after it says from when it is billed. */
  trial?: true;
};

/**
 * The plan's phases when it starts with a free trial until `trialEnd`: nothing for the trial, then
 * `paid` (a schedule whose periods count from the trial's end, as the subscription's do).
 */
export function withTrial(paid: readonly PricePhase[], start: Date, trialEnd: Date): PricePhase[] {
  return [{ amount: 0, periods: 1, startsAt: start, endsAt: trialEnd, trial: true }, ...paid];
}

/** Where a plan's periods fall: counted from `anchor` (rules.ts `periodStart`), `index` the current one. */
export type PlanPeriods = {
  interval: RecurringInterval;
  anchor: Date;
  index: number;
  /** Intervals per period (`recurring_interval_count`); 1 when absent. */
  count?: number;
};

/**
 * What the plan costs from its current period on: that period at `currentAmount` (what it was
 * billed; a plan change within it may have set it), then each renewal's fees less the discount
 * that renewal applies, in phases of equal amount. The last phase goes on for as long as the plan
 * renews; a plan that will not renew (set to cancel) has its current period only.
 */
export function priceSchedule(input: {
  pricing: PlanPricing;
  periods: PlanPeriods;
  currentAmount: number;
  renews: boolean;
}): PricePhase[] {
  const { pricing, periods } = input;
  const startOf = (offset: number) =>
    periodStart(periods.anchor, periods.interval, periods.index + offset, periods.count);
  const phases: PricePhase[] = [
    { amount: input.currentAmount, periods: 1, startsAt: startOf(0), endsAt: startOf(1) },
  ];
  if (!input.renews) return phases;
  // Period starts only grow, so the loop ends once they pass the discount's first period and the
  // discount is over (or lasts forever): every later period is billed as this one.
  for (let offset = 1; ; offset += 1) {
    const start = startOf(offset);
    const { applies, amount: discount } = discountOfPeriod(pricing, start);
    const amount = pricing.fees - discount;
    const isLast =
      pricing.discount === null ||
      (start.getTime() >= pricing.discount.firstPeriodStart.getTime() &&
        (pricing.discount.duration === 'forever' || !applies));
    const previous = phases[phases.length - 1]!;
    if (previous.amount === amount) {
      previous.periods = isLast ? null : previous.periods! + 1;
      previous.endsAt = isLast ? null : startOf(offset + 1);
    } else {
      phases.push({
        amount,
        periods: isLast ? null : 1,
        startsAt: start,
        endsAt: isLast ? null : startOf(offset + 1),
      });
    }
    if (isLast) return phases;
  }
}

/** What the next renewal bills for its period's fees, or null when the plan does not renew. */
export function nextRenewalAmount(phases: readonly PricePhase[]): number | null {
  const [current, next] = phases;
  if (!current) return null;
  if (current.periods === null || current.periods > 1) return current.amount;
  return next?.amount ?? null;
}

export type ScheduleFormat = {
  money: (amount: number) => string;
  date: (at: Date) => string;
};

/**
 * The schedule in words. `from: 'purchase'` speaks before the first payment: "$16.00 today, then
 * $20.00 / month", "$16.00 / month for 3 months, then $20.00 / month". `'current'` speaks of a
 * running plan whose current period is paid: "$16.00 / month until 3 May 2026, then $20.00 / month".
 * A plan renewed every several intervals says so: "$60.00 every 3 months".
 * `plus` names what comes on top of every amount ("usage", "tax"). An empty schedule (an ended
 * plan) says nothing.
 */
export function describePriceSchedule(
  phases: readonly PricePhase[],
  interval: RecurringInterval | Cadence,
  format: ScheduleFormat,
  options: { from: 'purchase' | 'current'; plus?: readonly string[] },
): string {
  if (phases.length === 0) return '';
  const cadence = cadenceOf(interval);
  const perPeriod = (amount: number) => perPeriodWords(format.money(amount), cadence);
  const forPeriods = (count: number) => durationWords(count, cadence);
  const words = phases.map((phase, index) => {
    if (phase.trial) {
      return options.from === 'current'
        ? `free until ${format.date(phase.endsAt!)}`
        : `${format.money(0)} today`;
    }
    // Billing starts when the trial before it ends: say when, so "then" is a date.
    const since =
      options.from === 'purchase' && phases[index - 1]?.trial ? ` from ${format.date(phase.startsAt)}` : '';
    if (phase.periods === null) return `${perPeriod(phase.amount)}${since}`;
    const amount = phase.periods === 1 ? format.money(phase.amount) : perPeriod(phase.amount);
    if (index > 0) return `${amount} ${forPeriods(phase.periods)}${since}`;
    if (options.from === 'current') return `${amount} until ${format.date(phase.endsAt!)}`;
    return phase.periods === 1 ? `${amount} today` : `${amount} ${forPeriods(phase.periods)}`;
  });
  const plus = options.plus ?? [];
  const extras = plus.length === 0 ? '' : ` plus ${plus.join(' and ')}`;
  return `${words.join(', then ')}${extras}`;
}
