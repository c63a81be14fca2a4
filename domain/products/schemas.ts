import { z } from 'zod';
import { benefitSchema } from '../benefits/schemas.js';
import {
  attachedCustomFieldCreateSchema,
  attachedCustomFieldSchema,
  customFieldDataSchema,
} from '../custom-fields/schemas.js';
import { productMediaFileSchema } from '../files/schemas.js';
import { metadataInputSchema, metadataSchema } from '../metadata/schemas.js';
import { nameSchema, offUntilBuilt, TEXT_MAX_LENGTH, textSchema } from '../platform/schemas.js';
import { trialInputFields, trialIntervalSchema } from './trials.js';
import { meterCycleInputFields } from './meter-cycles.js';
import { priceCreateSchema, productPriceSchema } from '../prices/registry.js';
import { MAX_INTERVAL_COUNT, recurringIntervalSchema } from '../prices/schemas.js';

// Polar's Product as @polar-sh/sdk@0.33.2 reads it; spec §3 Product. Each price type owns its
// wire shapes (domain/prices/).

const datetime = z.iso.datetime({ offset: true });

export {
  priceCreateSchema,
  productPriceSchema,
  type PriceCreate,
  type ProductPrice,
} from '../prices/registry.js';
export { recurringIntervalSchema, type RecurringInterval } from '../prices/schemas.js';

export { trialIntervalSchema } from './trials.js';
export const productVisibilitySchema = z.enum(['draft', 'private', 'public']);

/** Fields of @polar-sh/sdk@0.48.1's product create and update whose features are not built yet. */
const productNotYetFields = {
  visibility: offUntilBuilt(productVisibilitySchema, ['public'], 'Draft and private products'),
};

/**
 * Intervals per renewal: 3 with `month` renews every 3 months (Polar: 1 to 999). Null or absent:
 * 1 on a recurring product; a one-time product takes none.
 */
export const recurringIntervalCountSchema = z.number().int().min(1).max(MAX_INTERVAL_COUNT);

export const productSchema = z.object({
  created_at: datetime,
  modified_at: datetime.nullable(),
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  recurring_interval: recurringIntervalSchema.nullable(),
  is_recurring: z.boolean(),
  is_archived: z.boolean(),
  /** Intervals per renewal (3 with `month`: every 3 months), null for one-time. */
  recurring_interval_count: z.number().int().nullable(),
  /** The meter cycle of its own (set at creation only); null: metered prices follow the period. */
  meter_interval: recurringIntervalSchema.nullable(),
  meter_interval_count: z.number().int().nullable(),
  trial_interval: trialIntervalSchema.nullable(),
  trial_interval_count: z.number().int().nullable(),
  /** Every product can be bought through its checkouts and links: drafts and private ones are not built. */
  visibility: productVisibilitySchema,
  organization_id: z.uuid(),
  metadata: metadataSchema,
  /** No order was ever placed for it. */
  is_deletable: z.boolean(),
  /** The product's current prices; archived ones stay readable by id (`getProductPrice`). */
  prices: z.array(productPriceSchema),
  benefits: z.array(benefitSchema),
  medias: z.array(productMediaFileSchema),
  attached_custom_fields: z.array(attachedCustomFieldSchema),
  pause_keeps_benefits: z.boolean().meta({
    description:
      "Tollgate extension: a paused subscription to this product keeps its benefits. False (Polar's behaviour): they are revoked while it is paused and granted again when it resumes.",
    'x-tollgate': true,
  }),
});

export type Product = z.infer<typeof productSchema>;

/** Ours (`x-tollgate`): whether a paused plan keeps its benefits (docs/subscriptions.md, "Pause and resume"). */
const pauseKeepsBenefitsInput = {
  pause_keeps_benefits: z.boolean().nullable().optional().meta({
    description:
      'Tollgate extension: a paused subscription to this product keeps its benefits (default false: revoked while paused).',
    'x-tollgate': true,
  }),
};

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
  recurring_interval_count: recurringIntervalCountSchema.nullable().optional(),
  prices: z.array(priceCreateSchema).min(1),
  medias: z.array(z.uuid()).nullable().optional(),
  attached_custom_fields: z.array(attachedCustomFieldCreateSchema).optional(),
  organization_id: z.uuid().nullable().optional(),
  ...trialInputFields,
  ...productNotYetFields,
  ...meterCycleInputFields,
  ...pauseKeepsBenefitsInput,
});

export const productUpdateSchema = z.strictObject({
  metadata: metadataInputSchema.optional(),
  name: productNameSchema.nullable().optional(),
  description: descriptionSchema,
  recurring_interval: recurringIntervalSchema.nullable().optional(),
  recurring_interval_count: recurringIntervalCountSchema.nullable().optional(),
  is_archived: z.boolean().nullable().optional(),
  prices: z.array(productPriceUpdateSchema).nullable().optional(),
  medias: z.array(z.uuid()).nullable().optional(),
  attached_custom_fields: z.array(attachedCustomFieldCreateSchema).nullable().optional(),
  ...trialInputFields,
  ...productNotYetFields,
  ...pauseKeepsBenefitsInput,
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
  // Polar's dated versions' pause (domain/subscriptions/pause.ts): billed nothing until resumed;
  // @polar-sh/sdk@0.48.1 reads statuses as an open enum.
  'paused',
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

/**
 * The subscription as an order shows it: its own fields, without the objects it points at. The
 * subscriptions domain extends it into the whole Subscription (spec §3).
 */
export const orderSubscriptionSchema = z.object({
  created_at: datetime,
  modified_at: datetime.nullable(),
  id: z.uuid(),
  /** The fixed prices' total for one period after the discount, in minor units of `currency`. */
  amount: z.number().int(),
  currency: z.string(),
  recurring_interval: recurringIntervalSchema,
  /** Intervals per period: 3 with `month` renews every 3 months. */
  recurring_interval_count: z.number().int(),
  status: subscriptionStatusSchema,
  current_period_start: datetime,
  /** The current period's end; an ended subscription's last period's. */
  current_period_end: datetime,
  trial_start: datetime.nullable(),
  trial_end: datetime.nullable(),
  /** The current meter cycle when the product has one of its own (`meter_interval`), else null. */
  current_meter_period_start: datetime.nullable(),
  current_meter_period_end: datetime.nullable(),
  cancel_at_period_end: z.boolean(),
  /** Set to pause at the period's end; paused since; resumes by itself then (pause.ts). */
  pause_at_period_end: z.boolean(),
  paused_at: datetime.nullable(),
  resumes_at: datetime.nullable(),
  /** The seats billed each period at a seat-based price; null for other prices. */
  seats: z.int().nullable().optional(),
  /** Unit-based prices are not built. */
  units: z.number().int().nullable(),
  canceled_at: datetime.nullable(),
  started_at: datetime.nullable(),
  ends_at: datetime.nullable(),
  ended_at: datetime.nullable(),
  /** When dunning started (the first failed charge of a renewal); null once paid (Polar 2026-04 on, every version). */
  past_due_at: datetime.nullable(),
  customer_id: z.uuid(),
  product_id: z.uuid(),
  discount_id: z.uuid().nullable(),
  checkout_id: z.uuid().nullable(),
  customer_cancellation_reason: cancellationReasonSchema.nullable(),
  customer_cancellation_comment: z.string().nullable(),
  metadata: metadataSchema,
  custom_field_data: customFieldDataSchema,
});
export type OrderSubscription = z.infer<typeof orderSubscriptionSchema>;
