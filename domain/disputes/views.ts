import { customerView } from '../customers/views.js';
import type { DisputeStatus } from '../payments/processor.js';
import type { DisputeRow } from './repository.js';
import { isDisputeClosed, isDisputeResolved } from './rules.js';
import type { Dispute } from './schemas.js';

export function disputeView(row: DisputeRow, now = new Date()): Dispute {
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
    reason: row.reason,
    evidence_due_by: row.evidenceDueBy?.toISOString() ?? null,
    past_due: status === 'needs_response' && row.evidenceDueBy !== null && row.evidenceDueBy < now,
    order_id: row.orderId,
    payment_id: row.paymentId,
    customer: customerView(row.order.customer),
    case_id: null,
  };
}
