import { z } from 'zod';
import { metadataInputSchema, metadataSchema } from '../metadata/schemas.js';
import {
  minorUnitsSchema,
  oneOrManyUuids,
  pageQuerySchema,
  sortingSchema,
  textSchema,
} from '../platform/schemas.js';

// Polar's Refund as @polar-sh/sdk@0.33.2 reads it (spec §3 Refund, §4 refund status).

const datetime = z.iso.datetime({ offset: true });

export const REFUND_STATUSES = ['pending', 'succeeded', 'failed', 'canceled'] as const;
export const refundStatusSchema = z.enum(REFUND_STATUSES);
export type RefundStatus = z.infer<typeof refundStatusSchema>;
export const REFUND_REASONS = [
  'duplicate',
  'fraudulent',
  'customer_request',
  'service_disruption',
  'satisfaction_guarantee',
  'other',
] as const;
export const refundReasonSchema = z.enum(REFUND_REASONS);

export const refundSchema = z.object({
  created_at: datetime,
  modified_at: datetime.nullable(),
  id: z.uuid(),
  metadata: metadataSchema,
  status: refundStatusSchema,
  reason: refundReasonSchema,
  amount: z.number().int(),
  tax_amount: z.number().int(),
  currency: z.string(),
  organization_id: z.uuid(),
  order_id: z.uuid(),
  subscription_id: z.uuid().nullable(),
  customer_id: z.uuid(),
  revoke_benefits: z.boolean(),
  /** The dispute a refund headed off: disputes are not built. */
  dispute: z.null(),
});
export type Refund = z.infer<typeof refundSchema>;

export const refundCreateSchema = z.strictObject({
  metadata: metadataInputSchema.optional(),
  order_id: z.uuid(),
  reason: refundReasonSchema,
  /** Excluding tax, minor units; the tax is refunded in proportion. */
  amount: minorUnitsSchema().min(1, 'A refund must be at least 1.'),
  comment: textSchema({ max: 1000, trim: true }).nullable().optional(),
  revoke_benefits: z.boolean().default(false),
});
export type RefundCreate = z.infer<typeof refundCreateSchema>;

export const refundSortFields = ['created_at', '-created_at', 'amount', '-amount'] as const;

export const refundListQuerySchema = pageQuerySchema.extend({
  id: oneOrManyUuids.optional(),
  organization_id: oneOrManyUuids.optional(),
  order_id: oneOrManyUuids.optional(),
  subscription_id: oneOrManyUuids.optional(),
  customer_id: oneOrManyUuids.optional(),
  succeeded: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
  sorting: sortingSchema(refundSortFields),
});
export type RefundListQuery = z.infer<typeof refundListQuerySchema>;
