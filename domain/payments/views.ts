import type { PaymentRow } from './repository.js';
import { paymentTriggerOf } from './rules.js';
import type { Payment } from './schemas.js';

export function paymentView(row: PaymentRow): Payment {
  const common = {
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    id: row.id,
    processor: 'stripe' as const,
    status: row.status as Payment['status'],
    amount: row.amount,
    currency: row.currency,
    trigger: paymentTriggerOf(row.requestKey),
    decline_reason: row.declineReason,
    decline_message: row.declineMessage,
    organization_id: row.organizationId,
    checkout_id: row.checkoutId,
    order_id: row.orderId,
    processor_metadata: { processor: row.processor, payment_id: row.processorPaymentId },
  };
  // Polar's CardPayment needs the card; a try whose card nobody described is a GenericPayment.
  if (row.method === 'card' && row.cardBrand && row.cardLast4) {
    return { ...common, method: 'card', method_metadata: { brand: row.cardBrand, last4: row.cardLast4 } };
  }
  return { ...common, method: row.method };
}
