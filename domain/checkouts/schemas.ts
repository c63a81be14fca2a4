import { z } from 'zod';
import { checkoutLinkProductSchema, returnUrlSchema } from '../checkout-links/schemas.js';
import {
  attachedCustomFieldSchema,
  customFieldDataSchema,
  customFieldSlugSchema,
} from '../custom-fields/schemas.js';
import { addressDraftSchema, addressSchema } from '../addresses/schemas.js';
import { discountDurationSchema } from '../discounts/schemas.js';
import { METADATA_STRING_MAX_LENGTH, metadataInputSchema, metadataSchema } from '../metadata/schemas.js';
import { organizationSchema } from '../organizations/schemas.js';
import {
  emailAddressSchema,
  minorUnitsSchema,
  offUntilBuilt,
  oneOrManyUuids,
  pageQuerySchema,
  queryListSchema,
  sortingSchema,
  TEXT_MAX_LENGTH,
  textSchema,
  withTextRule,
} from '../platform/schemas.js';
import { productPriceSchema, trialIntervalSchema } from '../products/schemas.js';
import { trialInputFields } from '../products/trials.js';
import { TAX_BEHAVIORS } from '../tax/schemas.js';
import { MAX_TIER_UNITS } from '../prices/tiers.js';

// Polar's Checkout, CheckoutPublic and CheckoutPublicConfirmed as @polar-sh/sdk@0.33.2 reads them
// (spec §3 Checkout, §4 checkout status).

const datetime = z.iso.datetime({ offset: true });

export const CHECKOUT_STATUSES = ['open', 'expired', 'confirmed', 'succeeded', 'failed'] as const;
export const checkoutStatusSchema = z.enum(CHECKOUT_STATUSES);
export type CheckoutStatus = z.infer<typeof checkoutStatusSchema>;

export const checkoutProductSchema = checkoutLinkProductSchema.omit({ metadata: true });

export const checkoutDiscountSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  code: z.string().nullable(),
  duration: discountDurationSchema,
  duration_in_months: z.number().int().optional(),
  type: z.enum(['fixed', 'percentage']),
  amount: z.number().int().optional(),
  currency: z.string().optional(),
  amounts: z.record(z.string(), z.number().int()).optional(),
  basis_points: z.number().int().optional(),
});

const billingAddressFieldModeSchema = z.enum(['required', 'optional', 'disabled']);

export const billingAddressFieldsSchema = z.object({
  country: z.boolean(),
  state: z.boolean(),
  city: z.boolean(),
  postal_code: z.boolean(),
  line1: z.boolean(),
  line2: z.boolean(),
});

const checkoutCommon = {
  created_at: datetime,
  modified_at: datetime.nullable(),
  id: z.uuid(),
  custom_field_data: customFieldDataSchema,
  payment_processor: z.literal('stripe'),
  status: checkoutStatusSchema,
  client_secret: z.string(),
  url: z.string(),
  expires_at: datetime,
  success_url: z.string(),
  embed_origin: z.string().nullable(),
  amount: z.number().int(),
  discount_amount: z.number().int(),
  net_amount: z.number().int(),
  tax_amount: z.number().int().nullable(),
  total_amount: z.number().int(),
  currency: z.string(),
  /** The seats a seat-based price is bought for (null for other prices) and the checkout's bounds on them. */
  seats: z.int().nullable().optional(),
  min_seats: z.int().nullable().optional(),
  max_seats: z.int().nullable().optional(),
  /** Unit-based prices are not built: no checkout sells a number of units. */
  units: z.number().int().nullable(),
  min_units: z.number().int().nullable(),
  max_units: z.number().int().nullable(),
  /** `card` once the buyer confirmed with one, the only method the checkout form takes. */
  payment_method_type: z.string().nullable(),
  product_id: z.uuid(),
  product_price_id: z.uuid(),
  discount_id: z.uuid().nullable(),
  allow_discount_codes: z.boolean(),
  require_billing_address: z.boolean(),
  is_discount_applicable: z.boolean(),
  is_free_product_price: z.boolean(),
  is_payment_required: z.boolean(),
  is_payment_setup_required: z.boolean(),
  is_payment_form_required: z.boolean(),
  customer_id: z.uuid().nullable(),
  is_business_customer: z.boolean(),
  customer_name: z.string().nullable(),
  customer_email: z.string().nullable(),
  customer_ip_address: z.string().nullable(),
  customer_billing_name: z.string().nullable(),
  customer_billing_address: addressSchema.nullable(),
  customer_tax_id: z.string().nullable(),
  payment_processor_metadata: z.record(z.string(), z.string()),
  customer_billing_address_fields: billingAddressFieldsSchema,
  billing_address_fields: z.object({
    country: billingAddressFieldModeSchema,
    state: billingAddressFieldModeSchema,
    city: billingAddressFieldModeSchema,
    postal_code: billingAddressFieldModeSchema,
    line1: billingAddressFieldModeSchema,
    line2: billingAddressFieldModeSchema,
  }),
  organization_id: z.uuid(),
  /** The seller's page the checkout page's back link goes to, if any. */
  return_url: z.string().nullable(),
  /** Null: the price's own, the organization's `default_tax_behavior`. */
  tax_behavior: z.enum(TAX_BEHAVIORS).nullable(),
  /** False when the trial was declined; `active_trial_*` and `trial_end` say the trial it gives. */
  allow_trial: z.boolean().nullable(),
  trial_interval: trialIntervalSchema.nullable(),
  trial_interval_count: z.number().int().nullable(),
  active_trial_interval: trialIntervalSchema.nullable(),
  active_trial_interval_count: z.number().int().nullable(),
  trial_end: datetime.nullable(),
  /** Ad-hoc prices per product are not built: the products' own prices are in `products`. */
  prices: z.record(z.string(), z.array(productPriceSchema)).nullable(),
  products: z.array(checkoutProductSchema),
  product: checkoutProductSchema,
  product_price: productPriceSchema,
  discount: checkoutDiscountSchema.nullable(),
  attached_custom_fields: z.array(attachedCustomFieldSchema),
};

/** The seller's view (`/v1/checkouts/`). */
export const checkoutSchema = z.object({
  ...checkoutCommon,
  metadata: metadataSchema,
  customer_external_id: z.string().nullable(),
  /** @polar-sh/sdk@0.48.1's name of `customer_external_id`. */
  external_customer_id: z.string().nullable(),
  customer_metadata: metadataSchema,
  subscription_id: z.uuid().nullable(),
});
export type Checkout = z.infer<typeof checkoutSchema>;

/** The buyer's view (`/v1/checkouts/client/{client_secret}`): no seller metadata. */
export const checkoutPublicSchema = z.object({
  ...checkoutCommon,
  organization: organizationSchema,
});
export type CheckoutPublic = z.infer<typeof checkoutPublicSchema>;

export const checkoutPublicConfirmedSchema = checkoutPublicSchema.extend({
  status: z.literal('confirmed'),
  customer_session_token: z.string(),
});
export type CheckoutPublicConfirmed = z.infer<typeof checkoutPublicConfirmedSchema>;

const emailSchema = emailAddressSchema('A valid email address is required.').transform((email) =>
  email.toLowerCase(),
);
const customerNameSchema = textSchema({ max: TEXT_MAX_LENGTH.name, trim: true });
const amountSchema = minorUnitsSchema().min(0).max(99_999_999);
const taxIdSchema = textSchema({ max: 64, min: 1, trim: true });
const ipSchema = z.union([z.ipv4(), z.ipv6()]);

const successUrlSchema = withTextRule(
  z
    .url({ protocol: /^https?$/ })
    .refine(
      (url) => !url.includes('{') || url.includes('{CHECKOUT_ID}'),
      'The only placeholder is {CHECKOUT_ID}.',
    ),
  { max: TEXT_MAX_LENGTH.url },
);
const embedOriginSchema = withTextRule(
  z
    .url({ protocol: /^https?$/ })
    // zod runs this check even when the URL check above failed: it must not throw on a non-URL.
    .refine(
      (value) => URL.canParse(value) && new URL(value).origin === value.replace(/\/$/, ''),
      'An origin is scheme://host[:port].',
    ),
  { max: TEXT_MAX_LENGTH.url },
).transform((value) => new URL(value).origin);

/**
 * Custom field values are checked against the product's attached fields by the service (text
 * values with the text rule there); keys are slugs.
 */
const customFieldInputSchema = z.record(textSchema({ max: 100 }), z.unknown());

const seatCountSchema = z.int().min(1, 'Choose at least 1 seat.').max(MAX_TIER_UNITS);

/** What the buyer may change, on the client endpoints and (as the seller) on `checkouts.update`. */
const buyerFields = {
  custom_field_data: customFieldInputSchema.optional(),
  product_id: z.uuid().nullable().optional(),
  product_price_id: z.uuid().nullable().optional(),
  amount: amountSchema.nullable().optional(),
  is_business_customer: z.boolean().nullable().optional(),
  customer_name: customerNameSchema.nullable().optional(),
  customer_email: emailSchema.nullable().optional(),
  customer_billing_name: customerNameSchema.nullable().optional(),
  customer_billing_address: addressDraftSchema.nullable().optional(),
  customer_tax_id: taxIdSchema.nullable().optional(),
  seats: seatCountSchema.nullable().optional(),
  locale: offUntilBuilt(textSchema({ max: 10 }), [], 'Checkout localization'),
};

/** Fields of @polar-sh/sdk@0.48.1's checkout create and update whose features are not built yet. */
const checkoutNotYetFields = {
  /** False: no trial, the first period is charged now (null: left as it is, true when created). */
  allow_trial: z.boolean().nullable().optional(),
  /** Overrides the product's trial (domain/checkouts/trials.ts). */
  ...trialInputFields,
  currency: offUntilBuilt(textSchema({ max: 3 }), [], 'Presentment currencies'),
};

export const checkoutCreateSchema = z
  .strictObject({
    payment_processor: z.literal('stripe').default('stripe'),
    metadata: metadataInputSchema.optional(),
    custom_field_data: customFieldInputSchema.optional(),
    discount_id: z.uuid().nullable().optional(),
    allow_discount_codes: z.boolean().default(true),
    require_billing_address: z.boolean().default(false),
    amount: amountSchema.nullable().optional(),
    customer_id: z.uuid().nullable().optional(),
    is_business_customer: z.boolean().default(false),
    customer_external_id: textSchema({ max: 255, min: 1, trim: true }).nullable().optional(),
    customer_name: customerNameSchema.nullable().optional(),
    customer_email: emailSchema.nullable().optional(),
    customer_ip_address: ipSchema.nullable().optional(),
    customer_billing_name: customerNameSchema.nullable().optional(),
    customer_billing_address: addressDraftSchema.nullable().optional(),
    customer_tax_id: taxIdSchema.nullable().optional(),
    customer_metadata: metadataInputSchema.optional(),
    subscription_id: z.uuid().nullable().optional(),
    success_url: successUrlSchema.nullable().optional(),
    embed_origin: embedOriginSchema.nullable().optional(),
    return_url: returnUrlSchema.nullable().optional(),
    products: z.array(z.uuid()).min(1).max(10).optional(),
    product_id: z.uuid().optional(),
    product_price_id: z.uuid().optional(),
    /** @polar-sh/sdk@0.48.1's name of `customer_external_id`. */
    external_customer_id: textSchema({ max: 255, min: 1, trim: true }).nullable().optional(),
    ...checkoutNotYetFields,
    /** Seat-based prices only: the seats to sell (default: `min_seats`, else the price's fewest). */
    seats: seatCountSchema.nullable().optional(),
    /** The buyer's choice of seats, within the price's: these bounds narrow it. */
    min_seats: seatCountSchema.nullable().optional(),
    max_seats: seatCountSchema.nullable().optional(),
    locale: offUntilBuilt(textSchema({ max: 10 }), [], 'Checkout localization'),
    prices: offUntilBuilt(z.record(textSchema({ max: 64 }), z.unknown()), [], 'Ad-hoc prices'),
  })
  .superRefine((input, ctx) => {
    const given = [input.products, input.product_id, input.product_price_id].filter((value) => value);
    if (given.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['products'],
        message: 'Give exactly one of products, product_id or product_price_id.',
      });
    }
    if (
      input.external_customer_id &&
      input.customer_external_id &&
      input.external_customer_id !== input.customer_external_id
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['external_customer_id'],
        message: 'external_customer_id and customer_external_id name the same field: give one.',
      });
    }
  })
  .transform(({ external_customer_id: externalCustomerId, ...input }) => ({
    ...input,
    customer_external_id: input.customer_external_id ?? externalCustomerId,
  }));
export type CheckoutCreate = z.infer<typeof checkoutCreateSchema>;

export const checkoutUpdateSchema = z.strictObject({
  ...buyerFields,
  metadata: metadataInputSchema.optional(),
  discount_id: z.uuid().nullable().optional(),
  allow_discount_codes: z.boolean().nullable().optional(),
  require_billing_address: z.boolean().nullable().optional(),
  customer_ip_address: ipSchema.nullable().optional(),
  customer_metadata: metadataInputSchema.nullable().optional(),
  success_url: successUrlSchema.nullable().optional(),
  embed_origin: embedOriginSchema.nullable().optional(),
  return_url: returnUrlSchema.nullable().optional(),
  ...checkoutNotYetFields,
});
export type CheckoutUpdate = z.infer<typeof checkoutUpdateSchema>;

export const checkoutClientUpdateSchema = z.strictObject({
  ...buyerFields,
  discount_code: textSchema({ max: 256, trim: true }).nullable().optional(),
  /** A buyer may decline the trial (and pay the first period now), never grant themselves one. */
  allow_trial: z.literal(false).nullable().optional(),
});
export type CheckoutClientUpdate = z.infer<typeof checkoutClientUpdateSchema>;

export const checkoutConfirmSchema = checkoutClientUpdateSchema.extend({
  confirmation_token_id: textSchema({ max: 255, min: 1, trim: true }).nullable().optional(),
});
export type CheckoutConfirm = z.infer<typeof checkoutConfirmSchema>;

export const checkoutSortFields = [
  'created_at',
  '-created_at',
  'expires_at',
  '-expires_at',
  'status',
  '-status',
] as const;

export const checkoutListQuerySchema = pageQuerySchema.extend({
  organization_id: oneOrManyUuids.optional(),
  product_id: oneOrManyUuids.optional(),
  customer_id: oneOrManyUuids.optional(),
  status: queryListSchema(checkoutStatusSchema).optional(),
  query: textSchema({ max: TEXT_MAX_LENGTH.name, trim: true }).optional(),
  sorting: sortingSchema(checkoutSortFields),
  /** Our extension, not in Polar's list: the checkouts opened from these checkout links. */
  checkout_link_id: oneOrManyUuids.optional(),
});
export type CheckoutListQuery = z.infer<typeof checkoutListQuerySchema>;

/** The filters of the list, without its page: what a CSV export of the list takes. */
export const checkoutExportQuerySchema = checkoutListQuerySchema.omit({ page: true, limit: true });
export type CheckoutExportQuery = z.infer<typeof checkoutExportQuerySchema>;

export const checkoutIdParamsSchema = z.object({ id: z.uuid({ message: 'Input should be a valid UUID' }) });
export const clientSecretParamsSchema = z.object({ client_secret: textSchema({ max: 255, min: 1 }) });

// ── A checkout link's URL (`GET /api/checkout-links/<secret>?…`) ───────────────────────────────

/** Metadata a link's URL may add to its checkout (Polar's attribution parameters). */
export const CHECKOUT_LINK_METADATA_KEYS = [
  'reference_id',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_content',
  'utm_term',
] as const;

/** What a visit to a checkout link's URL asks for, each value checked on its own. */
export type CheckoutLinkPrefill = {
  /** `embed=true` (Polar's embed script): the hosted page runs in embedded mode. */
  embed: boolean;
  embedOrigin: string | null;
  customerEmail: string | null;
  customerName: string | null;
  discountCode: string | null;
  amount: number | null;
  /** Raw text by slug; the product's fields decide what it means. */
  customFieldData: Record<string, string>;
  metadata: Partial<Record<(typeof CHECKOUT_LINK_METADATA_KEYS)[number], string>>;
};

/** A link is shared widely and must never break: a value that does not fit reads as absent. */
const ignoredWhenInvalid = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

const linkMetadataValueSchema = ignoredWhenInvalid(
  textSchema({ max: METADATA_STRING_MAX_LENGTH, min: 1, trim: true }),
);
const CUSTOM_FIELD_PREFIX = 'custom_field_data.';
const customFieldPrefillSchema = z.tuple([
  customFieldSlugSchema,
  textSchema({ max: TEXT_MAX_LENGTH.description, min: 1, trim: true }),
]);

/**
 * Reads the query (Express's extended parser): `custom_field_data.<slug>=` as Polar's links write
 * it, or `custom_field_data[slug]=`. Repeated or nested values where one is expected are ignored.
 */
export const checkoutLinkQuerySchema = z
  .looseObject({
    embed: ignoredWhenInvalid(z.literal('true')),
    embed_origin: ignoredWhenInvalid(embedOriginSchema),
    customer_email: ignoredWhenInvalid(emailSchema),
    customer_name: ignoredWhenInvalid(textSchema({ max: TEXT_MAX_LENGTH.name, min: 1, trim: true })),
    discount_code: ignoredWhenInvalid(textSchema({ max: 256, min: 1, trim: true })),
    // Minor units, as everywhere on the API; the price's bounds are checked when pricing.
    amount: ignoredWhenInvalid(
      z
        .string()
        .regex(/^\d{1,8}$/)
        .transform(Number),
    ),
    custom_field_data: ignoredWhenInvalid(z.record(z.string(), z.unknown())),
  })
  .transform((query): CheckoutLinkPrefill => {
    const fieldEntries = [
      ...Object.entries(query.custom_field_data ?? {}),
      ...Object.entries(query)
        .filter(([key]) => key.startsWith(CUSTOM_FIELD_PREFIX))
        .map(([key, value]) => [key.slice(CUSTOM_FIELD_PREFIX.length), value] as const),
    ];
    const customFieldData: Record<string, string> = {};
    for (const entry of fieldEntries) {
      const parsed = customFieldPrefillSchema.safeParse(entry);
      if (parsed.success) customFieldData[parsed.data[0]] = parsed.data[1];
    }
    const metadata: CheckoutLinkPrefill['metadata'] = {};
    for (const key of CHECKOUT_LINK_METADATA_KEYS) {
      const value = linkMetadataValueSchema.parse(query[key]);
      if (value !== undefined) metadata[key] = value;
    }
    return {
      embed: query.embed === 'true',
      embedOrigin: query.embed_origin ?? null,
      customerEmail: query.customer_email ?? null,
      customerName: query.customer_name ?? null,
      discountCode: query.discount_code ?? null,
      amount: query.amount ?? null,
      customFieldData,
      metadata,
    };
  });

/**
 * Our extension: the order a succeeded checkout made, as the buyer's confirmation page shows it
 * (`GET /v1/checkouts/client/{client_secret}/order`). The client secret already shows the buyer the
 * checkout's amounts and email; this adds the order's reference and its lines.
 */
export const checkoutOrderSummarySchema = z.object({
  id: z.uuid(),
  number: z.string(),
  created_at: z.iso.datetime({ offset: true }),
  currency: z.string(),
  items: z.array(z.object({ label: z.string(), amount: z.number().int(), tax_amount: z.number().int() })),
  subtotal_amount: z.number().int(),
  discount_amount: z.number().int(),
  tax_amount: z.number().int(),
  total_amount: z.number().int(),
});

export type CheckoutOrderSummary = z.infer<typeof checkoutOrderSummarySchema>;
