import { DEFAULT_CURRENCY } from '../prices/limits.js';
import type { DiscountDuration, DiscountType } from './schemas.js';

/** The value of a discount: what it takes off and for how long. */
export type DiscountTerms = {
  type: DiscountType;
  amount: number | null;
  currency: string | null;
  basisPoints: number | null;
  duration: DiscountDuration;
  durationInMonths: number | null;
};

/** The terms after an update: fields not given keep their value; a type change drops the other type's. */
export function mergeTerms(current: DiscountTerms, change: Partial<DiscountTerms>): DiscountTerms {
  const type = change.type ?? current.type;
  const duration = change.duration ?? current.duration;
  return {
    type,
    amount: type === 'fixed' ? (change.amount ?? current.amount) : null,
    currency: type === 'fixed' ? (change.currency ?? current.currency ?? 'usd') : null,
    basisPoints: type === 'percentage' ? (change.basisPoints ?? current.basisPoints) : null,
    duration,
    durationInMonths: duration === 'repeating' ? (change.durationInMonths ?? current.durationInMonths) : null,
  };
}

/** What is wrong with a set of terms, as `[field, message]`, or null when they hold together. */
export function termsIssue(terms: DiscountTerms): [string, string] | null {
  if (terms.type === 'fixed' && terms.amount === null) return ['amount', 'A fixed discount needs an amount.'];
  if (terms.type === 'percentage' && terms.basisPoints === null) {
    return ['basis_points', 'A percentage discount needs basis_points.'];
  }
  if (terms.duration === 'repeating' && terms.durationInMonths === null) {
    return ['duration_in_months', 'A repeating discount needs duration_in_months.'];
  }
  return null;
}

export function sameTerms(a: DiscountTerms, b: DiscountTerms): boolean {
  return (
    a.type === b.type &&
    a.amount === b.amount &&
    a.currency === b.currency &&
    a.basisPoints === b.basisPoints &&
    a.duration === b.duration &&
    a.durationInMonths === b.durationInMonths
  );
}

// ── Redemption ──────────────────────────────────────────────────────────────────────────────────

/** What decides whether a discount may be redeemed on a checkout now. */
export type DiscountRedemptionTerms = {
  type: DiscountTerms['type'];
  /** Fixed discounts only: the currency of their amount. */
  currency: string | null;
  duration: DiscountTerms['duration'];
  startsAt: Date | null;
  endsAt: Date | null;
  maxRedemptions: number | null;
  /** The products it is restricted to; empty: every product of the organization. */
  productIds: readonly string[];
};

export type DiscountContext = {
  productId: string;
  currency: string;
  now: Date;
  /** Redemptions so far; the redemption itself must still be a conditional update (DESIGN.md). */
  redemptionsCount: number;
  isRecurring?: boolean;
};

export type DiscountInapplicableReason =
  'not_started' | 'ended' | 'exhausted' | 'other_product' | 'other_currency' | 'repeating_on_one_time';

export type DiscountApplicability =
  { isApplicable: true } | { isApplicable: false; reason: DiscountInapplicableReason; message: string };

const INAPPLICABLE_MESSAGES: Record<DiscountInapplicableReason, string> = {
  not_started: 'This discount is not valid yet.',
  ended: 'This discount has expired.',
  exhausted: 'This discount has been fully redeemed.',
  other_product: 'This discount does not apply to this product.',
  other_currency: 'This discount does not apply to this currency.',
  repeating_on_one_time: 'A repeating discount applies only to subscriptions.',
};

/**
 * Whether the discount may be applied, with Polar's boundaries: valid from `starts_at` inclusive
 * until `ends_at` inclusive, redeemable while fewer than `max_redemptions` were made. Repeating
 * discounts count months of a subscription, so one-time products refuse them (Polar).
 */
export function discountApplicability(
  discount: DiscountRedemptionTerms,
  context: DiscountContext,
): DiscountApplicability {
  const refuse = (reason: DiscountInapplicableReason): DiscountApplicability => ({
    isApplicable: false,
    reason,
    message: INAPPLICABLE_MESSAGES[reason],
  });
  const now = context.now.getTime();
  if (discount.startsAt && discount.startsAt.getTime() > now) return refuse('not_started');
  if (discount.endsAt && discount.endsAt.getTime() < now) return refuse('ended');
  if (discount.maxRedemptions !== null && context.redemptionsCount >= discount.maxRedemptions) {
    return refuse('exhausted');
  }
  if (discount.productIds.length > 0 && !discount.productIds.includes(context.productId)) {
    return refuse('other_product');
  }
  if (
    discount.type === 'fixed' &&
    (discount.currency ?? DEFAULT_CURRENCY).toLowerCase() !== context.currency.toLowerCase()
  ) {
    return refuse('other_currency');
  }
  if (discount.duration === 'repeating' && !(context.isRecurring ?? false)) {
    return refuse('repeating_on_one_time');
  }
  return { isApplicable: true };
}
