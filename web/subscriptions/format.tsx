import type { RecurringInterval } from '../../domain/products/schemas';
import type {
  CANCELLATION_REASONS,
  Subscription,
  SubscriptionStatus,
} from '../../domain/subscriptions/schemas';
import { formatMoney } from '../checkouts/money';
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
};

export const SUBSCRIPTION_STATUS_LABELS = Object.fromEntries(
  Object.entries(STATUS).map(([status, [label]]) => [status, label]),
) as Record<SubscriptionStatus, string>;

type BadgeFields = Pick<
  Subscription,
  'status' | 'ended_at' | 'ends_at' | 'cancel_at_period_end' | 'current_period_end'
>;

/**
 * The badge's words and tone: a plan set to cancel at its period's end still runs until then, so
 * it reads "Ends on <date>" (amber) rather than a status that would call it canceled or active.
 */
export function describeSubscriptionStatus(subscription: BadgeFields): [string, Tone] {
  if (subscription.cancel_at_period_end && !hasEnded(subscription)) {
    return [`Ends on ${formatDate(subscription.ends_at ?? subscription.current_period_end)}`, 'warn'];
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

const PER_INTERVAL: Record<RecurringInterval, string> = { month: 'month', year: 'year' };
export const BILLED_EVERY: Record<RecurringInterval, string> = { month: 'Monthly', year: 'Yearly' };

/** "$10.00 / month". */
export function formatPlanAmount(amount: number, currency: string, interval: RecurringInterval): string {
  return `${formatMoney(amount, currency)} / ${PER_INTERVAL[interval]}`;
}

/**
 * Monthly recurring revenue of one plan: a yearly amount counts as a twelfth, rounded to the minor
 * unit (the sum over many plans may then be off by a cent or so, as in any MRR report). A plan
 * that has ended brings in nothing more; one set to cancel still does until its period ends.
 */
export function monthlyAmount(
  subscription: Pick<Subscription, 'amount' | 'recurring_interval' | 'status' | 'ended_at'>,
): number {
  if (hasEnded(subscription)) return 0;
  return subscription.recurring_interval === 'year'
    ? Math.round(subscription.amount / 12)
    : subscription.amount;
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
