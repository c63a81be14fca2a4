import { z } from 'zod';
import { addressInputSchema, addressSchema } from '../addresses/schemas.js';
import { customerSchema } from '../customers/schemas.js';
import { customFieldDataSchema } from '../custom-fields/schemas.js';
import { discountSchema } from '../discounts/schemas.js';
import { metadataInputSchema, metadataQuerySchema, metadataSchema } from '../metadata/schemas.js';
import {
  minorUnitsSchema,
  nameSchema,
  oneOrManyUuids,
  pageQuerySchema,
  queryListSchema,
  sortingSchema,
  TEXT_MAX_LENGTH,
  textSchema,
} from '../platform/schemas.js';
import { MAX_PRICE_AMOUNT } from '../prices/limits.js';
import { orderSubscriptionSchema, productSchema } from '../products/schemas.js';

// Polar's Order as @polar-sh/sdk@0.33.2 reads it (spec §3 Order, §4 order status, billing reason).

const datetime = z.iso.datetime({ offset: true });

/** `draft`: an off-session charge the seller made and has not finalized (`orders.create`, 0.48.1). */
export const ORDER_STATUSES = ['draft', 'pending', 'paid', 'refunded', 'partially_refunded'] as const;
export const orderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof orderStatusSchema>;
export const billingReasonSchema = z.enum([
  'purchase',
  'subscription_create',
  'subscription_cycle',
  'subscription_update',
  // A meter cycle of the product's own closed inside the billing period: its usage, billed alone.
  'subscription_meter_cycle',
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
  /** The period an item bills for is not recorded per item. */
  start_timestamp: datetime.nullable(),
  end_timestamp: datetime.nullable(),
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
  recurring_interval_count: true,
  meter_interval: true,
  meter_interval_count: true,
  trial_interval: true,
  trial_interval_count: true,
  visibility: true,
  organization_id: true,
});

// The subscription as an order shows it lives with the subscription statuses, so that customer
// state, below this domain, shows the same fields.
export { orderSubscriptionSchema, type OrderSubscription } from '../products/schemas.js';

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
  /** Unit-based prices are not built: no order sells a number of units. */
  units: z.number().int().nullable(),
  /** What can still be refunded, net and tax: 0 until the order is paid. */
  refundable_amount: z.number().int(),
  refundable_tax_amount: z.number().int(),
  /** What the customer still owes: the total while the order waits for its payment. */
  due_amount: z.number().int(),
  /** Tollgate keeps no customer balance. */
  applied_balance_amount: z.number().int(),
  /** Payments go to the seller's own processor account: no platform fee. */
  platform_fee_amount: z.number().int(),
  platform_fee_currency: z.string().nullable(),
  /** Assigned when the invoice is generated (`POST /v1/orders/{id}/invoice`). */
  invoice_number: z.string().nullable(),
  /** No separate receipt documents: the receipt is the email. */
  receipt_number: z.string().nullable(),
  currency: z.string(),
  /** The seats bought at a seat-based price; null for other prices. */
  seats: z.int().nullable().optional(),
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
  description: z.string().meta({
    description:
      "Tollgate extension (newer Polar APIs have the field): what was bought, by the product's name when the order was made; `product` is the product as it is now.",
    'x-tollgate': true,
  }),
});
export type Order = z.infer<typeof orderSchema>;

export const orderUpdateSchema = z.strictObject({
  billing_name: nameSchema(256).nullable().optional(),
  billing_address: addressInputSchema.nullable().optional(),
});
export type OrderUpdate = z.infer<typeof orderUpdateSchema>;

/**
 * `orders.create` (@polar-sh/sdk@0.48.1 OrderCreate): a draft order for an off-session charge of
 * a one-time product to an existing customer.
 */
export const orderCreateSchema = z.strictObject({
  custom_field_data: z.record(textSchema({ max: 100 }), z.unknown()).optional(),
  metadata: metadataInputSchema.optional(),
  organization_id: z.uuid().nullable().optional(),
  customer_id: z.uuid(),
  product_id: z.uuid(),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, { error: 'Expected an ISO 4217 currency code, such as usd.' })
    .nullable()
    .optional(),
  /** Minor units of the currency; overrides the product's price. */
  amount: minorUnitsSchema().min(0).max(MAX_PRICE_AMOUNT).nullable().optional(),
  description: textSchema({ max: TEXT_MAX_LENGTH.name, min: 1 }).nullable().optional(),
});
export type OrderCreate = z.infer<typeof orderCreateSchema>;

/** `orders.finalize` (OrderFinalize): the card to charge, else the customer's default. */
export const orderFinalizeSchema = z.strictObject({
  payment_method_id: z.uuid().nullable().optional(),
});
export type OrderFinalize = z.infer<typeof orderFinalizeSchema>;

export const orderInvoiceSchema = z.object({ url: z.string() });
/** Polar's OrderReceipt (and the portal's CustomerOrderReceipt): a short-lived URL of the PDF. */
export const orderReceiptSchema = z.object({ url: z.string() });

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
  // Our extensions, not in Polar's list: what a seller narrows a sales list by.
  status: queryListSchema(orderStatusSchema).optional(),
  /** Orders created at or after this instant. */
  created_after: datetime.optional(),
  /** Orders created before this instant. */
  created_before: datetime.optional(),
  /** Part of the customer's email or name, or of the product's name. */
  query: textSchema({ max: TEXT_MAX_LENGTH.name, trim: true }).optional(),
});
export type OrderListQuery = z.infer<typeof orderListQuerySchema>;

export const orderIdParamsSchema = z.object({ id: z.uuid({ message: 'Input should be a valid UUID' }) });

/** The filters of the list, without its page: what a CSV export of the list takes. */
export const orderExportQuerySchema = orderListQuerySchema.omit({ page: true, limit: true });
export type OrderExportQuery = z.infer<typeof orderExportQuerySchema>;

// The order's timeline (our extension): what happened to it, oldest first.

export const ORDER_TIMELINE_ENTRY_TYPES = [
  'order_created',
  'payment_attempt',
  'invoice_generated',
  'refund_requested',
  'refund_succeeded',
  'refund_failed',
  'dispute_opened',
  'dispute_closed',
  'email_sent',
  'webhook_event',
] as const;

export const orderTimelineEntrySchema = z.object({
  type: z.enum(ORDER_TIMELINE_ENTRY_TYPES),
  at: datetime,
  /**
   * payment_attempt: succeeded, failed, requires_action or canceled; refunds: the refund's status;
   * disputes: the dispute's status (domain/disputes); email_sent: pending or sent; webhook_event:
   * succeeded, failed or pending over its endpoints.
   */
  status: z.string().nullable(),
  /** The card a payment attempt was made with, where the processor told us. */
  card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
  /** Refunds and disputes: the amount (excluding tax), in minor units of the order's currency. */
  amount: z.number().int().nullable(),
  /**
   * What the entry is about: the processor's payment id, the invoice number, the refund id, the
   * email's subject, or the webhook event type.
   */
  reference: z.string().nullable(),
  /**
   * More about it: a decline's message, a refund's reason or failure, a dispute's reason (or
   * `accepted` when the seller conceded it), the email's recipient, how many endpoints a webhook
   * event reached.
   */
  detail: z.string().nullable(),
});
export type OrderTimelineEntry = z.infer<typeof orderTimelineEntrySchema>;

export const orderTimelineSchema = z.object({
  order_id: z.uuid(),
  currency: z.string(),
  items: z.array(orderTimelineEntrySchema),
});
export type OrderTimeline = z.infer<typeof orderTimelineSchema>;
