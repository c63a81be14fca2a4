import type { Prisma } from '../../generated/prisma/client.js';
import type { Tx } from '../../infra/db.js';
import { markBenefitGrantsStaleSql } from '../customers/repository.js';
import { recordEvents } from '../webhook-outbox/repository.js';
import { seatView, type SeatRow } from './views.js';

type Client = Prisma.TransactionClient | { customerSeat: Prisma.CustomerSeatDelegate };

/** A purchase seats belong to: one subscription or one one-time order. */
export type SeatPurchaseKey = { subscriptionId: string } | { orderId: string };

const purchaseWhere = (key: SeatPurchaseKey): Prisma.CustomerSeatWhereInput =>
  'subscriptionId' in key ? { subscriptionId: key.subscriptionId } : { orderId: key.orderId };

export function listLiveSeats(db: Client, key: SeatPurchaseKey) {
  return db.customerSeat.findMany({
    where: { ...purchaseWhere(key), status: { not: 'revoked' } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}

export function countLiveSeats(db: Client, key: SeatPurchaseKey) {
  return db.customerSeat.count({ where: { ...purchaseWhere(key), status: { not: 'revoked' } } });
}

export function findLiveSeatOfHolder(db: Client, key: SeatPurchaseKey, customerId: string) {
  return db.customerSeat.findFirst({
    where: { ...purchaseWhere(key), customerId, status: { not: 'revoked' } },
  });
}

/** The subscriptions in which this customer holds a claimed seat. */
export async function claimedSubscriptionIdsOf(db: Client, customerId: string): Promise<string[]> {
  const seats = await db.customerSeat.findMany({
    where: { customerId, status: 'claimed', subscriptionId: { not: null } },
    select: { subscriptionId: true },
  });
  return seats.map((seat) => seat.subscriptionId!);
}

export function findSeat(db: Client, id: string) {
  return db.customerSeat.findUnique({ where: { id } });
}

export function findSeatByTokenHash(db: Client, tokenHash: string) {
  return db.customerSeat.findUnique({ where: { invitationTokenHash: tokenHash } });
}

export function insertSeat(db: Client, data: Prisma.CustomerSeatUncheckedCreateInput) {
  return db.customerSeat.create({ data });
}

/** Changes a seat only if it is still in `from`: a claim and a revoke at once do not both win. */
export async function moveSeat(
  db: Client,
  id: string,
  from: string,
  data: Prisma.CustomerSeatUncheckedUpdateInput,
): Promise<SeatRow | null> {
  const { count } = await db.customerSeat.updateMany({ where: { id, status: from }, data });
  return count === 0 ? null : db.customerSeat.findUnique({ where: { id } });
}

/**
 * A subscription that ends takes its seats with it (Polar's rule): each live seat is revoked,
 * its holder's grants re-examined and `customer_seat.revoked` sent, in the ending transaction.
 */
export async function revokeSeatsOfSubscription(tx: Tx, subscriptionId: string, at: Date): Promise<void> {
  const { rows } = await tx.sql.query<{ id: string }>(
    `UPDATE customer_seats SET status = 'revoked', revoked_at = $2, invitation_token_hash = NULL,
       invitation_token_expires_at = NULL, modified_at = $2
     WHERE subscription_id = $1 AND status <> 'revoked' RETURNING id`,
    [subscriptionId, at],
  );
  if (rows.length === 0) return;
  const revoked = await tx.prisma.customerSeat.findMany({ where: { id: { in: rows.map(({ id }) => id) } } });
  await markBenefitGrantsStaleSql(
    tx.sql,
    revoked.map((seat) => seat.customerId),
  );
  await recordEvents(
    tx.sql,
    revoked.map((seat) => ({
      organizationId: seat.organizationId,
      type: 'customer_seat.revoked' as const,
      data: seatView(seat),
      at,
    })),
  );
}

/** The purchase a seat is given from, read for its seats, state and product name. */
export function findSubscriptionForSeats(
  db: Client & Pick<Prisma.TransactionClient, 'subscription'>,
  id: string,
) {
  return db.subscription.findUnique({ where: { id }, include: { product: { select: { name: true } } } });
}

export function findOrderForSeats(db: Client & Pick<Prisma.TransactionClient, 'order'>, id: string) {
  return db.order.findUnique({ where: { id }, include: { product: { select: { name: true } } } });
}

/** Serializes the seat changes of one purchase: two assigns at once never give one seat twice. */
export async function lockPurchase(tx: Tx, key: SeatPurchaseKey): Promise<void> {
  if ('subscriptionId' in key) {
    await tx.sql.query(`SELECT id FROM subscriptions WHERE id = $1::uuid FOR UPDATE`, [key.subscriptionId]);
  } else {
    await tx.sql.query(`SELECT id FROM orders WHERE id = $1::uuid FOR UPDATE`, [key.orderId]);
  }
}

/** The purchase a checkout made (the portal assigns seats right after paying, by its checkout). */
export async function purchaseOfCheckout(
  db: Pick<Prisma.TransactionClient, 'subscription' | 'order'>,
  checkoutId: string,
): Promise<SeatPurchaseKey | null> {
  const subscription = await db.subscription.findUnique({ where: { checkoutId }, select: { id: true } });
  if (subscription) return { subscriptionId: subscription.id };
  const order = await db.order.findFirst({
    where: { checkoutId, subscriptionId: null },
    select: { id: true },
  });
  return order ? { orderId: order.id } : null;
}
