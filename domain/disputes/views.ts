import type { DisputeStatus } from '../payments/processor.js';
import type { DisputeRow } from './repository.js';
import { isDisputeClosed, isDisputeResolved } from './rules.js';
import type { Dispute } from './schemas.js';

export function disputeView(row: DisputeRow): Dispute {
  const status = row.status as DisputeStatus;
  return {
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    id: row.id,
    status,
    resolved: isDisputeResolved(status),
    closed: isDisputeClosed(status),
    amount: row.amount,
    tax_amount: row.taxAmount,
    currency: row.currency,
    order_id: row.orderId,
    payment_id: row.paymentId,
  };
}
