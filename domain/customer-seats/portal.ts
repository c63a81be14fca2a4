// The buyer's own seats in the portal (Polar's portal `seats`): the customer who bought a
// seat-based plan or order lists, gives, takes back and re-sends its seats. The portal invites by
// email only: looking up the seller's other customers by id is the seller's to do.
import type { Db } from '../../infra/db.js';
import type { CustomerCaller } from '../customer-sessions/rules.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import { findSeat, listLiveSeats, purchaseOfCheckout, type SeatPurchaseKey } from './repository.js';
import { availableSeats } from './rules.js';
import type { CustomerSeat, CustomerSeatAssign, SeatListQuery } from './schemas.js';
import {
  assertSeatsEnabled,
  giveSeat,
  purchaseKeyOf,
  purchaseKeyOfRow,
  readPurchase,
  resendInvitationOf,
  revokeSeatRow,
  type SeatContext,
  type SeatPurchase,
} from './service.js';
import { seatView } from './views.js';

/** The purchase, if this customer bought it (else 404, as for a purchase that does not exist). */
async function boughtBy(db: Db, customer: CustomerCaller, key: SeatPurchaseKey): Promise<SeatPurchase> {
  const purchase = await readPurchase(db, key);
  if (!purchase || purchase.buyerId !== customer.customerId) {
    throw new AppError(
      'ResourceNotFound',
      `${'subscriptionId' in key ? 'Subscription' : 'Order'} not found.`,
    );
  }
  await assertSeatsEnabled(db, purchase.organizationId);
  if (purchase.total === 0) {
    throw new AppError('SeatNotAvailable', 'This purchase is not for seats: its price is not seat-based.');
  }
  return purchase;
}

async function portalKeyOf(
  db: Db,
  customer: CustomerCaller,
  input: { subscription_id?: string | null; order_id?: string | null; checkout_id?: string | null },
) {
  if (input.checkout_id && !input.subscription_id && !input.order_id) {
    const key = await purchaseOfCheckout(db, input.checkout_id);
    if (!key) throw new InvalidFieldError(['body', 'checkout_id'], 'This checkout made no purchase yet.');
    return key;
  }
  return purchaseKeyOf(input);
}

export async function listPortalSeats(db: Db, customer: CustomerCaller, query: SeatListQuery) {
  const purchase = await boughtBy(db, customer, purchaseKeyOf(query));
  const seats = await listLiveSeats(db, purchase.key);
  return {
    seats: seats.map(seatView),
    available_seats: availableSeats(purchase.total, purchase.scheduled, seats.length),
    total_seats: purchase.total,
  };
}

export async function assignPortalSeat(
  ctx: SeatContext,
  customer: CustomerCaller,
  input: CustomerSeatAssign,
  now = new Date(),
): Promise<CustomerSeat> {
  for (const field of ['customer_id', 'external_customer_id'] as const) {
    if (input[field]) throw new InvalidFieldError(['body', field], 'Invite people by their email address.');
  }
  if (input.immediate_claim) {
    throw new InvalidFieldError(
      ['body', 'immediate_claim'],
      'The person you invite accepts the seat from the email they receive.',
    );
  }
  if (!input.email && !input.member_id && !input.external_member_id) {
    throw new InvalidFieldError(
      ['body', 'email'],
      'Enter the email address of the person to invite.',
      'missing',
    );
  }
  const key = await portalKeyOf(ctx.db, customer, input);
  await boughtBy(ctx.db, customer, key);
  return giveSeat(ctx, key, { ...input, immediate_claim: false }, now);
}

async function ownSeat(db: Db, customer: CustomerCaller, seatId: string) {
  const seat = await findSeat(db, seatId);
  const purchase = seat ? await readPurchase(db, purchaseKeyOfRow(seat)) : null;
  if (!seat || !purchase || purchase.buyerId !== customer.customerId) {
    throw new AppError('ResourceNotFound', 'Seat not found.');
  }
  await assertSeatsEnabled(db, seat.organizationId);
  return seat;
}

export async function revokePortalSeat(db: Db, customer: CustomerCaller, seatId: string, now = new Date()) {
  return seatView(await revokeSeatRow(db, await ownSeat(db, customer, seatId), now));
}

export async function resendPortalInvitation(
  ctx: SeatContext,
  customer: CustomerCaller,
  seatId: string,
  now = new Date(),
) {
  return seatView(await resendInvitationOf(ctx, await ownSeat(ctx.db, customer, seatId), now));
}
