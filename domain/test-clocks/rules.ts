// The rules of test clocks, pure: how far one may be advanced, and when it is ready.

/** Stripe's limit too: a clock only moves forward, at most two years at a time. */
export const MAX_ADVANCE_MONTHS = 24;

/** A clock is for trying a few plans, not for a customer base. */
export const MAX_CUSTOMERS_PER_TEST_CLOCK = 10;

/** Why a clock cannot be advanced to `to`, in the seller's words; null when it can. */
export function advanceRefusal(from: Date, to: Date): string | null {
  if (to.getTime() <= from.getTime()) {
    return `Advance the clock to a time after its current time, ${from.toISOString()}.`;
  }
  const limit = new Date(from);
  limit.setUTCMonth(limit.getUTCMonth() + MAX_ADVANCE_MONTHS);
  if (to.getTime() > limit.getTime()) {
    return `A clock advances at most two years at a time: choose a time up to ${limit.toISOString()}.`;
  }
  return null;
}

export type ClockedSubscription = {
  clockCaughtUpTo: Date | null;
  endedAt: Date | null;
  /** It still has an order to collect (an ended plan's final order). */
  hasPendingOrder: boolean;
};

/** Whether its workflow has anything left to do once it caught up: an ended plan with nothing to collect has not. */
export const isSettledForGood = (subscription: ClockedSubscription) =>
  subscription.endedAt !== null && !subscription.hasPendingOrder;

export const isBehind = (subscription: ClockedSubscription, frozenTime: Date) =>
  subscription.clockCaughtUpTo === null || subscription.clockCaughtUpTo.getTime() < frozenTime.getTime();

/** `advancing` while a subscription of the clock's customers has not lived up to its time. */
export function testClockStatus(
  frozenTime: Date,
  subscriptions: readonly ClockedSubscription[],
): 'ready' | 'advancing' {
  return subscriptions.some((subscription) => isBehind(subscription, frozenTime)) ? 'advancing' : 'ready';
}
