import type { Prisma } from '../../generated/prisma/client.js';
import { addressSchema } from '../addresses/schemas.js';
import { termsOf as discountTermsOf } from '../discounts/views.js';
import { readMetadata } from '../metadata/rules.js';
import { refusedPaymentNotice } from '../payments/errors.js';
import { organizationView } from '../organizations/views.js';
import { priceType } from '../prices/registry.js';
import type { ProductRow } from '../products/repository.js';
import { priceView, productView } from '../products/views.js';
import { decimalAmount } from '../money/rules.js';
import type { CheckoutExportRow, CheckoutRow } from './repository.js';
import { billingAddressFieldModes, customerBillingAddressFields } from './rules.js';
import type { Checkout, CheckoutPublic } from './schemas.js';
import { checkoutTrial, checkoutTrialView } from './trials.js';

/** What rendering a checkout needs besides its row. */
export type CheckoutViewSettings = {
  publicUrl: string;
  /** Shown to the hosted page (e.g. Stripe's publishable key); string values only. */
  processorMetadata: Record<string, string>;
};

export function checkoutUrl(publicUrl: string, clientSecret: string): string {
  return `${publicUrl}/checkout/${clientSecret}`;
}

export function readCustomFieldData(
  value: Prisma.JsonValue,
): Record<string, string | number | boolean | null> {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, string | number | boolean | null>)
    : {};
}

/** The product as a checkout shows it (no seller metadata, public benefit fields). */
function checkoutProduct(product: ProductRow, publicUrl: string) {
  const {
    attached_custom_fields: _fields,
    metadata: _metadata,
    benefits,
    ...rest
  } = productView(product, publicUrl);
  return {
    ...rest,
    benefits: benefits.map(({ metadata: _m, properties: _p, ...benefit }) => benefit),
  };
}

function checkoutDiscount(discount: CheckoutRow['discount']): Checkout['discount'] {
  if (!discount || discount.deletedAt) return null;
  const terms = discountTermsOf(discount);
  return {
    id: discount.id,
    name: discount.name,
    code: discount.code,
    duration: terms.duration,
    type: terms.type,
    ...(terms.duration === 'repeating' ? { duration_in_months: discount.durationInMonths ?? undefined } : {}),
    ...(terms.type === 'fixed'
      ? {
          amount: discount.amount ?? undefined,
          currency: discount.currency ?? undefined,
          amounts:
            discount.currency && discount.amount ? { [discount.currency]: discount.amount } : undefined,
        }
      : { basis_points: discount.basisPoints ?? undefined }),
  };
}

/** Who reads the checkout: the seller (API, webhooks) or the buyer (the client secret's calls). */
type CheckoutReader = 'seller' | 'buyer';

/**
 * The processor's settings for the hosted page (Stripe's publishable key), plus where the latest
 * payment stands when the buyer has to act: `intent_status` `requires_action` with the client
 * secret to authenticate with (as Polar hands Stripe's to its page), or why a payment failed
 * (`failure_reason`). Polar's schema has no other place for these; it is a string map.
 *
 * Both readers get a decline's reason (the processor's sentence for the buyer, or ours for a payment
 * that ran out of time) under that key. A request the processor refused is recorded in its words,
 * codes, ids and keys included: the seller reads those, the buyer `refusedPaymentNotice` in their
 * place, so the key keeps its meaning for each reader and neither shape changes (docs/payments.md).
 */
function paymentProcessorMetadata(
  base: Record<string, string>,
  row: CheckoutRow,
  reader: CheckoutReader,
): Record<string, string> {
  if (row.status === 'confirmed' && row.paymentClientSecret) {
    return { ...base, intent_status: 'requires_action', intent_client_secret: row.paymentClientSecret };
  }
  if (row.status !== 'failed' || !row.failureReason) return base;
  const buyerReadsNotice = reader === 'buyer' && row.isPaymentRefused;
  return {
    ...base,
    failure_reason: buyerReadsNotice ? refusedPaymentNotice(row.organization.name) : row.failureReason,
  };
}

/** Where the buyer lands after paying: the seller's URL (with `{CHECKOUT_ID}` filled) or ours. */
function successUrlOf(publicUrl: string, row: CheckoutRow): string {
  if (!row.successUrl) return `${checkoutUrl(publicUrl, row.clientSecret)}/confirmation`;
  return row.successUrl.replaceAll('{CHECKOUT_ID}', row.id);
}

/** The flags a stored checkout shows, derived from its stored figures (reads never re-price). */
function storedFlags(row: {
  totalAmount: number;
  allowTrial: boolean;
  trialInterval: string | null;
  trialIntervalCount: number | null;
  product: {
    recurringInterval: string | null;
    trialInterval: string | null;
    trialIntervalCount: number | null;
  };
  productPrice: { amountType: string };
  customerBillingAddress: Prisma.JsonValue;
  requireBillingAddress: boolean;
  isBusinessCustomer: boolean;
}) {
  const address = row.customerBillingAddress as { country?: string } | null;
  // A trial charges nothing today: it only saves the card (Polar's `is_payment_required`).
  const isPaymentRequired = row.totalAmount > 0 && checkoutTrial(row) === null;
  // A plan that is not free saves its card for the renewals, even when nothing is due today.
  const { isFree } = priceType(row.productPrice.amountType).checkout;
  const isPaymentSetupRequired = row.product.recurringInterval !== null && !isFree;
  return {
    isDiscountApplicable: !isFree,
    isFreeProductPrice: isFree,
    isPaymentRequired,
    isPaymentSetupRequired,
    isPaymentFormRequired: isPaymentRequired || isPaymentSetupRequired,
    billingAddressFields: customerBillingAddressFields({
      country: address?.country ?? null,
      requireBillingAddress: row.requireBillingAddress,
      isBusinessCustomer: row.isBusinessCustomer,
    }),
  };
}

/** What the seller's and the buyer's views share; `offered`: the products the checkout sells. */
function commonView(
  row: CheckoutRow,
  offered: ProductRow[],
  settings: CheckoutViewSettings,
  reader: CheckoutReader,
) {
  const ordered = row.productIds
    .map((id) => offered.find((product) => product.id === id))
    .filter((product) => product !== undefined);
  const derived = storedFlags(row);
  return {
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    id: row.id,
    custom_field_data: readCustomFieldData(row.customFieldData),
    payment_processor: 'stripe' as const,
    status: row.status as Checkout['status'],
    client_secret: row.clientSecret,
    url: checkoutUrl(settings.publicUrl, row.clientSecret),
    expires_at: row.expiresAt.toISOString(),
    success_url: successUrlOf(settings.publicUrl, row),
    embed_origin: row.embedOrigin,
    amount: row.amount,
    discount_amount: row.discountAmount,
    net_amount: row.netAmount,
    tax_amount: row.taxAmount,
    total_amount: row.totalAmount,
    currency: row.currency,
    seats: row.seats,
    min_seats: row.minSeats,
    max_seats: row.maxSeats,
    units: null,
    min_units: null,
    max_units: null,
    payment_method_type: row.confirmationTokenId === null ? null : 'card',
    product_id: row.productId,
    product_price_id: row.productPriceId,
    discount_id: row.discountId,
    allow_discount_codes: row.allowDiscountCodes,
    require_billing_address: row.requireBillingAddress,
    is_discount_applicable: derived.isDiscountApplicable,
    is_free_product_price: derived.isFreeProductPrice,
    is_payment_required: derived.isPaymentRequired,
    is_payment_setup_required: derived.isPaymentSetupRequired,
    is_payment_form_required: derived.isPaymentFormRequired,
    customer_id: row.customerId,
    is_business_customer: row.isBusinessCustomer,
    customer_name: row.customerName,
    customer_email: row.customerEmail,
    customer_ip_address: row.customerIpAddress,
    customer_billing_name: row.customerBillingName,
    customer_billing_address:
      row.customerBillingAddress === null ? null : addressSchema.parse(row.customerBillingAddress),
    customer_tax_id: row.customerTaxId,
    payment_processor_metadata: paymentProcessorMetadata(settings.processorMetadata, row, reader),
    customer_billing_address_fields: derived.billingAddressFields,
    billing_address_fields: billingAddressFieldModes(derived.billingAddressFields),
    organization_id: row.organizationId,
    return_url: row.returnUrl,
    tax_behavior: null,
    ...checkoutTrialView(row, row.subscription?.trialEnd ?? null),
    prices: null,
    products: ordered.map((product) => checkoutProduct(product, settings.publicUrl)),
    product: checkoutProduct(row.product, settings.publicUrl),
    product_price: priceView(row.productPrice),
    discount: checkoutDiscount(row.discount),
    attached_custom_fields: productView(row.product, settings.publicUrl).attached_custom_fields,
  };
}

/** The seller's view (API, webhooks). */
export function checkoutView(
  row: CheckoutRow,
  offered: ProductRow[],
  settings: CheckoutViewSettings,
): Checkout {
  return {
    ...commonView(row, offered, settings, 'seller'),
    metadata: readMetadata(row.metadata),
    customer_external_id: row.customerExternalId,
    external_customer_id: row.customerExternalId,
    customer_metadata: readMetadata(row.customerMetadata),
    subscription_id: row.subscription?.id ?? null,
  };
}

/** The buyer's view (the client secret's calls): the seller as the buyer may see it. */
export function checkoutPublicView(
  row: CheckoutRow,
  offered: ProductRow[],
  settings: CheckoutViewSettings,
): CheckoutPublic {
  return {
    ...commonView(row, offered, settings, 'buyer'),
    organization: organizationView(row.organization),
  };
}

/** The CSV export's columns: amounts in minor units, and the total as a decimal of the currency. */
export const CHECKOUT_EXPORT_COLUMNS = [
  'Checkout ID',
  'Created At',
  'Status',
  'Product',
  'Customer Email',
  'Customer Name',
  'Currency',
  'Amount',
  'Discount Amount',
  'Net Amount',
  'Tax Amount',
  'Total Amount',
  'Total',
  'Expires At',
  'Checkout Link ID',
] as const;

export function checkoutExportRow(row: CheckoutExportRow): (string | number | null)[] {
  return [
    row.id,
    row.createdAt.toISOString(),
    row.status,
    row.product.name,
    row.customerEmail,
    row.customerName,
    row.currency.toUpperCase(),
    row.amount,
    row.discountAmount,
    row.netAmount,
    row.taxAmount,
    row.totalAmount,
    decimalAmount(row.totalAmount, row.currency),
    row.expiresAt.toISOString(),
    row.checkoutLinkId,
  ];
}
