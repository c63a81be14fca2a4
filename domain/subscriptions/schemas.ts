import { z } from 'zod';
import { MAX_TIER_UNITS } from '../prices/tiers.js';
import { benefitTypeSchema } from '../benefits/schemas.js';
import { customerSchema } from '../customers/schemas.js';
import { discountSchema } from '../discounts/schemas.js';
import { meterSchema } from '../meters/schemas.js';
import { metadataInputSchema, metadataQuerySchema } from '../metadata/schemas.js';
import { orderSubscriptionSchema } from '../orders/schemas.js';
import { prorationBehaviorSchema } from '../organizations/schemas.js';
import {
  listResourceSchema,
  oneOrManyUuids,
  pageQuerySchema,
  refusedUntilBuilt,
  sortingSchema,
  textSchema,
} from '../platform/schemas.js';
import {
  cancellationReasonSchema,
  productPriceSchema,
  productSchema,
  recurringIntervalSchema,
} from '../products/schemas.js';

// Polar's Subscription as @polar-sh/sdk@0.33.2 reads it (spec §3 Subscription, §4 statuses), and
// the bodies of PATCH /v1/subscriptions/{id}, matched by shape as Polar matches them.

const datetime = z.iso.datetime({ offset: true });

// The statuses live with the products subscribed to, so that customer state and benefit grants,
// below this domain, read them too.
export {
  ACTIVE_STATUSES,
  BILLABLE_STATUSES,
  CANCELLATION_REASONS,
  cancellationReasonSchema,
  SUBSCRIPTION_STATUSES,
  subscriptionStatusSchema,
  type SubscriptionStatus,
} from '../products/schemas.js';

export const subscriptionMeterSchema = z.object({
  created_at: datetime,
  modified_at: datetime.nullable(),
  id: z.uuid(),
  consumed_units: z.number(),
  credited_units: z.number().int(),
  amount: z.number().int(),
  meter_id: z.uuid(),
  meter: meterSchema,
});

/** One phase of `price_schedule`: consecutive periods billed the same amount (schedule.ts). */
export const pricePhaseSchema = z.object({
  amount: z.number().int(),
  periods: z.number().int().nullable(),
  starts_at: datetime,
  ends_at: datetime.nullable(),
  /** Present (true) on a free trial's phase: nothing is charged in it; the next is billed from its end. */
  trial: z.literal(true).optional(),
});
export type PricePhaseWire = z.infer<typeof pricePhaseSchema>;

/**
 * @polar-sh/sdk@0.48.1 PendingSubscriptionUpdate: what the renewal at `applies_at` (the current
 * period's end) will change: another product, other seats (`pending_seats`; null when the change
 * to another product decides them), or both. Unit-based prices do not exist, so `units` is null;
 * it is required (nullable) by the dated versions' model (polar-sdk 1.0.2).
 */
export const pendingSubscriptionUpdateSchema = z
  .object({
    created_at: datetime,
    modified_at: datetime.nullable(),
    id: z.uuid(),
    applies_at: datetime,
    product_id: z.uuid().nullable(),
    seats: z.number().int().nullable(),
    units: z.number().int().nullable(),
  })
  .meta({ id: 'PendingSubscriptionUpdate' });
export type PendingSubscriptionUpdate = z.infer<typeof pendingSubscriptionUpdateSchema>;

export const subscriptionSchema = orderSubscriptionSchema.extend({
  customer: customerSchema,
  product: productSchema,
  discount: discountSchema.omit({ products: true }).nullable(),
  prices: z.array(productPriceSchema),
  meters: z.array(subscriptionMeterSchema),
  /** A plan change scheduled for the period's end (`proration_behavior: next_period`). */
  pending_update: pendingSubscriptionUpdateSchema.nullable(),
  price_schedule: z.array(pricePhaseSchema).meta({
    description:
      'Tollgate extension: what the fixed prices cost per period from the current period on, after the discount as each renewal will apply it (a `once` or `repeating` discount ends), in phases of equal amount: `periods` periods from `starts_at` to `ends_at`; a free trial is a first phase of its own (`trial` true, amount 0). The last phase has `periods` and `ends_at` null: it goes on for as long as the plan renews. A plan set to cancel at the period end has its current period only; an ended plan, none. Usage of metered prices and tax come on top.',
    'x-tollgate': true,
  }),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const subscriptionSortFields = [
  'customer',
  '-customer',
  'status',
  '-status',
  'started_at',
  '-started_at',
  'current_period_end',
  '-current_period_end',
  'amount',
  '-amount',
  'product',
  '-product',
  'discount',
  '-discount',
] as const;

export const subscriptionListQuerySchema = pageQuerySchema.extend({
  organization_id: oneOrManyUuids.optional(),
  product_id: oneOrManyUuids.optional(),
  customer_id: oneOrManyUuids.optional(),
  discount_id: oneOrManyUuids.optional(),
  active: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
  metadata: metadataQuerySchema.optional(),
  sorting: sortingSchema(subscriptionSortFields),
});
export type SubscriptionListQuery = z.infer<typeof subscriptionListQuerySchema>;

const cancellationFields = {
  customer_cancellation_reason: cancellationReasonSchema.nullable().optional(),
  customer_cancellation_comment: textSchema({ max: 1000 }).nullable().optional(),
};

/** @polar-sh/sdk@0.48.1's behaviours (`reset` only where the organization turned it on). */
export const prorationBehaviorInputSchema = prorationBehaviorSchema;

/** @polar-sh/sdk@0.48.1 SubscriptionUpdateSeats and CustomerSubscriptionUpdateSeats (seat-changes.ts). */
export const seatChangeSchema = z.strictObject({
  seats: z
    .int()
    .min(1, { error: 'A plan holds at least 1 seat.' })
    .max(MAX_TIER_UNITS, { error: `A plan holds at most ${MAX_TIER_UNITS} seats.` }),
  proration_behavior: prorationBehaviorInputSchema.nullable().optional(),
});

/** Polar's SubscriptionUpdateTrial `trial_end`: a date, or `"now"` to end the trial (trial-changes.ts). */
const trialEndValueSchema = z.union([z.literal('now'), datetime]);
// With a plan or discount change, the trial is changed by an update of its own (as against Polar).
const trialEndInputSchema = z
  .null({ error: 'Change the trial in an update of its own: {"trial_end": …}.' })
  .optional();

export const subscriptionUpdateSchema = z.union([
  z.strictObject({
    product_id: z.uuid(),
    proration_behavior: prorationBehaviorInputSchema.nullable().optional(),
    trial_end: trialEndInputSchema,
  }),
  z.strictObject({ discount_id: z.uuid().nullable(), trial_end: trialEndInputSchema }),
  z.strictObject({ trial_end: trialEndValueSchema }),
  z.strictObject({ cancel_at_period_end: z.boolean(), ...cancellationFields }),
  z.strictObject({ revoke: z.literal(true), ...cancellationFields }),
  // @polar-sh/sdk@0.48.1 SubscriptionUpdateClear: cancels the change scheduled for the period's end.
  z.strictObject({ pending_update: z.null() }),
  seatChangeSchema,
  z.strictObject({
    current_billing_period_end: refusedUntilBuilt(textSchema({ max: 64 }), 'Moving the billing period'),
  }),
  // Polar's SubscriptionPause and SubscriptionResume (dated versions; pause.ts).
  z.strictObject({ pause_at_period_end: z.boolean(), resumes_at: datetime.nullable().optional() }),
  z.strictObject({ resume: z.literal(true) }),
]);
export type SubscriptionUpdate = z.infer<typeof subscriptionUpdateSchema>;

export const subscriptionIdParamsSchema = z.object({
  id: z.uuid({ message: 'Input should be a valid UUID' }),
});

/** Our extension: what a plan change would bill, before the seller confirms it. */
export const prorationPreviewRequestSchema = z.strictObject({
  product_id: z.uuid(),
  proration_behavior: prorationBehaviorSchema.nullable().optional(),
});
export type ProrationPreviewRequest = z.infer<typeof prorationPreviewRequestSchema>;

/** A benefit as a plan change's preview names it. */
const planBenefitSchema = z.object({ id: z.uuid(), type: benefitTypeSchema, description: z.string() });

export const prorationPreviewSchema = z.object({
  proration_behavior: prorationBehaviorSchema,
  /** When the change takes effect: now, or the period's end with `next_period` (nothing billed now). */
  applies_at: datetime,
  currency: z.string(),
  /** The proration lines, credits negative, in minor units. */
  lines: z.array(z.object({ label: z.string(), amount: z.number().int() })),
  /** Charged at once (before tax) with `invoice`; 0 with `prorate`. */
  amount_due_now: z.number().int(),
  /** Lines (or the credit left) that wait for the next renewal. */
  amount_carried_to_next_invoice: z.number().int(),
  /** The new plan's amount per period, after the discount. */
  new_amount: z.number().int(),
  recurring_interval: recurringIntervalSchema,
  /** The new plan's intervals per period. */
  recurring_interval_count: z.number().int(),
  current_period_end: datetime,
  price_schedule: z.array(pricePhaseSchema).meta({
    description:
      "Tollgate extension: the subscription's `price_schedule` once changed, from its current period on (a discount that ends says when).",
    'x-tollgate': true,
  }),
  /** What the customer gets with the new plan that the current one does not give. */
  benefits_gained: z.array(planBenefitSchema),
  /** What the current plan gives that the new one does not: taken away at the change. */
  benefits_lost: z.array(planBenefitSchema),
});
export type ProrationPreview = z.infer<typeof prorationPreviewSchema>;

/** One try to collect an order of the subscription (our extension, for the seller's dashboard). */
export const subscriptionPaymentAttemptSchema = z
  .object({
    id: z.uuid(),
    order_id: z.uuid(),
    attempt: z.number().int().min(1),
    status: z.enum(['succeeded', 'failed']),
    decline_code: z.string().nullable(),
    message: z.string().nullable(),
    created_at: datetime,
  })
  .meta({ id: 'SubscriptionPaymentAttempt' });

export type SubscriptionPaymentAttempt = z.infer<typeof subscriptionPaymentAttemptSchema>;

/** Newest first, with when the next try of a failing order is due (null when none is). */
export const subscriptionPaymentAttemptListSchema = listResourceSchema(
  subscriptionPaymentAttemptSchema,
).extend({
  next_attempt_at: datetime.nullable(),
});

export const subscriptionPaymentAttemptQuerySchema = pageQuerySchema;

/** One metered price's current period as the next renewal bills it (our extension). */
export const upcomingInvoiceMeterSchema = z
  .object({
    product_price_id: z.uuid(),
    meter_id: z.uuid(),
    meter_name: z.string(),
    /** What the meter counted in the period so far (from when the price joined the plan, if later). */
    consumed_units: z.number(),
    /**
     * The period's meter credits (a meter credit benefit) offered to this price's usage, taken off
     * first; those that usage billed earlier in the period took (a plan change's dropped price) are
     * not offered again.
     */
    credited_units: z.number(),
    /** Consumed less credited, never below zero. */
    billable_units: z.number(),
    /** Cents per unit, a decimal: sub-cent prices are common. */
    unit_amount: z.string(),
    cap_amount: z.number().int().nullable(),
    /** The cap lowered the amount. */
    capped: z.boolean(),
    /** Billable units × unit amount, rounded once half up, capped: the line's amount. */
    amount: z.number().int(),
  })
  .meta({ id: 'UpcomingInvoiceMeter' });
export type UpcomingInvoiceMeter = z.infer<typeof upcomingInvoiceMeterSchema>;

export const UPCOMING_INVOICE_LINE_TYPES = ['fixed', 'metered', 'proration'] as const;

/** A line of the next renewal's order, as it will be written. */
export const upcomingInvoiceLineSchema = z
  .object({
    /** A fee of the period the order opens, a metered price's usage, or a line a plan change left. */
    type: z.enum(UPCOMING_INVOICE_LINE_TYPES),
    label: z.string(),
    amount: z.number().int(),
    tax_amount: z.number().int(),
    proration: z.boolean(),
    product_price_id: z.uuid().nullable(),
    /** What the line pays for: the next period for a fee, the current one for usage. */
    period_start: datetime.nullable(),
    period_end: datetime.nullable(),
    meter: upcomingInvoiceMeterSchema.nullable(),
  })
  .meta({ id: 'UpcomingInvoiceLine' });
export type UpcomingInvoiceLine = z.infer<typeof upcomingInvoiceLineSchema>;

/**
 * Our extension: the order the subscription's next renewal will make, priced now by the code the
 * renewal prices it with, without making it. Amounts in minor units of `currency`.
 */
export const upcomingInvoiceSchema = z
  .object({
    subscription_id: z.uuid(),
    currency: z.string(),
    /** When the order will be made and charged (the current period's end); null when none will be. */
    billed_at: datetime.nullable(),
    /** Set to cancel: the order is its final one, billing only the usage and debits left. */
    ends_subscription: z.boolean(),
    /** The current period, whose usage the order bills in arrears. */
    period_start: datetime,
    period_end: datetime,
    lines: z.array(upcomingInvoiceLineSchema),
    subtotal_amount: z.number().int(),
    /** The discount on the fees as it applies to the period the order opens (never on usage). */
    discount_amount: z.number().int(),
    discount_id: z.uuid().nullable(),
    net_amount: z.number().int(),
    tax_amount: z.number().int(),
    total_amount: z.number().int(),
    /**
     * Credit the order cannot absorb, carried to the order after it; 0 for a plan that ends, whose
     * final order records what is left as owed to the customer.
     */
    carried_credit_amount: z.number().int(),
    /** Every metered price of the plan in the current period, those that bill nothing included. */
    meters: z.array(upcomingInvoiceMeterSchema),
  })
  .meta({ id: 'UpcomingInvoice' });
export type UpcomingInvoice = z.infer<typeof upcomingInvoiceSchema>;

/**
 * `subscriptions.period_meter_credits` as stored (never on the wire): by meter id, the units of the
 * current period's meter credits that usage billed before the renewal already took.
 */
export const periodMeterCreditsSchema = z.record(z.string(), z.string().regex(/^\d+(\.\d+)?$/));
export type PeriodMeterCredits = z.infer<typeof periodMeterCreditsSchema>;

// `subscriptions.create` (@polar-sh/sdk@0.48.1 SubscriptionCreateCustomer | SubscriptionCreateExternalCustomer):
// a subscription to a free plan, which no checkout has to collect anything for.
const subscriptionCreateBase = {
  metadata: metadataInputSchema.optional(),
  product_id: z.uuid(),
};
export const subscriptionCreateSchema = z.union([
  z.strictObject({ ...subscriptionCreateBase, customer_id: z.uuid() }),
  z.strictObject({ ...subscriptionCreateBase, external_customer_id: textSchema({ max: 255, min: 1 }) }),
]);
export type SubscriptionCreate = z.infer<typeof subscriptionCreateSchema>;
