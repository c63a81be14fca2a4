import { z } from 'zod';
import { metadataInputSchema, metadataSchema } from '../metadata/schemas.js';
import { recurringIntervalSchema } from '../prices/schemas.js';
import {
  basisPointsSchema,
  minorUnitsSchema,
  nameSchema,
  offUntilBuilt,
  oneOrManyUuids,
  pageQuerySchema,
  sortingSchema,
  TEXT_MAX_LENGTH,
  textSchema,
} from '../platform/schemas.js';

// Polar's discounts as @polar-sh/sdk@0.33.2 reads them (spec §3 Discount).

export const discountTypeSchema = z.enum(['fixed', 'percentage']);
export const discountDurationSchema = z.enum(['once', 'forever', 'repeating']);
export type DiscountType = z.infer<typeof discountTypeSchema>;
export type DiscountDuration = z.infer<typeof discountDurationSchema>;

export const discountProductSchema = z.object({
  metadata: metadataSchema,
  created_at: z.iso.datetime({ offset: true }),
  modified_at: z.iso.datetime({ offset: true }).nullable(),
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  recurring_interval: recurringIntervalSchema.nullable(),
  is_recurring: z.boolean(),
  is_archived: z.boolean(),
  organization_id: z.uuid(),
});

const discountBase = {
  created_at: z.iso.datetime({ offset: true }),
  modified_at: z.iso.datetime({ offset: true }).nullable(),
  id: z.uuid(),
  metadata: metadataSchema,
  name: z.string(),
  code: z.string().nullable(),
  starts_at: z.iso.datetime({ offset: true }).nullable(),
  ends_at: z.iso.datetime({ offset: true }).nullable(),
  max_redemptions: z.number().int().nullable(),
  /** A limit per customer is not built: each may redeem up to `max_redemptions`. */
  max_redemptions_per_customer: z.number().int().nullable(),
  redemptions_count: z.number().int(),
  organization_id: z.uuid(),
  products: z.array(discountProductSchema),
};

/** One shape for the four variants Polar has (fixed/percentage × once-or-forever/repeating). */
export const discountSchema = z.object({
  ...discountBase,
  type: discountTypeSchema,
  duration: discountDurationSchema,
  duration_in_months: z.number().int().optional(),
  amount: z.number().int().optional(),
  currency: z.string().optional(),
  /** A fixed discount's amount per currency: its one currency's (@polar-sh/sdk@0.48.1). */
  amounts: z.record(z.string(), z.number().int()).optional(),
  basis_points: z.number().int().optional(),
});
export type Discount = z.infer<typeof discountSchema>;

const MAX_AMOUNT = 99_999_999;
const codeSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{3,256}$/, 'Codes are 3 to 256 letters, digits, dashes or underscores.');
const datetime = z.iso.datetime({ offset: true });

const discountFields = {
  name: nameSchema(256),
  code: codeSchema.nullable().optional(),
  starts_at: datetime.nullable().optional(),
  ends_at: datetime.nullable().optional(),
  max_redemptions: z.number().int().min(1).max(2_147_483_647).nullable().optional(),
  products: z.array(z.uuid()).max(100).nullable().optional(),
  metadata: metadataInputSchema.optional(),
};

/** @polar-sh/sdk@0.48.1: a fixed discount's amount per presentment currency. */
const presentmentAmountsSchema = offUntilBuilt(
  z.record(textSchema({ max: 3 }), z.number().int()),
  [],
  'Discount amounts per presentment currency',
);

export const discountCreateSchema = z
  .strictObject({
    ...discountFields,
    type: discountTypeSchema,
    duration: discountDurationSchema,
    duration_in_months: z.number().int().min(1).max(999).optional(),
    amount: minorUnitsSchema().min(1).max(MAX_AMOUNT).optional(),
    currency: z.literal('usd').default('usd'),
    basis_points: basisPointsSchema().min(1).max(10_000).optional(),
    organization_id: z.uuid().nullable().optional(),
    amounts: presentmentAmountsSchema,
  })
  .superRefine((discount, context) => {
    const issue = (path: string, message: string) =>
      context.addIssue({ code: 'custom', path: [path], message });
    if (discount.type === 'fixed' && discount.amount === undefined)
      issue('amount', 'A fixed discount needs an amount.');
    if (discount.type === 'percentage' && discount.basis_points === undefined) {
      issue('basis_points', 'A percentage discount needs basis_points.');
    }
    if (discount.type === 'fixed' && discount.basis_points !== undefined) {
      issue('basis_points', 'A fixed discount has an amount, not basis_points.');
    }
    if (discount.type === 'percentage' && discount.amount !== undefined) {
      issue('amount', 'A percentage discount has basis_points, not an amount.');
    }
    if (discount.duration === 'repeating' && discount.duration_in_months === undefined) {
      issue('duration_in_months', 'A repeating discount needs duration_in_months.');
    }
    if (discount.duration !== 'repeating' && discount.duration_in_months !== undefined) {
      issue('duration_in_months', 'Only repeating discounts have duration_in_months.');
    }
    if (discount.starts_at && discount.ends_at && discount.starts_at >= discount.ends_at) {
      issue('ends_at', 'ends_at must be after starts_at.');
    }
  });
export type DiscountCreate = z.infer<typeof discountCreateSchema>;

export const discountUpdateSchema = z.strictObject({
  ...discountFields,
  name: discountFields.name.nullable().optional(),
  type: discountTypeSchema.nullable().optional(),
  duration: discountDurationSchema.nullable().optional(),
  duration_in_months: z.number().int().min(1).max(999).nullable().optional(),
  amount: minorUnitsSchema().min(1).max(MAX_AMOUNT).nullable().optional(),
  currency: z.literal('usd').nullable().optional(),
  basis_points: basisPointsSchema().min(1).max(10_000).nullable().optional(),
  amounts: presentmentAmountsSchema,
});
export type DiscountUpdate = z.infer<typeof discountUpdateSchema>;

export const discountSortFields = [
  'created_at',
  '-created_at',
  'name',
  '-name',
  'code',
  '-code',
  'redemptions_count',
  '-redemptions_count',
] as const;

export const discountListQuerySchema = pageQuerySchema.extend({
  organization_id: oneOrManyUuids.optional(),
  query: textSchema({ max: TEXT_MAX_LENGTH.name }).optional(),
  sorting: sortingSchema(discountSortFields),
});
export type DiscountListQuery = z.infer<typeof discountListQuerySchema>;

export const discountIdParamsSchema = z.object({ id: z.uuid({ message: 'Input should be a valid UUID' }) });
