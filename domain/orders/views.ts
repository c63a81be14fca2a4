import { addressSchema } from '../addresses/schemas.js';
import { customerView } from '../customers/views.js';
import { discountView } from '../discounts/views.js';
import { readMetadata } from '../metadata/rules.js';
import { decimalAmount } from '../money/rules.js';
import { productTermsView, subscriptionOwnFields } from '../products/views.js';
import type { OrderExportRow, OrderRow } from './repository.js';
import { isUnpaidStatus } from './rules.js';
import type { SubscriptionRecord } from '../subscriptions/repository.js';
import { orderSchema, orderSubscriptionSchema, type Order, type OrderSubscription } from './schemas.js';

const iso = (value: Date | null) => value?.toISOString() ?? null;

export function orderView(row: OrderRow): Order {
  const discount =
    row.discount && !row.discount.deletedAt ? discountView({ ...row.discount, products: [] }) : null;
  return orderSchema.parse({
    id: row.id,
    created_at: row.createdAt.toISOString(),
    modified_at: iso(row.modifiedAt),
    status: row.status,
    paid: !isUnpaidStatus(row.status),
    subtotal_amount: row.subtotalAmount,
    discount_amount: row.discountAmount,
    net_amount: row.netAmount,
    amount: row.netAmount,
    tax_amount: row.taxAmount,
    total_amount: row.totalAmount,
    refunded_amount: row.refundedAmount,
    refunded_tax_amount: row.refundedTaxAmount,
    units: null,
    refundable_amount: isUnpaidStatus(row.status) ? 0 : row.netAmount - row.refundedAmount,
    refundable_tax_amount: isUnpaidStatus(row.status) ? 0 : row.taxAmount - row.refundedTaxAmount,
    due_amount: isUnpaidStatus(row.status) ? row.totalAmount : 0,
    applied_balance_amount: 0,
    platform_fee_amount: 0,
    platform_fee_currency: null,
    invoice_number: row.invoiceNumber,
    receipt_number: null,
    currency: row.currency,
    seats: row.seats,
    billing_reason: row.billingReason,
    billing_name: row.billingName,
    billing_address: row.billingAddress === null ? null : addressSchema.parse(row.billingAddress),
    is_invoice_generated: row.invoicePath !== null,
    customer_id: row.customerId,
    product_id: row.productId,
    discount_id: discount ? row.discountId : null,
    subscription_id: row.subscriptionId,
    checkout_id: row.checkoutId,
    metadata: readMetadata(row.metadata),
    custom_field_data: row.customFieldData,
    customer: customerView(row.customer),
    user_id: row.customerId,
    product: {
      metadata: readMetadata(row.product.metadata),
      created_at: row.product.createdAt.toISOString(),
      modified_at: iso(row.product.modifiedAt),
      id: row.product.id,
      name: row.product.name,
      description: row.product.description,
      recurring_interval: row.product.recurringInterval,
      is_recurring: row.product.recurringInterval !== null,
      is_archived: row.product.isArchived,
      ...productTermsView(
        row.product.recurringInterval,
        row.product.recurringIntervalCount,
        row.product,
        row.product,
      ),
      organization_id: row.product.organizationId,
    },
    discount: discount ? { ...discount, products: undefined } : null,
    subscription: row.subscription ? orderSubscriptionView(row.subscription) : null,
    items: row.items.map((item) => ({
      created_at: item.createdAt.toISOString(),
      modified_at: iso(item.modifiedAt),
      id: item.id,
      label: item.label,
      amount: item.amount,
      tax_amount: item.taxAmount,
      proration: item.proration,
      product_price_id: item.productPriceId,
      start_timestamp: null,
      end_timestamp: null,
    })),
    description: row.productName,
  });
}

/**
 * The CSV export's columns: each amount in minor units for sums, and the total and the refunded
 * amount as decimals of the currency for people (as the subscriptions export writes its price).
 */
export const ORDER_EXPORT_COLUMNS = [
  'Order ID',
  'Created At',
  'Status',
  'Billing Reason',
  'Customer Email',
  'Customer Name',
  'Product',
  'Currency',
  'Subtotal Amount',
  'Discount Amount',
  'Net Amount',
  'Tax Amount',
  'Total Amount',
  'Refunded Amount',
  'Total',
  'Refunded',
  'Invoice Number',
] as const;

export function orderExportRow(row: OrderExportRow): (string | number | null)[] {
  return [
    row.id,
    row.createdAt.toISOString(),
    row.status,
    row.billingReason,
    row.customer.email,
    row.customer.name,
    row.productName,
    row.currency.toUpperCase(),
    row.subtotalAmount,
    row.discountAmount,
    row.netAmount,
    row.taxAmount,
    row.totalAmount,
    row.refundedAmount + row.refundedTaxAmount,
    decimalAmount(row.totalAmount, row.currency),
    decimalAmount(row.refundedAmount + row.refundedTaxAmount, row.currency),
    row.invoiceNumber,
  ];
}

export function orderSubscriptionView(row: SubscriptionRecord): OrderSubscription {
  return orderSubscriptionSchema.parse(subscriptionOwnFields(row));
}
