import { describe, expect, it } from '@jest/globals';
import { mergeTerms, sameTerms, termsIssue, type DiscountTerms } from './rules.js';

const fixedOnce: DiscountTerms = {
  type: 'fixed',
  amount: 500,
  currency: 'usd',
  basisPoints: null,
  duration: 'once',
  durationInMonths: null,
};

describe('discount terms', () => {
  it('keeps what an update does not name, and drops the other type’s value on a type change', () => {
    expect(mergeTerms(fixedOnce, { amount: 700 })).toEqual({ ...fixedOnce, amount: 700 });
    expect(mergeTerms(fixedOnce, { type: 'percentage', basisPoints: 1500 })).toEqual({
      ...fixedOnce,
      type: 'percentage',
      amount: null,
      currency: null,
      basisPoints: 1500,
    });
    expect(mergeTerms(fixedOnce, { duration: 'repeating', durationInMonths: 6 }).durationInMonths).toBe(6);
    expect(
      mergeTerms({ ...fixedOnce, duration: 'repeating', durationInMonths: 6 }, { duration: 'forever' })
        .durationInMonths,
    ).toBeNull();
  });

  it('finds terms that do not hold together', () => {
    expect(termsIssue(fixedOnce)).toBeNull();
    expect(termsIssue(mergeTerms(fixedOnce, { type: 'percentage' }))?.[0]).toBe('basis_points');
    expect(termsIssue(mergeTerms(fixedOnce, { duration: 'repeating' }))?.[0]).toBe('duration_in_months');
  });

  it('compares terms', () => {
    expect(sameTerms(fixedOnce, { ...fixedOnce })).toBe(true);
    expect(sameTerms(fixedOnce, { ...fixedOnce, amount: 501 })).toBe(false);
  });
});
