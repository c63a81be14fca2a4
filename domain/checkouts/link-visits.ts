// A visit to a checkout link's public URL opens a fresh checkout from the link and what the URL
// prefills; a prefill that does not fit is left out, so a shared link never breaks.
import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { customFieldValueFromText } from '../custom-fields/rules.js';
import type { CustomFieldType } from '../custom-fields/schemas.js';
import { findDiscountByCode } from '../discounts/repository.js';
import { readMetadata } from '../metadata/rules.js';
import { METADATA_MAX_KEYS, type Metadata } from '../metadata/schemas.js';
import { AppError, InvalidInputError } from '../platform/errors.js';
import { findLiveProductIds, findProductCustomFieldTypes } from '../products/repository.js';
import { priceCheckout, type PricedCheckout } from './pricing.js';
import { withoutRefusedPrefills, type PricedPrefills } from './rules.js';
import type { CheckoutLinkPrefill } from './schemas.js';
import { nowOf, openCheckout, type CheckoutsContext } from './service.js';
import { checkoutUrl } from './views.js';

/**
 * A fresh checkout from a checkout link's public URL (no caller: the link's secret is the
 * capability). It takes the link's products, discount, options, success URL and metadata, and
 * what the URL prefills (`CheckoutLinkPrefill`): a prefill that does not fit this checkout is left
 * out instead of failing the visit, because a shared link must never break.
 */
export async function createCheckoutFromLink(
  ctx: CheckoutsContext,
  link: {
    id: string;
    organizationId: string;
    productIds: string[];
    discountId: string | null;
    allowDiscountCodes: boolean;
    requireBillingAddress: boolean;
    /** The link's own trial, overriding its products' (null: theirs). */
    trialInterval: string | null;
    trialIntervalCount: number | null;
    /** The seats its checkouts are locked to (null: the buyer chooses). */
    seats: number | null;
    successUrl: string | null;
    returnUrl: string | null;
    paymentProcessor: string;
    metadata: Prisma.JsonValue;
  },
  prefill: CheckoutLinkPrefill,
): Promise<{ url: string }> {
  const { db } = ctx;
  const live = await findLiveProductIds(db, link.organizationId, link.productIds);
  const productIds = link.productIds.filter((id) => live.includes(id));
  if (productIds.length === 0)
    throw new AppError('ResourceNotFound', 'This link sells nothing at the moment.');
  const productId = productIds[0]!;
  const now = nowOf(ctx);
  // As on the client update: a code only where the checkout takes codes.
  const codeDiscount =
    prefill.discountCode && link.allowDiscountCodes
      ? await findDiscountByCode(db, link.organizationId, prefill.discountCode)
      : null;
  let prefills: PricedPrefills | null = {
    amount: prefill.amount,
    discountId: codeDiscount?.id ?? null,
    customFieldData: await customFieldPrefills(db, link.organizationId, productId, prefill.customFieldData),
  };
  let priced: PricedCheckout | undefined;
  while (!priced) {
    const { amount, discountId, customFieldData } = prefills;
    try {
      priced = await priceCheckout(
        db,
        ctx.tax,
        {
          organizationId: link.organizationId,
          checkoutId: null,
          productIds,
          productId,
          productPriceId: null,
          requestedAmount: amount,
          // A link locked to seats bounds its checkouts to exactly that many, where the product
          // still takes them (else the buyer chooses, as Polar ignores what no longer fits).
          seats: null,
          seatBounds: { minimum: link.seats, maximum: link.seats, asked: false },
          discountId: discountId ?? link.discountId,
          customFieldData,
          billingAddress: null,
          taxId: null,
          requireBillingAddress: link.requireBillingAddress,
          isBusinessCustomer: false,
          discountHeld: false,
        },
        // A link's own discount that no longer applies is dropped quietly, not shown as an error;
        // a prefilled code that does not apply is reported, to be left out below.
        { now, strict: false, failOnInapplicableDiscount: discountId ? 'discount_code' : null },
      );
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      prefills = withoutRefusedPrefills(prefills, error.issues);
      if (!prefills) throw error;
    }
  }
  const row = await openCheckout(ctx, now, priced, {
    organizationId: link.organizationId,
    successUrl: link.successUrl,
    returnUrl: link.returnUrl,
    embedOrigin: prefill.embedOrigin,
    checkoutLinkId: link.id,
    productIds,
    minSeats: link.seats,
    maxSeats: link.seats,
    allowDiscountCodes: link.allowDiscountCodes,
    requireBillingAddress: link.requireBillingAddress,
    // The checkout carries the link's trial as its own override (checkouts/trials.ts).
    trialInterval: link.trialInterval,
    trialIntervalCount: link.trialIntervalCount,
    customerEmail: prefill.customerEmail,
    customerName: prefill.customerName,
    metadata: linkCheckoutMetadata(readMetadata(link.metadata), prefill.metadata),
    paymentProcessor: link.paymentProcessor,
  });
  return { url: checkoutUrl(ctx.publicUrl, row.clientSecret) };
}

/** Prefilled custom field text as the product's fields read it (a checkbox's yes/no words). */
async function customFieldPrefills(
  db: Db,
  organizationId: string,
  productId: string,
  texts: Record<string, string>,
): Promise<Record<string, string | boolean>> {
  if (Object.keys(texts).length === 0) return {};
  const fields = await findProductCustomFieldTypes(db, organizationId, productId);
  const types = new Map(fields.map(({ slug, type }) => [slug, type as CustomFieldType]));
  return Object.fromEntries(
    Object.entries(texts).map(([slug, text]) => {
      const type = types.get(slug);
      return [slug, type ? customFieldValueFromText(type, text) : text];
    }),
  );
}

/**
 * The link's metadata, then the URL's attribution keys the link does not set itself (Polar: the
 * seller's values win), within the metadata key limit.
 */
function linkCheckoutMetadata(linkMetadata: Metadata, fromUrl: CheckoutLinkPrefill['metadata']): Metadata {
  const metadata = { ...linkMetadata };
  for (const [key, value] of Object.entries(fromUrl)) {
    if (key in metadata || Object.keys(metadata).length >= METADATA_MAX_KEYS) continue;
    metadata[key] = value;
  }
  return metadata;
}
