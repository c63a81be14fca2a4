// A dispute's states and what they mean for its order. Pure: the dispute's workflow imports it.
import type { DisputeStatus, ProcessorEvent } from '../payments/processor.js';

/** The processor's word on a dispute, as its workflow receives it. */
export type DisputeEvent = Extract<ProcessorEvent, { type: 'dispute.updated' }>;

export const DISPUTE_SIGNALS = { event: 'event', close: 'close' } as const;

/** One workflow per processor dispute: events arrive before we have a row of our own. */
export const disputeWorkflowId = (processorDisputeId: string) => `dispute:${processorDisputeId}`;

export type DisputeWorkflowInput = { processorDisputeId: string };

/** Won or lost (Polar's `resolved`). */
export const isDisputeResolved = (status: DisputeStatus) => status === 'won' || status === 'lost';

/** Prevented, won or lost (Polar's `closed`): no later event moves it. */
export const isDisputeClosed = (status: DisputeStatus) => status === 'prevented' || isDisputeResolved(status);

/**
 * Whether the order's benefits stay revoked by this dispute: while it is open and once lost; a
 * dispute won, or prevented before it became one, gives them back.
 */
export const disputeHoldsBenefits = (status: DisputeStatus) => status !== 'won' && status !== 'prevented';

/**
 * The status a dispute takes from the processor's word: a closed dispute stays as it closed (a late
 * or repeated event of an earlier stage changes nothing), and one the seller accepted stays lost
 * until the processor says how it ended.
 */
export function nextDisputeStatus(
  current: { status: DisputeStatus; accepted: boolean } | null,
  reported: DisputeStatus,
): DisputeStatus {
  if (!current) return reported;
  if (isDisputeClosed(current.status) && !current.accepted) return current.status;
  if (current.accepted) return isDisputeResolved(reported) ? reported : current.status;
  return reported;
}

/**
 * The order's share of a disputed charge: the processor disputes the amount paid, tax included;
 * Polar's dispute shows it as `amount` (excluding tax) and `tax_amount`, split as the order was.
 * Half up, in integer arithmetic.
 */
export function splitDisputedAmount(
  order: { totalAmount: number; taxAmount: number },
  disputed: number,
): { amount: number; taxAmount: number } {
  if (order.totalAmount <= 0 || order.taxAmount <= 0) return { amount: disputed, taxAmount: 0 };
  const scaled =
    (BigInt(order.taxAmount) * BigInt(disputed) * 2n + BigInt(order.totalAmount)) /
    (2n * BigInt(order.totalAmount));
  const taxAmount = Math.min(Number(scaled), order.taxAmount, disputed);
  return { amount: disputed - taxAmount, taxAmount };
}

/**
 * `dispute_settings.auto_accept_below_amount`: an open dispute of less than the setting (Polar's
 * `amount`, in the dispute's currency) is conceded at once; null concedes none.
 */
export function shouldAutoAccept(amount: number, status: DisputeStatus, belowAmount: number | null): boolean {
  return belowAmount !== null && amount < belowAmount && !isDisputeClosed(status);
}
