// A refund's pure rules: the tax it gives back, and what its `refund:<id>` workflow hears.

/**
 * The tax refunded with `amount`: the order's tax in the same proportion (rounded half up), and
 * exactly the tax left when the last of the net amount is refunded, so totals always reconcile.
 */
export function refundTaxFor(
  order: { netAmount: number; taxAmount: number },
  amount: number,
  left: { net: number; tax: number },
): number {
  if (amount >= left.net) return left.tax;
  if (order.netAmount === 0) return 0;
  const scaled =
    (BigInt(order.taxAmount) * BigInt(amount) * 2n + BigInt(order.netAmount)) /
    (2n * BigInt(order.netAmount));
  return Math.min(Number(scaled), left.tax);
}

export const REFUND_SIGNALS = { outcome: 'outcome' } as const;

export const refundWorkflowId = (refundId: string) => `refund:${refundId}`;

export type RefundWorkflowInput = { refundId: string };

/** The processor's later word on a refund it answered `pending` (see domain/payments/). */
export type RefundOutcomeSignal =
  | { type: 'refund.succeeded'; processorRefundId: string }
  | { type: 'refund.failed'; processorRefundId: string | null; reason: string };

/** What asking the processor gave: an answer, a refund still pending there, or nothing left to do. */
export type RefundExecution =
  | { outcome: 'settled'; status: string }
  | { outcome: 'succeeded'; processorRefundId: string }
  | { outcome: 'pending'; processorRefundId: string }
  | { outcome: 'failed'; processorRefundId: string | null; reason: string };

export type RefundSettlement =
  | { status: 'succeeded'; processorRefundId: string }
  | { status: 'failed'; processorRefundId: string | null; reason: string };
