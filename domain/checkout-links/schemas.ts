import { z } from 'zod';
import { discountSchema } from '../discounts/schemas.js';
import { MAX_TIER_UNITS } from '../prices/tiers.js';
import { productMediaFileSchema } from '../files/schemas.js';
import { metadataInputSchema, metadataSchema } from '../metadata/schemas.js';
import {
  oneOrManyUuids,
  pageQuerySchema,
  sortingSchema,
  TEXT_MAX_LENGTH,
  textSchema,
  withTextRule,
} from '../platform/schemas.js';
import { productPriceSchema, productSchema } from '../products/schemas.js';
import { trialInputFields } from '../products/trials.js';

// Polar's CheckoutLink as @polar-sh/sdk@0.33.2 reads it.

export const benefitPublicSchema = z.object({
  id: z.uuid(),
  created_at: z.iso.datetime({ offset: true }),
  modified_at: z.iso.datetime({ offset: true }).nullable(),
  type: z.string(),
  description: z.string(),
  selectable: z.boolean(),
  deletable: z.boolean(),
  is_deleted: z.boolean(),
  organization_id: z.uuid(),
});

export const checkoutLinkProductSchema = z.object({
  metadata: metadataSchema,
  created_at: z.iso.datetime({ offset: true }),
  modified_at: z.iso.datetime({ offset: true }).nullable(),
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  recurring_interval: productSchema.shape.recurring_interval,
  is_recurring: z.boolean(),
  is_archived: z.boolean(),
  recurring_interval_count: productSchema.shape.recurring_interval_count,
  meter_interval: productSchema.shape.meter_interval,
  meter_interval_count: productSchema.shape.meter_interval_count,
  trial_interval: productSchema.shape.trial_interval,
  trial_interval_count: productSchema.shape.trial_interval_count,
  visibility: productSchema.shape.visibility,
  organization_id: z.uuid(),
  prices: z.array(productPriceSchema),
  benefits: z.array(benefitPublicSchema),
  medias: z.array(productMediaFileSchema),
});

export const checkoutLinkSchema = z.object({
  created_at: z.iso.datetime({ offset: true }),
  modified_at: z.iso.datetime({ offset: true }).nullable(),
  id: z.uuid(),
  metadata: metadataSchema,
  payment_processor: z.literal('stripe'),
  client_secret: z.string(),
  success_url: z.string().nullable(),
  /** The seller's page the checkout page's back link goes to; each checkout the link opens keeps it. */
  return_url: z.string().nullable(),
  trial_interval: productSchema.shape.trial_interval,
  trial_interval_count: productSchema.shape.trial_interval_count,
  label: z.string().nullable(),
  allow_discount_codes: z.boolean(),
  require_billing_address: z.boolean(),
  discount_id: z.uuid().nullable(),
  /** The seats its checkouts are locked to (seat-based products only); unit-based prices are not built. */
  seats: z.number().int().nullable(),
  units: z.number().int().nullable(),
  organization_id: z.uuid(),
  products: z.array(checkoutLinkProductSchema),
  discount: discountSchema.omit({ products: true }).nullable(),
  url: z.string(),
});
export type CheckoutLink = z.infer<typeof checkoutLinkSchema>;

const successUrl = withTextRule(
  z
    .url({ protocol: /^https?$/ })
    .refine(
      (url) => !url.includes('{') || url.includes('{CHECKOUT_ID}'),
      'The only placeholder is {CHECKOUT_ID}.',
    ),
  { max: TEXT_MAX_LENGTH.url },
);

/** Where the checkout page's back link takes the buyer: the seller's page they came from. */
export const returnUrlSchema = withTextRule(z.url({ protocol: /^https?$/ }), { max: TEXT_MAX_LENGTH.url });

const linkFields = {
  metadata: metadataInputSchema.optional(),
  label: textSchema({ max: TEXT_MAX_LENGTH.name, trim: true }).nullable().optional(),
  allow_discount_codes: z.boolean().optional(),
  require_billing_address: z.boolean().optional(),
  discount_id: z.uuid().nullable().optional(),
  success_url: successUrl.nullable().optional(),
  // The link's own trial, overriding its products' (both or neither; products/trials.ts).
  ...trialInputFields,
  return_url: returnUrlSchema.nullable().optional(),
};

/** One of `product_price_id`, `product_id` or `products` says what the link sells. */
export const checkoutLinkCreateSchema = z
  .strictObject({
    ...linkFields,
    payment_processor: z.literal('stripe').default('stripe'),
    /** Polar's CheckoutLinkCreate* `seats` (dated versions): every checkout of the link sells this many. */
    seats: z.int().min(1, 'Choose at least 1 seat.').max(MAX_TIER_UNITS).nullable().optional(),
    product_price_id: z.uuid().optional(),
    product_id: z.uuid().optional(),
    products: z.array(z.uuid()).min(1).max(10).optional(),
  })
  .superRefine((link, context) => {
    const given = [link.product_price_id, link.product_id, link.products].filter(
      (value) => value !== undefined,
    );
    if (given.length !== 1) {
      context.addIssue({
        code: 'custom',
        path: ['products'],
        message: 'Give exactly one of product_price_id, product_id or products.',
      });
    }
  });
export type CheckoutLinkCreate = z.infer<typeof checkoutLinkCreateSchema>;

export const checkoutLinkUpdateSchema = z.strictObject({
  ...linkFields,
  products: z.array(z.uuid()).min(1).max(10).nullable().optional(),
  allow_discount_codes: z.boolean().nullable().optional(),
  require_billing_address: z.boolean().nullable().optional(),
});
export type CheckoutLinkUpdate = z.infer<typeof checkoutLinkUpdateSchema>;

export const checkoutLinkSortFields = [
  'created_at',
  '-created_at',
  'label',
  '-label',
  'success_url',
  '-success_url',
  'allow_discount_codes',
  '-allow_discount_codes',
] as const;

export const checkoutLinkListQuerySchema = pageQuerySchema.extend({
  organization_id: oneOrManyUuids.optional(),
  product_id: oneOrManyUuids.optional(),
  sorting: sortingSchema(checkoutLinkSortFields),
});
export type CheckoutLinkListQuery = z.infer<typeof checkoutLinkListQuerySchema>;

export const checkoutLinkIdParamsSchema = z.object({
  id: z.uuid({ message: 'Input should be a valid UUID' }),
});

/** How a checkout link sells (our extension). */
export const checkoutLinkStatsSchema = z.object({
  checkout_link_id: z.uuid(),
  /** Checkouts opened from the link: each visit of its URL opens one. */
  visits: z.number().int().min(0),
  /** Of those, the checkouts that were paid. */
  conversions: z.number().int().min(0),
  /** conversions / visits, 0 without visits. */
  conversion_rate: z.number().min(0).max(1),
  /** Net amounts of the orders it made less refunds, per currency, in minor units, excluding tax. */
  revenue: z.array(z.object({ currency: z.string(), amount: z.number().int() })),
});
export type CheckoutLinkStats = z.infer<typeof checkoutLinkStatsSchema>;
