import { z } from 'zod';
import { orderSubscriptionSchema } from '../subscriptions/schemas.js';
import { addressInputSchema, addressSchema } from '../addresses/schemas.js';
import { customerSchema } from '../customers/schemas.js';
import { customFieldDataSchema } from '../checkouts/schemas.js';
import { discountSchema } from '../discounts/schemas.js';
import { metadataQuerySchema, metadataSchema } from '../metadata/schemas.js';
import {
  nameSchema,
  oneOrManyUuids,
  pageQuerySchema,
  queryListSchema,
  sortingSchema,
} from '../platform/schemas.js';
import { productSchema } from '../products/schemas.js';

// Polar's Order as @polar-sh/sdk@0.33.2 reads it (spec §3 Order, §4 order status, billing reason).

const datetime = z.iso.datetime({ offset: true });

export const ORDER_STATUSES = ['pending', 'paid', 'refunded', 'partially_refunded'] as const;
export const orderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof orderStatusSchema>;
export const billingReasonSchema = z.enum([
  'purchase',
  'subscription_create',
  'subscription_cycle',
  'subscription_update',
]);

export const orderItemSchema = z.object({
  created_at: datetime,
  modified_at: datetime.nullable(),
  id: z.uuid(),
  label: z.string(),
  amount: z.number().int(),
  tax_amount: z.number().int(),
  proration: z.boolean(),
  product_price_id: z.uuid().nullable(),
});

export const orderProductSchema = productSchema.pick({
  metadata: true,
  created_at: true,
  modified_at: true,
  id: true,
  name: true,
  description: true,
  recurring_interval: true,
  is_recurring: true,
  is_archived: true,
  organization_id: true,
});

export const orderSchema = z.object({
  id: z.uuid(),
  created_at: datetime,
  modified_at: datetime.nullable(),
  status: orderStatusSchema,
  paid: z.boolean(),
  subtotal_amount: z.number().int(),
  discount_amount: z.number().int(),
  net_amount: z.number().int(),
  /** Polar's older name for `net_amount`. */
  amount: z.number().int(),
  tax_amount: z.number().int(),
  total_amount: z.number().int(),
  refunded_amount: z.number().int(),
  refunded_tax_amount: z.number().int(),
  currency: z.string(),
  billing_reason: billingReasonSchema,
  billing_name: z.string().nullable(),
  billing_address: addressSchema.nullable(),
  is_invoice_generated: z.boolean(),
  customer_id: z.uuid(),
  product_id: z.uuid(),
  discount_id: z.uuid().nullable(),
  subscription_id: z.uuid().nullable(),
  checkout_id: z.uuid().nullable(),
  metadata: metadataSchema,
  custom_field_data: customFieldDataSchema,
  customer: customerSchema,
  /** Polar's older name for `customer_id`. */
  user_id: z.uuid(),
  product: orderProductSchema,
  discount: discountSchema.omit({ products: true }).nullable(),
  subscription: orderSubscriptionSchema.nullable(),
  items: z.array(orderItemSchema),
});
export type Order = z.infer<typeof orderSchema>;

export const orderUpdateSchema = z.strictObject({
  billing_name: nameSchema(256).nullable(),
  billing_address: addressInputSchema.nullable(),
});
export type OrderUpdate = z.infer<typeof orderUpdateSchema>;

export const orderInvoiceSchema = z.object({ url: z.string() });

export const orderSortFields = [
  'created_at',
  '-created_at',
  'amount',
  '-amount',
  'net_amount',
  '-net_amount',
  'customer',
  '-customer',
  'product',
  '-product',
  'discount',
  '-discount',
  'subscription',
  '-subscription',
] as const;

export const orderListQuerySchema = pageQuerySchema.extend({
  organization_id: oneOrManyUuids.optional(),
  product_id: oneOrManyUuids.optional(),
  product_billing_type: queryListSchema(z.enum(['one_time', 'recurring'])).optional(),
  discount_id: oneOrManyUuids.optional(),
  customer_id: oneOrManyUuids.optional(),
  checkout_id: oneOrManyUuids.optional(),
  subscription_id: oneOrManyUuids.optional(),
  metadata: metadataQuerySchema.optional(),
  sorting: sortingSchema(orderSortFields),
});
export type OrderListQuery = z.infer<typeof orderListQuerySchema>;

export const orderIdParamsSchema = z.object({ id: z.uuid({ message: 'Input should be a valid UUID' }) });
