import { z } from 'zod';
import { benefitSchema } from '../benefits/schemas.js';
import { attachedCustomFieldCreateSchema, attachedCustomFieldSchema } from '../custom-fields/schemas.js';
import { productMediaFileSchema } from '../files/schemas.js';
import { metadataInputSchema, metadataSchema } from '../metadata/schemas.js';
import { minorUnitsSchema, nameSchema, TEXT_MAX_LENGTH, textSchema } from '../platform/schemas.js';
import {
  MAX_CUSTOM_AMOUNT,
  MAX_PRICE_AMOUNT,
  MIN_PRICE_AMOUNT,
  normalizeUnitAmount,
  SUPPORTED_CURRENCIES,
  UNIT_AMOUNT_DECIMALS,
} from './rules.js';

// Polar's Product and prices as @polar-sh/sdk@0.33.2 reads them; spec §3 Product, Price.

const datetime = z.iso.datetime({ offset: true });

export const recurringIntervalSchema = z.enum(['month', 'year']);
export type RecurringInterval = z.infer<typeof recurringIntervalSchema>;
export const priceTypeSchema = z.enum(['one_time', 'recurring']);

const priceCommon = {
  created_at: datetime,
  modified_at: datetime.nullable(),
  id: z.uuid(),
  is_archived: z.boolean(),
  product_id: z.uuid(),
  type: priceTypeSchema,
  recurring_interval: recurringIntervalSchema.nullable(),
};

export const productPriceSchema = z.discriminatedUnion('amount_type', [
  z.object({ ...priceCommon, amount_type: z.literal('free') }),
  z.object({
    ...priceCommon,
    amount_type: z.literal('fixed'),
    price_currency: z.string(),
    price_amount: z.number().int(),
  }),
  z.object({
    ...priceCommon,
    amount_type: z.literal('custom'),
    price_currency: z.string(),
    minimum_amount: z.number().int().nullable(),
    maximum_amount: z.number().int().nullable(),
    preset_amount: z.number().int().nullable(),
  }),
  z.object({
    ...priceCommon,
    amount_type: z.literal('metered_unit'),
    price_currency: z.string(),
    unit_amount: z.string(),
    cap_amount: z.number().int().nullable(),
    meter_id: z.uuid(),
    meter: z.object({ id: z.uuid(), name: z.string() }),
  }),
]);

export type ProductPrice = z.infer<typeof productPriceSchema>;

export const productSchema = z.object({
  created_at: datetime,
  modified_at: datetime.nullable(),
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  recurring_interval: recurringIntervalSchema.nullable(),
  is_recurring: z.boolean(),
  is_archived: z.boolean(),
  organization_id: z.uuid(),
  metadata: metadataSchema,
  /** The product's current prices; archived ones stay readable by id (`getProductPrice`). */
  prices: z.array(productPriceSchema),
  benefits: z.array(benefitSchema),
  medias: z.array(productMediaFileSchema),
  attached_custom_fields: z.array(attachedCustomFieldSchema),
});

export type Product = z.infer<typeof productSchema>;

const currencySchema = z
  .enum(SUPPORTED_CURRENCIES, { message: 'Currently, only usd is supported.' })
  .default(SUPPORTED_CURRENCIES[0]);
const priceAmountSchema = minorUnitsSchema().min(MIN_PRICE_AMOUNT).max(MAX_PRICE_AMOUNT);
const customBoundSchema = priceAmountSchema.max(MAX_CUSTOM_AMOUNT).nullable().optional();
/**
 * Polar's pay-what-you-want minimum: 0 makes the price "free or pay what you want" (the checkout
 * then takes 0 or a chargeable amount); any other minimum must itself be chargeable.
 */
const customMinimumSchema = minorUnitsSchema()
  .min(0)
  .max(MAX_PRICE_AMOUNT)
  .refine((amount) => amount === 0 || amount >= MIN_PRICE_AMOUNT, {
    message: `The minimum amount must be 0 (free or pay what you want) or at least ${MIN_PRICE_AMOUNT}.`,
  });

const unitAmountSchema = z.union([z.number(), textSchema({ max: 64 })]).transform((value, ctx) => {
  const normalized = normalizeUnitAmount(value);
  if (normalized === null) {
    ctx.addIssue({
      code: 'custom',
      message: `Expected a positive amount in cents below 100000 with at most ${UNIT_AMOUNT_DECIMALS} decimals (0.5 for half a cent); more decimals are refused, not rounded.`,
    });
    return z.NEVER;
  }
  return normalized;
});

export const priceCreateSchema = z.discriminatedUnion('amount_type', [
  z.strictObject({
    amount_type: z.literal('fixed'),
    price_amount: priceAmountSchema,
    price_currency: currencySchema,
  }),
  z.strictObject({
    amount_type: z.literal('custom'),
    price_currency: currencySchema,
    minimum_amount: customMinimumSchema.nullable().optional(),
    maximum_amount: customBoundSchema,
    preset_amount: customBoundSchema,
  }),
  z.strictObject({ amount_type: z.literal('free') }),
  z.strictObject({
    amount_type: z.literal('metered_unit'),
    meter_id: z.uuid(),
    price_currency: currencySchema,
    unit_amount: unitAmountSchema,
    cap_amount: minorUnitsSchema().min(0).max(MAX_PRICE_AMOUNT).nullable().optional(),
  }),
]);

export type PriceCreate = z.infer<typeof priceCreateSchema>;

/** In an update, `{ id }` keeps an existing price; anything else creates one. */
export const productPriceUpdateSchema = z.discriminatedUnion('amount_type', [
  z.strictObject({ amount_type: z.undefined().optional(), id: z.uuid() }),
  ...priceCreateSchema.options,
]);

export type PriceUpdate = z.infer<typeof productPriceUpdateSchema>;

/** Polar's product names have at least 3 characters; an empty description means none. */
const productNameSchema = nameSchema(TEXT_MAX_LENGTH.name, 3);
const descriptionSchema = textSchema({ max: TEXT_MAX_LENGTH.description })
  .nullable()
  .optional()
  .transform((value) => (value === '' ? null : value));

export const productCreateSchema = z.strictObject({
  metadata: metadataInputSchema.optional(),
  name: productNameSchema,
  description: descriptionSchema,
  recurring_interval: recurringIntervalSchema.nullable().default(null),
  prices: z.array(priceCreateSchema).min(1),
  medias: z.array(z.uuid()).nullable().optional(),
  attached_custom_fields: z.array(attachedCustomFieldCreateSchema).optional(),
  organization_id: z.uuid().nullable().optional(),
});

export const productUpdateSchema = z.strictObject({
  metadata: metadataInputSchema.optional(),
  name: productNameSchema.nullable().optional(),
  description: descriptionSchema,
  recurring_interval: recurringIntervalSchema.nullable().optional(),
  is_archived: z.boolean().nullable().optional(),
  prices: z.array(productPriceUpdateSchema).nullable().optional(),
  medias: z.array(z.uuid()).nullable().optional(),
  attached_custom_fields: z.array(attachedCustomFieldCreateSchema).nullable().optional(),
});

export const productBenefitsUpdateSchema = z.strictObject({ benefits: z.array(z.uuid()) });

export type ProductCreate = z.infer<typeof productCreateSchema>;
export type ProductUpdate = z.infer<typeof productUpdateSchema>;

export const productSortFields = [
  'created_at',
  '-created_at',
  'name',
  '-name',
  'price_amount_type',
  '-price_amount_type',
  'price_amount',
  '-price_amount',
] as const;

// Subscriptions to a product: their statuses (Polar's, spec §4), read by the subscriptions domain
// and by what reads subscriptions below it (customer state, benefit grants).

export const SUBSCRIPTION_STATUSES = [
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'canceled',
  'unpaid',
] as const;
export const subscriptionStatusSchema = z.enum(SUBSCRIPTION_STATUSES);
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;

/** `active=true` lists these, `active=false` the rest (Polar's groups). */
export const ACTIVE_STATUSES: readonly SubscriptionStatus[] = ['trialing', 'active'];
/** Renewed at the end of each period and charged: the active group and past_due. */
export const BILLABLE_STATUSES: readonly SubscriptionStatus[] = ['trialing', 'active', 'past_due'];

export const CANCELLATION_REASONS = [
  'customer_service',
  'low_quality',
  'missing_features',
  'switched_service',
  'too_complex',
  'too_expensive',
  'unused',
  'other',
] as const;
export const cancellationReasonSchema = z.enum(CANCELLATION_REASONS);
