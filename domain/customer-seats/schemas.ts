import { z } from 'zod';
import { metadataInputSchema, metadataSchema } from '../metadata/schemas.js';
import { emailAddressSchema, textSchema } from '../platform/schemas.js';

// Polar's customer seats as @polar-sh/sdk@0.48.1 and polar-sdk 1.0.2 (every dated version) read
// them: one shape in all versions.

export const SEAT_STATUSES = ['pending', 'claimed', 'revoked'] as const;
export type SeatStatus = (typeof SEAT_STATUSES)[number];

const timestamp = z.iso.datetime({ offset: true });

export const customerSeatSchema = z
  .object({
    created_at: timestamp,
    modified_at: timestamp.nullable(),
    id: z.uuid(),
    subscription_id: z.uuid().nullable(),
    order_id: z.uuid().nullable(),
    status: z.enum(SEAT_STATUSES),
    customer_id: z.uuid().nullable(),
    // Team customers with members (Polar's member model) are not built: no seat has a member.
    member_id: z.uuid().nullable(),
    member: z.null(),
    email: z.string().nullable(),
    customer_email: z.string().nullable(),
    invitation_token_expires_at: timestamp.nullable(),
    claimed_at: timestamp.nullable(),
    revoked_at: timestamp.nullable(),
    seat_metadata: metadataSchema.nullable(),
  })
  .meta({ id: 'CustomerSeat' });
export type CustomerSeat = z.infer<typeof customerSeatSchema>;

export const seatsListSchema = z
  .object({
    seats: z.array(customerSeatSchema),
    available_seats: z.number().int(),
    total_seats: z.number().int(),
  })
  .meta({ id: 'SeatsList' });

/** Polar caps seat metadata at 10 keys and 1 KB. */
export const SEAT_METADATA_MAX_KEYS = 10;
export const SEAT_METADATA_MAX_BYTES = 1024;

const seatMetadataSchema = metadataInputSchema
  .refine((metadata) => Object.keys(metadata).length <= SEAT_METADATA_MAX_KEYS, {
    message: `A seat takes at most ${SEAT_METADATA_MAX_KEYS} metadata keys.`,
  })
  .refine((metadata) => Buffer.byteLength(JSON.stringify(metadata)) <= SEAT_METADATA_MAX_BYTES, {
    message: `A seat's metadata takes at most ${SEAT_METADATA_MAX_BYTES} bytes.`,
  });

const purchaseFields = {
  subscription_id: z.uuid().nullable().optional(),
  order_id: z.uuid().nullable().optional(),
};

const holderFields = {
  email: emailAddressSchema().nullable().optional(),
  external_customer_id: textSchema({ min: 1, max: 400 }).nullable().optional(),
  customer_id: z.uuid().nullable().optional(),
  // Members belong to team customers (not built): naming one is refused in the service.
  external_member_id: textSchema({ min: 1, max: 400 }).nullable().optional(),
  member_id: z.uuid().nullable().optional(),
  metadata: seatMetadataSchema.nullable().optional(),
};

export const seatAssignSchema = z
  .strictObject({ ...purchaseFields, ...holderFields, immediate_claim: z.boolean().default(false) })
  .meta({ id: 'SeatAssign' });
export type SeatAssign = z.infer<typeof seatAssignSchema>;

/** The portal's assign: the buyer names an email; `checkout_id` is the purchase just made. */
export const customerSeatAssignSchema = z
  .strictObject({
    ...purchaseFields,
    checkout_id: z.uuid().nullable().optional(),
    ...holderFields,
    immediate_claim: z.boolean().default(false),
  })
  .meta({ id: 'CustomerSeatAssign' });
export type CustomerSeatAssign = z.infer<typeof customerSeatAssignSchema>;

export const seatListQuerySchema = z.object(purchaseFields);
export type SeatListQuery = z.infer<typeof seatListQuerySchema>;

export const seatIdParamsSchema = z.object({ seat_id: z.uuid({ message: 'Input should be a valid UUID' }) });
const invitationTokenSchema = textSchema({ min: 1, max: 200 });
export const invitationTokenParamsSchema = z.object({ invitation_token: invitationTokenSchema });

export const seatClaimSchema = z
  .strictObject({ invitation_token: invitationTokenSchema })
  .meta({ id: 'SeatClaim' });

export const seatClaimInfoSchema = z
  .object({
    product_name: z.string(),
    product_id: z.uuid(),
    organization_name: z.string(),
    organization_slug: z.string(),
    customer_email: z.string(),
    can_claim: z.boolean(),
  })
  .meta({ id: 'SeatClaimInfo' });
export type SeatClaimInfo = z.infer<typeof seatClaimInfoSchema>;

export const customerSeatClaimResponseSchema = z
  .object({ seat: customerSeatSchema, customer_session_token: z.string() })
  .meta({ id: 'CustomerSeatClaimResponse' });
