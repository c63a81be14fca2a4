import type { OrderStatus } from './schemas.js';

/** An order's status once `refundedAmount` of its net amount has been given back. */
export function statusAfterRefund(netAmount: number, refundedAmount: number): OrderStatus {
  if (refundedAmount <= 0) return 'paid';
  return refundedAmount >= netAmount ? 'refunded' : 'partially_refunded';
}
