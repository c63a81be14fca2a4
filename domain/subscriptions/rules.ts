// Billing arithmetic of a subscription: its periods, how long a discount lasts, and what a plan
// change in the middle of a period credits and charges. Pure: the subscription workflow and the API
// (for previews) ask these rules; neither does date or money arithmetic of its own.
import type { DiscountDuration } from '../discounts/schemas.js';
import {
  addMonthsUtc,
  cadenceOf,
  cadencePeriodAt,
  cadencePeriodStart,
  type CadenceInterval,
} from './cadence.js';
import { pauseStep, type PauseState, type PauseStep } from './pause.js';
import { meterCycleStep, type MeterCycleStep } from './meter-cycles.js';
import type { TrialReminderStep } from './trial-reminders.js';
// The workflow reads the trial reminder's rule through this file (workflows import rules.ts only).
export { TRIAL_REMINDER_DAYS, trialReminderStep, type TrialReminderStep } from './trial-reminders.js';

export type RecurringInterval = CadenceInterval;

/**
 * `months` calendar months after `from`, on the same day of the month or the month's last day when
 * it is shorter, at the same time of day (UTC).
 */
export function addCalendarMonths(from: Date, months: number): Date {
  return addMonthsUtc(from, months);
}

/**
 * Where billing period `index` starts (0 = the anchor itself), counted from the anchor and never
 * from the previous period's end: a plan bought on 31 January renews on 28 (or 29) February and
 * then on 31 March, not on the 28th for ever. `count` intervals make a period (cadence.ts).
 */
export function periodStart(anchor: Date, interval: RecurringInterval, index: number, count = 1): Date {
  return cadencePeriodStart(anchor, cadenceOf(interval, count), index);
}

export type BillingPeriod = { index: number; start: Date; end: Date };

/** The billing period that contains `at` (periods include their start and exclude their end). */
export function periodAt(anchor: Date, interval: RecurringInterval, at: Date, count = 1): BillingPeriod {
  return cadencePeriodAt(anchor, cadenceOf(interval, count), at);
}

export type DiscountTerm = { duration: DiscountDuration; durationInMonths: number | null };

/**
 * Whether a discount first applied to the period starting at `firstStart` still applies to the
 * period starting at `start`: `once` to that first period only, `forever` always, `repeating` to
 * every period that starts within `durationInMonths` calendar months of the first (a monthly plan
 * gets exactly n discounted periods, a yearly plan one).
 */
export function discountApplies(term: DiscountTerm, firstStart: Date, start: Date): boolean {
  if (start.getTime() < firstStart.getTime()) return false;
  switch (term.duration) {
    case 'once':
      return start.getTime() === firstStart.getTime();
    case 'forever':
      return true;
    case 'repeating':
      return start.getTime() < addCalendarMonths(firstStart, term.durationInMonths ?? 0).getTime();
  }
}

/** `amount × part ÷ whole`, rounded half up, exactly (the product can pass 2^53). */
export function shareOf(amount: number, part: number, whole: number): number {
  if (whole <= 0) throw new RangeError('The whole must be positive.');
  const product = BigInt(amount) * BigInt(part);
  const divisor = BigInt(whole);
  const quotient = product / divisor;
  const remainder = product % divisor;
  const roundUp = remainder * 2n >= divisor ? 1n : 0n;
  return Number(quotient + roundUp);
}

/**
 * What has been billed for the current period and what of it the customer has used: the state a
 * plan change needs so that its credit never exceeds what was paid for the time left.
 */
export type PeriodLedger = {
  /** Net amount billed for this period so far (fee after discount, plus debits, minus credits). */
  billed: number;
  /** Value of the time used up to `since`, at the rates then in effect. */
  used: number;
  since: Date;
};

/** The ledger of a period that starts with its fee billed. */
export function openLedger(period: BillingPeriod, fee: number): PeriodLedger {
  return { billed: fee, used: 0, since: period.start };
}

export type PlanChange = {
  credit: number;
  debit: number;
  ledger: PeriodLedger;
};

/**
 * A change from a plan worth `currentRate` per period to one worth `newRate` (both net of the
 * discount, in minor units) at `at`, within the same interval: the time left of the old plan is
 * credited and the time left of the new one charged. The credit is what was billed and not yet used,
 * so switching back and forth inside a period never turns into free time, and nothing billed but
 * unused is lost: a downgrade's credit is carried to the next order as a negative line.
 */
export function changePlan(
  period: BillingPeriod,
  ledger: PeriodLedger,
  rates: { current: number; next: number },
  at: Date,
): PlanChange {
  const start = period.start.getTime();
  const end = period.end.getTime();
  const now = Math.min(Math.max(at.getTime(), ledger.since.getTime()), end);
  const length = end - start;
  const unusedAtRate = shareOf(rates.current, end - now, length);
  // The time used is what was left at the last change minus what is left now, each rounded once,
  // so that used and unused always add up to what the plan's rest was worth.
  const used = ledger.used + shareOf(rates.current, end - ledger.since.getTime(), length) - unusedAtRate;
  const credit = Math.max(0, Math.min(unusedAtRate, ledger.billed - used));
  const debit = shareOf(rates.next, end - now, length);
  return {
    credit,
    debit,
    ledger: { billed: ledger.billed - credit + debit, used, since: new Date(now) },
  };
}

/**
 * A change of interval (monthly to yearly or back) restarts the period now: the old plan's unused
 * time is credited as in `changePlan`, and the new period's whole fee is charged at once.
 */
export function changeInterval(
  period: BillingPeriod,
  ledger: PeriodLedger,
  rates: { current: number; next: number },
  at: Date,
): PlanChange {
  const { credit } = changePlan(period, ledger, { current: rates.current, next: 0 }, at);
  return { credit, debit: rates.next, ledger: { billed: rates.next, used: 0, since: at } };
}

/**
 * The benefits a change from one plan to another gives and takes away: the new plan's that the
 * current one lacks, and the current plan's that the new one lacks, each in its plan's order.
 */
export function benefitChanges<T extends { id: string }>(
  current: readonly T[],
  next: readonly T[],
): { gained: T[]; lost: T[] } {
  const currentIds = new Set(current.map((benefit) => benefit.id));
  const nextIds = new Set(next.map((benefit) => benefit.id));
  return {
    gained: next.filter((benefit) => !currentIds.has(benefit.id)),
    lost: current.filter((benefit) => !nextIds.has(benefit.id)),
  };
}

// ── The subscription workflow ──────────────────────────────────────────────────────────────────

export const subscriptionWorkflowId = (subscriptionId: string) => `subscription:${subscriptionId}`;

export type SubscriptionWorkflowInput = {
  subscriptionId: string;
  /** Set when a run continues as new: the buyer was welcomed by the first one. */
  continued?: boolean;
  /**
   * The row as the step before continue-as-new left it (read after that step's commit): the new
   * run starts from it instead of reading again. Never set when a signal came in since.
   */
  state?: SubscriptionWorkflowState;
};

/**
 * `changed` wakes the workflow to re-read its row: a cancel, uncancel, revoke, new card or plan
 * change. `customerPayment` brings the outcome of a payment the customer made themselves for one
 * of its orders (the portal's confirm-payment), as the processor reported it.
 */
export const SUBSCRIPTION_SIGNALS = { changed: 'changed', customerPayment: 'customerPayment' } as const;

/** What the processor said of a payment the customer made for an order of the subscription. */
export type CustomerPaymentOutcome = {
  orderId: string;
  paymentId: string | null;
  status: 'succeeded' | 'failed';
  declineCode: string | null;
  message: string | null;
};

/** A payment the customer makes in the portal for an order, run by `customer-payment:<id>`. */
export type CustomerPaymentInput = {
  /** The `order_customer_payments` row; the processor's idempotency key derives from it. */
  customerPaymentId: string;
  orderId: string;
  subscriptionId: string;
  processorCustomerId: string;
  /** A saved card (the processor's payment method id) or a new card's confirmation token. */
  source: { paymentMethodId: string } | { confirmationTokenId: string };
};

/** The processor's first answer: `requires_action` hands the client secret to the bank's page. */
export type CustomerPaymentResult = {
  status: 'succeeded' | 'processing' | 'requires_action' | 'failed';
  clientSecret: string | null;
  error: string | null;
};

export const customerPaymentWorkflowId = (customerPaymentId: string) =>
  `customer-payment:${customerPaymentId}`;

/** Stripe's decline code for a charge made without the buyer that their bank wants them to confirm. */
export const AUTHENTICATION_REQUIRED = 'authentication_required';

/**
 * Whether an unpaid order waits for its customer: its last try was declined because the bank
 * asks the buyer to authenticate (3-D Secure), on the card the plan still renews on. Such a card
 * cannot pass without them, so the dunning schedule's later tries do not charge it again (they
 * remind the buyer, and the last one still ends the plan); a new card is charged as usual.
 */
export function awaitsCustomer(
  lastTry: { status: string; declineCode: string | null; paymentMethodId: string | null } | null,
  renewsOn: string | null,
): boolean {
  return (
    lastTry !== null &&
    lastTry.status === 'failed' &&
    lastTry.declineCode === AUTHENTICATION_REQUIRED &&
    lastTry.paymentMethodId !== null &&
    lastTry.paymentMethodId === renewsOn
  );
}

/** What a try that does not charge a card waiting for its customer records, in the seller's words. */
export const AWAITING_CUSTOMER_MESSAGE =
  'Not charged: the card needs the customer to confirm the payment with their bank (3-D Secure).';

/** Days after each failed renewal until the next try; after the last one fails the plan ends. */
export const DEFAULT_DUNNING_RETRY_DAYS: readonly number[] = [2, 5, 7, 7];

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * When the renewal's next try is due after `failedAttempts` failures at `at`, or null when those
 * were all the tries there are and the subscription ends unpaid.
 */
export function nextAttemptAfter(
  retryDays: readonly number[],
  failedAttempts: number,
  at: Date,
): Date | null {
  const days = retryDays[failedAttempts - 1];
  return days === undefined ? null : new Date(at.getTime() + days * DAY_MS);
}

/**
 * When the plan ends unpaid if none of the tries left pays it: the next try at `nextAttemptAt`,
 * then the ones after it on the schedule, the last of which ends it.
 */
export function lastTryAt(retryDays: readonly number[], failedAttempts: number, nextAttemptAt: Date): Date {
  const later = retryDays.slice(failedAttempts).reduce((sum, days) => sum + days, 0);
  return new Date(nextAttemptAt.getTime() + later * DAY_MS);
}

/** What the workflow reads on every wake. */
export type SubscriptionWorkflowState = {
  /** Ended (canceled at period end, revoked, unpaid): nothing more to do. */
  ended: boolean;
  currentPeriodIndex: number;
  currentPeriodEndMs: number;
  /** When it was set to cancel at the end of the period; null while it renews. */
  canceledAtMs: number | null;
  /**
   * An order of the subscription still to be paid (a renewal, a plan change billed now);
   * `awaitsCustomer` while its card needs the buyer to authenticate (absent in states recorded
   * before that existed).
   */
  unpaidOrder: { id: string; attempt: number; dueAtMs: number; awaitsCustomer?: boolean } | null;
  /**
   * Its customer's test clock (sandbox): the time the subscription lives in instead of the
   * wall clock; the workflow waits for the clock to be advanced rather than for a timer.
   */
  testClock: { frozenTimeMs: number; caughtUpToMs: number | null } | null;
  /** Set to pause, paused or just resumed (pause.ts); absent in states recorded before pausing. */
  pause?: PauseState;
  /** While it is trialing: when the trial ends and the first period is charged (trials.ts). */
  trialEndMs?: number | null;
  /** When its meter cycle of its own closes inside the period (meter-cycles.ts); absent: none. */
  meterCycleEndMs?: number | null;
  /** While it is trialing: when the trial started (trial-reminders.ts skips short trials). */
  trialStartMs?: number | null;
};

export type SubscriptionStep =
  | { kind: 'charge'; orderId: string; attempt: number; atMs: number }
  | { kind: 'cycle'; index: number; atMs: number }
  | PauseStep
  /** The trial ends: period `index` (the first one charged) opens and is charged. */
  | { kind: 'convert'; index: number; atMs: number }
  | MeterCycleStep
  /** Days before the trial ends, the buyer is reminded (trial-reminders.ts; not from nextSubscriptionStep). */
  | TrialReminderStep;

/**
 * The next thing a live subscription's workflow does and when: charge an unpaid order first (its
 * next try), otherwise renew (or end) at the end of the current period.
 */
export function nextSubscriptionStep(state: SubscriptionWorkflowState): SubscriptionStep {
  if (state.unpaidOrder) {
    return {
      kind: 'charge',
      orderId: state.unpaidOrder.id,
      attempt: state.unpaidOrder.attempt,
      atMs: state.unpaidOrder.dueAtMs,
    };
  }
  const paused = pauseStep(state.pause, {
    index: state.currentPeriodIndex,
    endMs: state.currentPeriodEndMs,
    canceling: state.canceledAtMs !== null,
  });
  // A meter cycle closing before the period ends comes first, also on a plan set to pause then.
  const meterCycle = state.trialEndMs == null ? meterCycleStep(state) : null;
  if (meterCycle && (!paused || paused.kind === 'pause')) return meterCycle;
  if (paused) return paused;
  if (state.trialEndMs != null) {
    return { kind: 'convert', index: state.currentPeriodIndex + 1, atMs: state.trialEndMs };
  }
  return { kind: 'cycle', index: state.currentPeriodIndex + 1, atMs: state.currentPeriodEndMs };
}

export type BillingLine = {
  label: string;
  amount: number;
  proration: boolean;
  productPriceId: string | null;
};

export type CycleBill = {
  /** The order's items: the period's fees, then the proration lines it bills. */
  items: BillingLine[];
  subtotal: number;
  /** The discount on the fees (never on prorations, as Polar). */
  discount: number;
  net: number;
  /** Credit left after this order is brought to zero: carried to the next order as a new line. */
  carriedCredit: number;
};

/** The line that brings an order whose credits outweigh it back to zero, by what becomes of the rest. */
const LEFTOVER_CREDIT_LABEL = {
  carried: 'Credit carried to the next invoice',
  owed: 'Unused credit owed to the customer (the plan ended)',
} as const;

/**
 * The order of a renewal: the fees of the new period less their discount, plus pending debits,
 * minus pending credits. Credits never make a charge negative: what they cannot absorb now is
 * carried to the next order. A plan that ends (`ending`) has no next order: the rest is recorded
 * on its final order as credit owed to the customer, for the seller to refund, and carried nowhere.
 */
export function cycleBill(input: {
  fees: BillingLine[];
  feeDiscount: number;
  pending: BillingLine[];
  ending?: boolean;
}): CycleBill {
  const feeTotal = input.fees.reduce((sum, line) => sum + line.amount, 0);
  const discount = Math.min(input.feeDiscount, feeTotal);
  const debits = input.pending.filter((line) => line.amount > 0);
  const credits = input.pending.filter((line) => line.amount < 0);
  const chargeable = feeTotal - discount + debits.reduce((sum, line) => sum + line.amount, 0);
  const creditTotal = -credits.reduce((sum, line) => sum + line.amount, 0);
  const applied = Math.min(creditTotal, chargeable);
  const leftover = creditTotal - applied;
  const items = [...input.fees.filter((line) => line.amount !== 0), ...debits, ...credits];
  const subtotal = items.reduce((sum, line) => sum + line.amount, 0) + leftover;
  return {
    items:
      leftover === 0
        ? items
        : [
            ...items,
            {
              label: LEFTOVER_CREDIT_LABEL[input.ending ? 'owed' : 'carried'],
              amount: leftover,
              proration: true,
              productPriceId: null,
            },
          ],
    subtotal,
    discount,
    net: chargeable - applied,
    carriedCredit: input.ending ? 0 : leftover,
  };
}

/**
 * Whether a renewal makes an order: whenever it has lines. A plan that ends makes its final order
 * for what is left to charge, and also when only credit is left: the order bills the pending
 * credit lines and records what of them the customer is owed, instead of leaving them waiting for
 * an order that will never come.
 */
export const renewalMakesOrder = (bill: CycleBill) => bill.items.length > 0;
