import { z } from 'zod';
import { customerSchema } from '../customers/schemas.js';
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
    /** From 2026-04 (every version carries them; 0.48.1 ignores them). */
    reason: z.string().nullable(),
    evidence_due_by: datetime.nullable(),
    /** The evidence deadline passed while the dispute still needed a response. */
    past_due: z.boolean(),
    order_id: z.uuid(),
    payment_id: z.uuid(),
    customer: customerSchema,
    /** Polar's support case of the dispute; Tollgate opens none. */
    case_id: z.null(),
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
