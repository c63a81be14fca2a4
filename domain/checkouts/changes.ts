// Changing an open checkout, by the seller or the buyer: whether it may still change, and applying
// the changes to its locked row, priced again.
import { trialColumns, trialInputIssues } from '../products/trials.js';
import type { Prisma } from '../../generated/prisma/client.js';
import {
  findDiscountByCode,
  findDiscountOfOrganization,
  releaseDiscount,
  type DiscountWithProducts,
} from '../discounts/repository.js';
import { AppError, InvalidFieldError, InvalidInputError } from '../platform/errors.js';
import { priceCheckout } from './pricing.js';
import { updateCheckoutRow, type CheckoutRow } from './repository.js';
import type { CheckoutClientUpdate, CheckoutUpdate } from './schemas.js';
import { addressOf, nowOf, pricingColumns, type CheckoutsContext } from './service.js';
import { readCustomFieldData } from './views.js';

/** Open (or failed and retryable) and not past its expiry; anything else refuses changes. */
export function assertChangeable(row: CheckoutRow, now: Date): void {
  if (
    row.status === 'expired' ||
    ((row.status === 'open' || row.status === 'failed') && row.expiresAt <= now)
  ) {
    throw new AppError('ExpiredCheckoutError', 'This checkout session has expired.');
  }
  if (row.status !== 'open' && row.status !== 'failed') {
    throw new AppError('NotOpenCheckout', `This checkout is ${row.status}.`);
  }
}

// `allow_trial`: the buyer may only decline (false), the seller set either.
type Changes = Omit<CheckoutClientUpdate, 'allow_trial'> &
  Partial<Omit<CheckoutUpdate, 'allow_trial'>> & { allow_trial?: boolean | null };

/** Applies buyer/seller changes to a locked row: re-prices and writes, with `checkout.updated`. */
export async function applyChanges(
  ctx: CheckoutsContext,
  tx: Prisma.TransactionClient,
  row: CheckoutRow,
  changes: Changes,
  options: { confirming: boolean; extra?: Prisma.CheckoutUncheckedUpdateInput },
): Promise<CheckoutRow> {
  const now = nowOf(ctx);
  const trialIssues = trialInputIssues(changes);
  if (trialIssues.length > 0) throw new InvalidInputError(trialIssues);
  let discountId = changes.discount_id !== undefined ? changes.discount_id : row.discountId;
  let failOnInapplicableDiscount: 'discount_code' | 'discount_id' | null = changes.discount_id
    ? 'discount_id'
    : null;
  if (changes.discount_code !== undefined) {
    if (!changes.discount_code) {
      discountId = null;
    } else {
      if (!row.allowDiscountCodes) {
        throw new InvalidFieldError(
          ['body', 'discount_code'],
          'Discount codes are not accepted on this checkout.',
        );
      }
      const discount: DiscountWithProducts | null = await findDiscountByCode(
        tx,
        row.organizationId,
        changes.discount_code,
      );
      if (!discount) throw new InvalidFieldError(['body', 'discount_code'], 'Discount code not found.');
      discountId = discount.id;
      failOnInapplicableDiscount = 'discount_code';
    }
  }
  if (
    changes.discount_id &&
    !(await findDiscountOfOrganization(tx, row.organizationId, changes.discount_id))
  ) {
    throw new InvalidFieldError(['body', 'discount_id'], 'Discount not found.');
  }
  const productChanged = changes.product_id && changes.product_id !== row.productId;
  if (changes.product_id && !row.productIds.includes(changes.product_id)) {
    throw new InvalidFieldError(['body', 'product_id'], 'This product is not offered in this checkout.');
  }
  const billingAddress =
    changes.customer_billing_address !== undefined
      ? changes.customer_billing_address
      : addressOf(row.customerBillingAddress);
  const taxId = changes.customer_tax_id !== undefined ? changes.customer_tax_id : row.customerTaxId;
  const requireBillingAddress = changes.require_billing_address ?? row.requireBillingAddress;
  const priced = await priceCheckout(
    tx,
    ctx.tax,
    {
      organizationId: row.organizationId,
      checkoutId: row.id,
      productIds: row.productIds,
      productId: changes.product_id ?? row.productId,
      productPriceId: changes.product_price_id ?? (productChanged ? null : row.productPriceId),
      requestedAmount: changes.amount !== undefined ? changes.amount : productChanged ? null : row.amount,
      // Another product starts again from its own fewest seats.
      seats: changes.seats !== undefined ? changes.seats : productChanged ? null : row.seats,
      seatBounds: { minimum: row.minSeats, maximum: row.maxSeats, asked: false },
      discountId,
      customFieldData: { ...readCustomFieldData(row.customFieldData), ...(changes.custom_field_data ?? {}) },
      billingAddress,
      taxId,
      requireBillingAddress,
      isBusinessCustomer: changes.is_business_customer ?? row.isBusinessCustomer,
      discountHeld: row.discountRedeemed && discountId === row.discountId,
    },
    { now, strict: options.confirming, failOnInapplicableDiscount },
  );
  const data: Prisma.CheckoutUncheckedUpdateInput = {
    ...pricingColumns(priced),
    ...(changes.is_business_customer != null ? { isBusinessCustomer: changes.is_business_customer } : {}),
    ...(changes.customer_name !== undefined ? { customerName: changes.customer_name } : {}),
    ...(changes.customer_email !== undefined ? { customerEmail: changes.customer_email } : {}),
    ...(changes.customer_billing_name !== undefined
      ? { customerBillingName: changes.customer_billing_name }
      : {}),
    ...(changes.customer_billing_address !== undefined
      ? { customerBillingAddress: changes.customer_billing_address ?? DbNull }
      : {}),
    ...(changes.customer_tax_id !== undefined ? { customerTaxId: changes.customer_tax_id } : {}),
    ...(changes.metadata !== undefined ? { metadata: changes.metadata } : {}),
    ...(changes.allow_discount_codes != null ? { allowDiscountCodes: changes.allow_discount_codes } : {}),
    ...(changes.require_billing_address != null
      ? { requireBillingAddress: changes.require_billing_address }
      : {}),
    ...(changes.customer_ip_address !== undefined ? { customerIpAddress: changes.customer_ip_address } : {}),
    ...(changes.customer_metadata != null ? { customerMetadata: changes.customer_metadata } : {}),
    ...(changes.success_url !== undefined ? { successUrl: changes.success_url } : {}),
    ...(changes.return_url !== undefined ? { returnUrl: changes.return_url } : {}),
    ...(changes.embed_origin !== undefined ? { embedOrigin: changes.embed_origin } : {}),
    ...(changes.allow_trial != null ? { allowTrial: changes.allow_trial } : {}),
    ...trialColumns(changes),
    ...options.extra,
  };
  if (row.discountRedeemed && priced.discountId !== row.discountId && row.discountId) {
    // The buyer swapped a redeemed code for another one (only possible after a failed payment).
    await releaseDiscount(tx, row.discountId);
    data.discountRedeemed = false;
  }
  const updated = await updateCheckoutRow(tx, row.id, data);
  return updated;
}

const DbNull = 'DbNull' as unknown as Prisma.NullableJsonNullValueInput;
