import { discountView } from '../discounts/views.js';
import { readMetadata } from '../metadata/rules.js';
import { trialView } from '../products/trials.js';
import { productView } from '../products/views.js';
import type { CheckoutLinkRow } from './repository.js';
import { checkoutLinkSchema, type CheckoutLink } from './schemas.js';

/** Where a buyer starts a checkout from this link (see api/checkout-links.ts). */
export function checkoutLinkUrl(publicUrl: string, clientSecret: string): string {
  return `${publicUrl}/api/checkout-links/${clientSecret}`;
}

export function checkoutLinkView(row: CheckoutLinkRow, publicUrl: string): CheckoutLink {
  const discount = row.discount && row.discount.deletedAt === null ? discountView(row.discount) : null;
  return checkoutLinkSchema.parse({
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    id: row.id,
    metadata: readMetadata(row.metadata),
    payment_processor: row.paymentProcessor,
    client_secret: row.clientSecret,
    success_url: row.successUrl,
    return_url: row.returnUrl,
    ...trialView(row),
    label: row.label,
    allow_discount_codes: row.allowDiscountCodes,
    require_billing_address: row.requireBillingAddress,
    discount_id: discount ? row.discountId : null,
    seats: row.seats,
    units: null,
    organization_id: row.organizationId,
    products: row.products.map(({ product }) => {
      const { attached_custom_fields: _fields, benefits, ...rest } = productView(product, publicUrl);
      return {
        ...rest,
        benefits: benefits.map(({ metadata: _metadata, properties: _properties, ...benefit }) => benefit),
      };
    }),
    discount: discount ? { ...discount, products: undefined } : null,
    url: checkoutLinkUrl(publicUrl, row.clientSecret),
  });
}
