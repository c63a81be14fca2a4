import type { OrderStatus } from './schemas.js';

/** Statuses of an order nobody has paid: a seller's draft, or one waiting for its charge. */
export const UNPAID_ORDER_STATUSES: readonly OrderStatus[] = ['draft', 'pending'];

export const isUnpaidStatus = (status: string) =>
  (UNPAID_ORDER_STATUSES as readonly string[]).includes(status);

/**
 * The key of a draft order's finalize try `n`: the charge's idempotency key, the try's payment
 * row, and the order's claim while the try runs, so a retried step resumes its own try.
 */
export const draftChargeKey = (orderId: string, attempt: number) => `order:${orderId}:finalize:${attempt}`;

/** The try number of a draft charge key, or null for any other key. */
export function draftChargeAttemptOf(orderId: string, key: string | null): number | null {
  const match = key ? /^order:([^:]+):finalize:(\d+)$/.exec(key) : null;
  return match && match[1] === orderId ? Number(match[2]) : null;
}

/** `draft-order-charge:<order>:<n>`: the worker's charge of finalize try `n` (the API waits for it). */
export const draftOrderChargeWorkflowId = (orderId: string, attempt: number) =>
  `draft-order-charge:${orderId}:${attempt}`;

/** An order's status once `refundedAmount` of its net amount has been given back. */
export function statusAfterRefund(netAmount: number, refundedAmount: number): OrderStatus {
  if (refundedAmount <= 0) return 'paid';
  return refundedAmount >= netAmount ? 'refunded' : 'partially_refunded';
}

/**
 * The reference a buyer and a seller quote to each other: the first eight hex digits of the
 * order's id, upper-cased (`3F2A91C0`). Polar has no order number, and an invoice number exists
 * only once an invoice is asked for; the id's head is unique enough to find the order by eye.
 */
export function orderNumber(orderId: string): string {
  return orderId.slice(0, 8).toUpperCase();
}

/**
 * An order's tax shared over its positive items in proportion, each share rounded down and the
 * rest left on the last positive item, so the shares add up to the tax exactly. Credits (negative
 * items) carry none.
 */
export function taxOfItems(amounts: readonly number[], taxAmount: number): number[] {
  const positive = amounts.map((amount) => Math.max(amount, 0));
  const base = positive.reduce((sum, amount) => sum + amount, 0);
  if (base === 0 || taxAmount === 0) return amounts.map(() => 0);
  // Exact integer shares: tax × amount can pass 2^53.
  const shares = positive.map((amount) => Number((BigInt(taxAmount) * BigInt(amount)) / BigInt(base)));
  const last = positive.findLastIndex((amount) => amount > 0);
  shares[last] = taxAmount - shares.reduce((sum, share, index) => (index === last ? sum : sum + share), 0);
  return shares;
}

/** What the worker's charge of one finalize try answers. */
export type DraftChargeInput = { orderId: string; attempt: number; paymentMethodId: string };
export type DraftChargeResult =
  | { outcome: 'paid' }
  /** The card was not charged (declined, refused, or not the customer's): the order is a draft again. */
  | { outcome: 'declined'; declineCode: string; message: string }
  /** The processor is still working on it: the order waits, `pending`. */
  | { outcome: 'processing' }
  /** Another try holds or paid the order. */
  | { outcome: 'not_draft'; status: string };
