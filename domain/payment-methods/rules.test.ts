import { describe, expect, it } from '@jest/globals';
import { planDeletion, type SavedCard } from './rules.js';

const card = (id: string, isDefault: boolean, day: number): SavedCard => ({
  id,
  isDefault,
  createdAt: new Date(Date.UTC(2026, 0, day)),
});

describe('planDeletion', () => {
  const visa = card('visa', true, 1);
  const amex = card('amex', false, 2);
  const jcb = card('jcb', false, 3);

  it('refuses the only card of a plan that renews', () => {
    expect(planDeletion({ target: visa, liveCards: [visa], subscriptionsOnTarget: 1 })).toEqual({
      kind: 'refuse',
    });
  });

  it('deletes the only card when no plan renews on it', () => {
    expect(planDeletion({ target: visa, liveCards: [visa], subscriptionsOnTarget: 0 })).toEqual({
      kind: 'delete',
      newDefaultId: null,
      moveSubscriptionsTo: null,
    });
  });

  it('gives the default to the newest other card when the default goes, and moves its plans there', () => {
    expect(planDeletion({ target: visa, liveCards: [visa, amex, jcb], subscriptionsOnTarget: 2 })).toEqual({
      kind: 'delete',
      newDefaultId: 'jcb',
      moveSubscriptionsTo: 'jcb',
    });
  });

  it('keeps the default when another card goes, and moves that card’s plans to the default', () => {
    expect(planDeletion({ target: amex, liveCards: [visa, amex, jcb], subscriptionsOnTarget: 1 })).toEqual({
      kind: 'delete',
      newDefaultId: null,
      moveSubscriptionsTo: 'visa',
    });
    expect(planDeletion({ target: amex, liveCards: [visa, amex], subscriptionsOnTarget: 0 })).toEqual({
      kind: 'delete',
      newDefaultId: null,
      moveSubscriptionsTo: null,
    });
  });
});
