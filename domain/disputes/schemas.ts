import { z } from 'zod';
import { DISPUTE_STATUSES } from '../payments/processor.js';
import { oneOrManyUuids, pageQuerySchema, queryListSchema, sortingSchema } from '../platform/schemas.js';

const datetime = z.iso.datetime({ offset: true });

export { DISPUTE_STATUSES };
export const disputeStatusSchema = z.enum(DISPUTE_STATUSES).meta({ id: 'DisputeStatus' });

/** Polar's Dispute (`@polar-sh/sdk@0.48.1`, components/dispute.ts). */
export const disputeSchema = z
  .object({
    created_at: datetime,
    modified_at: datetime.nullable(),
    id: z.uuid(),
    status: disputeStatusSchema,
    /** Won or lost. */
    resolved: z.boolean(),
    /** Prevented, won or lost: nothing more will happen to it. */
    closed: z.boolean(),
    /** Minor units disputed, excluding tax; `tax_amount` is the order's tax share of the charge. */
    amount: z.number().int(),
    tax_amount: z.number().int(),
    currency: z.string(),
    order_id: z.uuid(),
    payment_id: z.uuid(),
  })
  .meta({ id: 'Dispute' });
export type Dispute = z.infer<typeof disputeSchema>;

export const disputeSortFields = ['created_at', '-created_at', 'amount', '-amount'] as const;

export const disputeListQuerySchema = pageQuerySchema.extend({
  organization_id: oneOrManyUuids.optional(),
  order_id: oneOrManyUuids.optional(),
  status: queryListSchema(disputeStatusSchema).optional(),
  sorting: sortingSchema(disputeSortFields),
});
export type DisputeListQuery = z.infer<typeof disputeListQuerySchema>;
