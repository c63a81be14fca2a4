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
