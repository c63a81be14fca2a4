import { readMetadata } from '../metadata/rules.js';
import type { RefundRow } from './repository.js';
import type { Refund } from './schemas.js';

export function refundView(row: RefundRow): Refund {
  return {
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    id: row.id,
    metadata: readMetadata(row.metadata),
    status: row.status as Refund['status'],
    reason: row.reason as Refund['reason'],
    amount: row.amount,
    tax_amount: row.taxAmount,
    currency: row.currency,
    organization_id: row.organizationId,
    order_id: row.orderId,
    subscription_id: null,
    customer_id: row.customerId,
    revoke_benefits: row.revokeBenefits,
    dispute: null,
  };
}
