import type { ProductPrice, RecurringInterval } from '../../domain/products/schemas';
import { priceType, usagePricesOf } from '../../domain/prices/registry';
import type { SeatRange } from '../../domain/prices/strategy';
import {
  billedEveryWords,
  cadenceOf,
  perPeriodWords,
  type Cadence,
} from '../../domain/subscriptions/cadence';
import { describePriceSchedule, type PricePhase } from '../../domain/subscriptions/schedule';
import type {
  CANCELLATION_REASONS,
  PricePhaseWire,
  ProrationPreview,
  Subscription,
  SubscriptionStatus,
} from '../../domain/subscriptions/schemas';
import { formatMoney } from '../money/format';
import { formatDate } from '../components';

type Tone = 'ok' | 'warn' | 'error' | 'neutral';

const STATUS: Record<SubscriptionStatus, [string, Tone]> = {
  incomplete: ['Incomplete', 'warn'],
  incomplete_expired: ['Expired', 'neutral'],
  trialing: ['Trial', 'ok'],
  active: ['Active', 'ok'],
  past_due: ['Past due', 'warn'],
  canceled: ['Canceled', 'neutral'],
  unpaid: ['Unpaid', 'error'],
  paused: ['Paused', 'neutral'],
};

export const SUBSCRIPTION_STATUS_LABELS = Object.fromEntries(
  Object.entries(STATUS).map(([status, [label]]) => [status, label]),
) as Record<SubscriptionStatus, string>;

type BadgeFields = Pick<
  Subscription,
  'status' | 'ended_at' | 'ends_at' | 'cancel_at_period_end' | 'current_period_end'
> &
  Partial<Pick<Subscription, 'trial_end'>>;

/**
 * The badge's words and tone: a plan set to cancel at its period's end still runs until then, so
 * it reads "Ends on <date>" (amber) rather than a status that would call it canceled or active; a
 * trial reads "Trial ends on <date>".
 */
export function describeSubscriptionStatus(subscription: BadgeFields): [string, Tone] {
  if (subscription.cancel_at_period_end && !hasEnded(subscription)) {
    return [`Ends on ${formatDate(subscription.ends_at ?? subscription.current_period_end)}`, 'warn'];
  }
  // A trial says when it ends, the day its first payment is due.
  if (subscription.status === 'trialing' && subscription.trial_end) {
    return [`Trial ends on ${formatDate(subscription.trial_end)}`, 'ok'];
  }
  return STATUS[subscription.status];
}

export function SubscriptionStatusBadge({ subscription }: { subscription: BadgeFields }) {
  const [label, tone] = describeSubscriptionStatus(subscription);
  return (
    <span className={`badge badge-${tone}`} data-testid="subscription-status">
      {label}
    </span>
  );
}

export const CANCELLATION_REASON_LABELS: Record<(typeof CANCELLATION_REASONS)[number], string> = {
  customer_service: 'Unhappy with customer service',
  low_quality: 'Quality was lacking',
  missing_features: 'Missing features',
  switched_service: 'Switched to another service',
  too_complex: 'Too complicated',
  too_expensive: 'Too expensive',
  unused: 'Not using it enough',
  other: 'Other reason',
};

/** "Monthly", "Every 3 months". */
export const billedEvery = (interval: RecurringInterval, count = 1) =>
  billedEveryWords(cadenceOf(interval, count));

/** "$10.00 / month", "$60.00 every 3 months": a price that stays; a plan's own price is `describeSubscriptionPrice`. */
export function formatPlanAmount(
  amount: number,
  currency: string,
  interval: RecurringInterval,
  count = 1,
): string {
  return perPeriodWords(formatMoney(amount, currency), cadenceOf(interval, count));
}

const phaseOf = (phase: PricePhaseWire): PricePhase => ({
  amount: phase.amount,
  periods: phase.periods,
  startsAt: new Date(phase.starts_at),
  endsAt: phase.ends_at === null ? null : new Date(phase.ends_at),
  ...(phase.trial ? { trial: true as const } : {}),
});

export const hasMeteredPrice = (prices: readonly ProductPrice[]) => usagePricesOf(prices).length > 0;

/** A `price_schedule` of the API in words, from where the plan stands; `fallback` when it is empty. */
function describeScheduleWire(
  schedule: readonly PricePhaseWire[],
  currency: string,
  interval: Cadence,
  options: { hasUsage: boolean; fallback: number },
): string {
  if (schedule.length === 0)
    return formatPlanAmount(options.fallback, currency, interval.interval, interval.count);
  return describePriceSchedule(
    schedule.map(phaseOf),
    interval,
    { money: (amount) => formatMoney(amount, currency), date: (at) => formatDate(at) },
    { from: 'current', plus: options.hasUsage ? ['usage'] : [] },
  );
}

/**
 * What the plan costs from where it stands, as its renewals will charge it (the API's
 * `price_schedule`): "$16.00 until 3 Mar 2026, then $20.00 / month", "$20.00 / month plus usage".
 * An ended plan shows the amount it had.
 */
export function describeSubscriptionPrice(
  subscription: Pick<
    Subscription,
    'amount' | 'currency' | 'recurring_interval' | 'price_schedule' | 'prices'
  > &
    Partial<Pick<Subscription, 'recurring_interval_count'>>,
): string {
  return describeScheduleWire(
    subscription.price_schedule,
    subscription.currency,
    cadenceOf(subscription.recurring_interval, subscription.recurring_interval_count ?? 1),
    {
      hasUsage: hasMeteredPrice(subscription.prices),
      fallback: subscription.amount,
    },
  );
}

/** The price a plan change would leave, from its preview: a discount that ends says when. */
export function describePreviewPrice(
  preview: Pick<ProrationPreview, 'new_amount' | 'currency' | 'recurring_interval' | 'price_schedule'> &
    Partial<Pick<ProrationPreview, 'recurring_interval_count'>>,
): string {
  const cadence = cadenceOf(preview.recurring_interval, preview.recurring_interval_count ?? 1);
  return describeScheduleWire(preview.price_schedule, preview.currency, cadence, {
    hasUsage: false,
    fallback: preview.new_amount,
  });
}

/**
 * Monthly recurring revenue of one plan: a yearly amount counts as a twelfth, rounded to the minor
 * unit (the sum over many plans may then be off by a cent or so, as in any MRR report). A plan
 * that has ended brings in nothing more; one set to cancel still does until its period ends.
 */
export function monthlyAmount(
  subscription: Pick<Subscription, 'amount' | 'recurring_interval' | 'status' | 'ended_at'> &
    Partial<Pick<Subscription, 'recurring_interval_count'>>,
): number {
  if (hasEnded(subscription)) return 0;
  // A period lasts `months / per` months: a year is 12, a week 12/52 of a year's months, a day 12/365.
  const count = subscription.recurring_interval_count ?? 1;
  const [months, per]: [number, number] = {
    day: [12 * count, 365] as [number, number],
    week: [12 * count, 52] as [number, number],
    month: [count, 1] as [number, number],
    year: [12 * count, 1] as [number, number],
  }[subscription.recurring_interval];
  return Math.round((subscription.amount * per) / months);
}

/** Whether the plan still renews or can be changed: not ended, and in a status that is billed. */
export function isBillable(subscription: Pick<Subscription, 'status' | 'ended_at'>): boolean {
  return subscription.ended_at === null && ['trialing', 'active', 'past_due'].includes(subscription.status);
}

/** Set to cancel and not ended; a past-due plan set to cancel ends at its period's end. */
export function isResumable(
  subscription: Pick<Subscription, 'status' | 'ended_at' | 'cancel_at_period_end'>,
): boolean {
  return (
    subscription.cancel_at_period_end &&
    subscription.ended_at === null &&
    ['trialing', 'active'].includes(subscription.status)
  );
}

export function hasEnded(subscription: Pick<Subscription, 'status' | 'ended_at'>): boolean {
  return (
    subscription.ended_at !== null ||
    ['canceled', 'incomplete_expired', 'unpaid'].includes(subscription.status)
  );
}

/** The next renewal as the seller reads it: its date, "Ends …" when set to cancel, "Ended …". */
export function describeRenewal(
  subscription: Pick<
    Subscription,
    'status' | 'ended_at' | 'ends_at' | 'cancel_at_period_end' | 'current_period_end'
  >,
): string {
  if (hasEnded(subscription)) {
    return `Ended ${formatDate(subscription.ended_at ?? subscription.ends_at, '')}`.trim();
  }
  if (subscription.cancel_at_period_end) {
    return `Ends ${formatDate(subscription.ends_at ?? subscription.current_period_end)}`;
  }
  return subscription.current_period_end ? formatDate(subscription.current_period_end) : '—';
}

/** "5 seats", "1 seat". */
export const seatsWords = (seats: number) => `${seats} ${seats === 1 ? 'seat' : 'seats'}`;

/** The seats a plan may hold, from its price sold by the seat; null when it has none. */
export function seatRangeOf(prices: readonly ProductPrice[]): SeatRange | null {
  for (const price of prices) {
    const range = priceType(price.amount_type).checkout.seatRange(price);
    if (range) return range;
  }
  return null;
}
