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
