import type { Prisma } from '../../generated/prisma/client.js';
import { customerSeatSchema, type CustomerSeat, type SeatStatus } from './schemas.js';

export type SeatRow = Prisma.CustomerSeatGetPayload<object>;

/**
 * A seat as Polar shows it: `customer_id`/`customer_email` are the holder's while the seat is live;
 * a revoked seat names no one (its row keeps the holder, for the grants taken back and history).
 */
export function seatView(row: SeatRow): CustomerSeat {
  const live = row.status !== 'revoked';
  return customerSeatSchema.parse({
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    id: row.id,
    subscription_id: row.subscriptionId,
    order_id: row.orderId,
    status: row.status as SeatStatus,
    customer_id: live ? row.customerId : null,
    member_id: null,
    member: null,
    email: null,
    customer_email: live ? row.email : null,
    invitation_token_expires_at:
      row.status === 'pending' ? (row.invitationTokenExpiresAt?.toISOString() ?? null) : null,
    claimed_at: row.claimedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    seat_metadata: row.seatMetadata ?? null,
  });
}
