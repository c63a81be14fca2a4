import type { OrderStatus } from './schemas.js';

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
