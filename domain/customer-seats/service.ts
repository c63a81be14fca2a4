// Customer seats (Polar's `customer-seats`): the buyer of a seat-based plan or order gives its seats
// to people by email; each gets a link, claims the seat and holds the product's benefits until the
// seat is revoked or the purchase ends (docs/seats.md).
import { randomBytes } from 'node:crypto';
import { transaction, type Db, type Tx } from '../../infra/db.js';
import type { Caller } from '../access/rules.js';
import { ORGANIZATION_MANAGERS } from '../access/rules.js';
import { organizationAccess } from '../access/service.js';
import { findLiveCustomerOfOrganization, markBenefitGrantsStale } from '../customers/repository.js';
import { holderCustomerFor } from '../customer-state/service.js';
import { hashToken, openCustomerSession } from '../customer-sessions/service.js';
import type { Mailer } from '../emails/mailer.js';
import { seatInvitationEmail } from '../emails/rules.js';
import { findOrganizationById } from '../organizations/repository.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import { BILLABLE_STATUSES } from '../products/schemas.js';
import { recordEvent } from '../webhook-outbox/repository.js';
import {
  findOrderForSeats,
  findSubscriptionForSeats,
  lockPurchase,
  findLiveSeatOfHolder,
  findSeat,
  findSeatByTokenHash,
  insertSeat,
  listLiveSeats,
  moveSeat,
  type SeatPurchaseKey,
} from './repository.js';
import {
  INVITATION_TOKEN_PREFIX,
  INVITATION_TTL_MS,
  availableSeats,
  looksLikeInvitationToken,
  seatClaimUrl,
} from './rules.js';
import type { CustomerSeat, SeatAssign, SeatClaimInfo, SeatListQuery } from './schemas.js';
import { seatView, type SeatRow } from './views.js';

export type SeatContext = { db: Db; mailer: Mailer; publicUrl: string };

/** A purchase seats are given from, as the seat operations read it. */
export type SeatPurchase = {
  key: SeatPurchaseKey;
  organizationId: string;
  buyerId: string;
  productId: string;
  productName: string;
  total: number;
  /** A decrease waiting for the renewal. */
  scheduled: number | null;
  /** Whether its seats hold benefits now (a plan not ended, an order paid). */
  usable: boolean;
};

const notFound = (what: 'Subscription' | 'Order') => new AppError('ResourceNotFound', `${what} not found.`);

export async function readPurchase(
  db: Db | Tx['prisma'],
  key: SeatPurchaseKey,
): Promise<SeatPurchase | null> {
  if ('subscriptionId' in key) {
    const row = await findSubscriptionForSeats(db, key.subscriptionId);
    if (!row) return null;
    return {
      key,
      organizationId: row.organizationId,
      buyerId: row.customerId,
      productId: row.productId,
      productName: row.product.name,
      total: row.seats ?? 0,
      scheduled: row.pendingSeats,
      usable:
        row.seats !== null &&
        row.endedAt === null &&
        (BILLABLE_STATUSES.includes(row.status as (typeof BILLABLE_STATUSES)[number]) ||
          row.status === 'paused'),
    };
  }
  const row = await findOrderForSeats(db, key.orderId);
  // A renewal's order gives no seats of its own: its subscription holds them.
  if (!row || row.subscriptionId !== null) return null;
  return {
    key,
    organizationId: row.organizationId,
    buyerId: row.customerId,
    productId: row.productId,
    productName: row.product.name,
    total: row.seats ?? 0,
    scheduled: null,
    usable: row.seats !== null && ['paid', 'partially_refunded'].includes(row.status),
  };
}

export function purchaseKeyOf(input: {
  subscription_id?: string | null;
  order_id?: string | null;
}): SeatPurchaseKey {
  if (input.subscription_id && input.order_id) {
    throw new InvalidFieldError(['body', 'order_id'], 'Name either a subscription or an order, not both.');
  }
  if (input.subscription_id) return { subscriptionId: input.subscription_id };
  if (input.order_id) return { orderId: input.order_id };
  throw new InvalidFieldError(
    ['body', 'subscription_id'],
    'Either subscription_id or order_id is required.',
    'missing',
  );
}

/** The purchase, if the caller may see it (else 404) and, for `manage`, change its seats (else 403). */
async function purchaseFor(
  db: Db,
  caller: Caller,
  key: SeatPurchaseKey,
  need: 'read' | 'manage',
): Promise<SeatPurchase> {
  const what = 'subscriptionId' in key ? 'Subscription' : 'Order';
  const purchase = await readPurchase(db, key);
  if (!purchase) throw notFound(what);
  const access = await organizationAccess(db, caller, purchase.organizationId, ORGANIZATION_MANAGERS);
  if (access === 'none') throw notFound(what);
  if (need === 'manage' && access === 'read') {
    throw new AppError('NotPermitted', 'Only owners and admins can assign and revoke seats.');
  }
  await assertSeatsEnabled(db, purchase.organizationId);
  if (purchase.total === 0) {
    throw new AppError(
      'SeatNotAvailable',
      `This ${what.toLowerCase()} is not for seats: its price is not seat-based.`,
    );
  }
  return purchase;
}

export async function assertSeatsEnabled(db: Db, organizationId: string): Promise<void> {
  const organization = (await findOrganizationById(db.sql, organizationId))!;
  if (!organization.seatBasedPricingEnabled) throw new AppError('FeatureNotEnabled');
}

export async function listSeats(db: Db, caller: Caller, query: SeatListQuery) {
  const purchase = await purchaseFor(db, caller, purchaseKeyOf(query), 'read');
  const seats = await listLiveSeats(db, purchase.key);
  return {
    seats: seats.map(seatView),
    available_seats: availableSeats(purchase.total, purchase.scheduled, seats.length),
    total_seats: purchase.total,
  };
}

const newInvitation = (now: Date) => {
  const token = `${INVITATION_TOKEN_PREFIX}${randomBytes(24).toString('base64url')}`;
  return { token, hash: hashToken(token), expiresAt: new Date(now.getTime() + INVITATION_TTL_MS) };
};

/** The holder a seat goes to: exactly one of email (found or created), customer id, external id. */
async function holderOf(tx: Tx['prisma'], organizationId: string, input: SeatAssign) {
  if (input.member_id || input.external_member_id) {
    throw new InvalidFieldError(
      ['body', input.member_id ? 'member_id' : 'external_member_id'],
      'Team customers with members are not available yet: assign the seat by email or customer.',
    );
  }
  const given = (['email', 'customer_id', 'external_customer_id'] as const).filter((field) => input[field]);
  if (given.length !== 1) {
    throw new InvalidFieldError(
      ['body', given[1] ?? 'email'],
      'Name exactly one of email, customer_id and external_customer_id.',
    );
  }
  if (input.customer_id || input.external_customer_id) {
    const holder = await findLiveCustomerOfOrganization(
      tx,
      organizationId,
      input.customer_id ? { id: input.customer_id } : { externalId: input.external_customer_id! },
    );
    if (!holder) throw new AppError('CustomerNotFound');
    return holder;
  }
  return holderCustomerFor(tx, organizationId, input.email!);
}

/**
 * Gives a seat to a person: a pending seat and an emailed claim link, or with `immediate_claim`
 * (the seller's API only) a claimed seat and no email. Serialized per purchase, so two assigns at
 * once never give more seats than were bought.
 */
export async function assignSeat(
  ctx: SeatContext,
  caller: Caller,
  input: SeatAssign,
  now = new Date(),
): Promise<CustomerSeat> {
  const key = purchaseKeyOf(input);
  await purchaseFor(ctx.db, caller, key, 'manage');
  return giveSeat(ctx, key, input, now);
}

export async function giveSeat(
  ctx: SeatContext,
  key: SeatPurchaseKey,
  input: SeatAssign,
  now: Date,
): Promise<CustomerSeat> {
  const invitation = newInvitation(now);
  const { seat, purchase } = await transaction(ctx.db, async (tx) => {
    await lockPurchase(tx, key);
    const purchase = (await readPurchase(tx.prisma, key))!;
    if (!purchase.usable) {
      throw new AppError(
        'SeatNotAvailable',
        'Seats can be given only while the purchase is paid and running.',
      );
    }
    const live = await listLiveSeats(tx.prisma, key);
    if (availableSeats(purchase.total, purchase.scheduled, live.length) === 0) {
      throw new AppError(
        'SeatNotAvailable',
        purchase.scheduled !== null && purchase.scheduled < purchase.total
          ? `All ${purchase.scheduled} seats the plan keeps after its renewal are given: revoke one or add seats first.`
          : `All ${purchase.total} seats are given: revoke one or add seats first.`,
      );
    }
    const holder = await holderOf(tx.prisma, purchase.organizationId, input);
    if (await findLiveSeatOfHolder(tx.prisma, key, holder.id)) {
      throw new AppError('SeatAlreadyAssigned', `${holder.email} already has a seat of this purchase.`);
    }
    const claimed = input.immediate_claim;
    const seat = await insertSeat(tx.prisma, {
      organizationId: purchase.organizationId,
      ...('subscriptionId' in key ? { subscriptionId: key.subscriptionId } : { orderId: key.orderId }),
      status: claimed ? 'claimed' : 'pending',
      customerId: holder.id,
      email: holder.email,
      invitationTokenHash: claimed ? null : invitation.hash,
      invitationTokenExpiresAt: claimed ? null : invitation.expiresAt,
      claimedAt: claimed ? now : null,
      seatMetadata: input.metadata ?? undefined,
    });
    await recordEvent(tx.prisma, {
      organizationId: seat.organizationId,
      type: 'customer_seat.assigned',
      data: seatView(seat),
      at: now,
    });
    if (claimed) await afterClaim(tx, seat, now);
    return { seat, purchase };
  });
  if (seat.status === 'pending') await sendInvitation(ctx, seat, purchase, invitation.token);
  return seatView(seat);
}

async function afterClaim(tx: Tx, seat: SeatRow, now: Date): Promise<void> {
  await markBenefitGrantsStale(tx.prisma, [seat.customerId]);
  await recordEvent(tx.prisma, {
    organizationId: seat.organizationId,
    type: 'customer_seat.claimed',
    data: seatView(seat),
    at: now,
  });
}

async function sendInvitation(ctx: SeatContext, seat: SeatRow, purchase: SeatPurchase, token: string) {
  const seller = (await findOrganizationById(ctx.db.sql, seat.organizationId))!;
  const buyer = await findLiveCustomerOfOrganization(ctx.db, seat.organizationId, { id: purchase.buyerId });
  await ctx.mailer.send({
    to: seat.email,
    ...seatInvitationEmail({
      sellerName: seller.name,
      productName: purchase.productName,
      inviter: buyer?.name ?? buyer?.email ?? seller.name,
      hours: INVITATION_TTL_MS / 3_600_000,
      url: seatClaimUrl(ctx.publicUrl, seller.slug, token),
    }),
    idempotencyKey: `seat-invitation:${seat.id}:${hashToken(token)}`,
  });
}

async function seatFor(db: Db, caller: Caller, seatId: string): Promise<SeatRow> {
  const seat = await findSeat(db, seatId);
  const missing = () => new AppError('ResourceNotFound', 'Seat not found.');
  if (!seat) throw missing();
  const access = await organizationAccess(db, caller, seat.organizationId, ORGANIZATION_MANAGERS);
  if (access === 'none') throw missing();
  if (access === 'read')
    throw new AppError('NotPermitted', 'Only owners and admins can assign and revoke seats.');
  await assertSeatsEnabled(db, seat.organizationId);
  return seat;
}

/** Takes a seat back: its holder loses the benefits; revoking a revoked seat changes nothing. */
export async function revokeSeat(
  db: Db,
  caller: Caller,
  seatId: string,
  now = new Date(),
): Promise<CustomerSeat> {
  const seat = await seatFor(db, caller, seatId);
  return seatView(await revokeSeatRow(db, seat, now));
}

export async function revokeSeatRow(db: Db, seat: SeatRow, now: Date): Promise<SeatRow> {
  if (seat.status === 'revoked') return seat;
  return transaction(db, async (tx) => {
    const revoked = await moveSeat(tx.prisma, seat.id, seat.status, {
      status: 'revoked',
      revokedAt: now,
      invitationTokenHash: null,
      invitationTokenExpiresAt: null,
    });
    // Claimed or revoked meanwhile: what it is now is the answer.
    if (!revoked) return (await findSeat(tx.prisma, seat.id))!;
    await markBenefitGrantsStale(tx.prisma, [revoked.customerId]);
    await recordEvent(tx.prisma, {
      organizationId: revoked.organizationId,
      type: 'customer_seat.revoked',
      data: seatView(revoked),
      at: now,
    });
    return revoked;
  });
}

/** A new claim link for a pending seat (the old one stops working): only its hash is kept. */
export async function resendInvitation(
  ctx: SeatContext,
  caller: Caller,
  seatId: string,
  now = new Date(),
): Promise<CustomerSeat> {
  return seatView(await resendInvitationOf(ctx, await seatFor(ctx.db, caller, seatId), now));
}

export async function resendInvitationOf(ctx: SeatContext, seat: SeatRow, now: Date): Promise<SeatRow> {
  if (seat.status !== 'pending') throw new AppError('SeatNotPending');
  const invitation = newInvitation(now);
  const renewed = await moveSeat(ctx.db, seat.id, 'pending', {
    invitationTokenHash: invitation.hash,
    invitationTokenExpiresAt: invitation.expiresAt,
  });
  if (!renewed) throw new AppError('SeatNotPending');
  const purchase = (await readPurchase(ctx.db, purchaseKeyOfRow(renewed)))!;
  await sendInvitation(ctx, renewed, purchase, invitation.token);
  return renewed;
}

export const purchaseKeyOfRow = (seat: SeatRow): SeatPurchaseKey =>
  seat.subscriptionId ? { subscriptionId: seat.subscriptionId } : { orderId: seat.orderId! };

async function invitedSeat(db: Db, token: string, now: Date) {
  const invalid = () => new AppError('InvalidInvitationToken');
  if (!looksLikeInvitationToken(token)) throw invalid();
  const seat = await findSeatByTokenHash(db, hashToken(token));
  if (
    !seat ||
    seat.status !== 'pending' ||
    !seat.invitationTokenExpiresAt ||
    seat.invitationTokenExpiresAt <= now
  ) {
    throw invalid();
  }
  const purchase = (await readPurchase(db, purchaseKeyOfRow(seat)))!;
  return { seat, purchase };
}

/** What the claim page shows before the invited person accepts (no sign-in: the link is the key). */
export async function seatClaimInfo(db: Db, token: string, now = new Date()): Promise<SeatClaimInfo> {
  const { seat, purchase } = await invitedSeat(db, token, now);
  const seller = (await findOrganizationById(db.sql, seat.organizationId))!;
  return {
    product_name: purchase.productName,
    product_id: purchase.productId,
    organization_name: seller.name,
    organization_slug: seller.slug,
    customer_email: seat.email,
    can_claim: purchase.usable,
  };
}

/**
 * The invited person accepts: the seat is theirs, its benefits are granted to them, and they are
 * signed in to the seller's portal (the link came to their address). The link works once.
 */
export async function claimSeat(db: Db, token: string, now = new Date()) {
  const { seat, purchase } = await invitedSeat(db, token, now);
  if (!purchase.usable) {
    throw new AppError(
      'SeatNotAvailable',
      'This purchase has ended or is not paid: its seats cannot be claimed.',
    );
  }
  const claimed = await transaction(db, async (tx) => {
    const row = await moveSeat(tx.prisma, seat.id, 'pending', {
      status: 'claimed',
      claimedAt: now,
      invitationTokenHash: null,
      invitationTokenExpiresAt: null,
    });
    if (!row) throw new AppError('InvalidInvitationToken');
    await afterClaim(tx, row, now);
    return row;
  });
  const session = await openCustomerSession(db, {
    id: claimed.customerId,
    organizationId: claimed.organizationId,
  });
  return { seat: seatView(claimed), customer_session_token: session.token };
}
