import { z } from 'zod';
import { addressSchema } from '../../domain/customers/schemas';

// What the dashboard reads of orders and refunds: the fields of @polar-sh/sdk@0.33.2's Order,
// OrderInvoice and Refund that its pages show (unknown keys are dropped).

const datetime = z.iso.datetime({ offset: true });

export const orderStatusSchema = z.enum(['pending', 'paid', 'refunded', 'partially_refunded']);
export type OrderStatus = z.infer<typeof orderStatusSchema>;

export const orderSchema = z.object({
  id: z.uuid(),
  created_at: datetime,
  status: orderStatusSchema,
  paid: z.boolean(),
  subtotal_amount: z.number().int(),
  discount_amount: z.number().int(),
  net_amount: z.number().int(),
  tax_amount: z.number().int(),
  total_amount: z.number().int(),
  refunded_amount: z.number().int(),
  refunded_tax_amount: z.number().int(),
  currency: z.string(),
  billing_reason: z.enum(['purchase', 'subscription_create', 'subscription_cycle', 'subscription_update']),
  billing_name: z.string().nullable(),
  billing_address: addressSchema.nullable(),
  is_invoice_generated: z.boolean(),
  checkout_id: z.uuid().nullable(),
  customer: z.object({ id: z.uuid(), email: z.string(), name: z.string().nullable() }),
  product: z.object({ id: z.uuid(), name: z.string() }),
  discount: z.object({ id: z.uuid(), name: z.string(), code: z.string().nullable() }).nullable(),
  items: z.array(
    z.object({
      id: z.uuid(),
      label: z.string(),
      amount: z.number().int(),
      tax_amount: z.number().int(),
      proration: z.boolean(),
    }),
  ),
});
export type Order = z.infer<typeof orderSchema>;

export const orderInvoiceSchema = z.object({ url: z.string() });

export const REFUND_REASONS = [
  'duplicate',
  'fraudulent',
  'customer_request',
  'service_disruption',
  'satisfaction_guarantee',
  'other',
] as const;
export const refundReasonSchema = z.enum(REFUND_REASONS);
export type RefundReason = z.infer<typeof refundReasonSchema>;

export const refundStatusSchema = z.enum(['pending', 'succeeded', 'failed', 'canceled']);

export const refundSchema = z.object({
  id: z.uuid(),
  created_at: datetime,
  status: refundStatusSchema,
  reason: refundReasonSchema,
  amount: z.number().int(),
  tax_amount: z.number().int(),
  currency: z.string(),
  order_id: z.uuid(),
  customer_id: z.uuid(),
  revoke_benefits: z.boolean(),
});
export type Refund = z.infer<typeof refundSchema>;
