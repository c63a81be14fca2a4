// The subscriptions' tables: subscriptions, the prices each is billed, and proration lines waiting
// for the next order.
import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { productInclude } from '../products/repository.js';
import type { SubscriptionStatus } from './schemas.js';

type Client = Db | Prisma.TransactionClient;

/** Everything a subscription's wire shape shows. */
export const subscriptionInclude = {
  // Its test clock (sandbox) is the subscription's time: see `subscriptionNow`.
  customer: { include: { testClock: { select: { id: true, frozenTime: true } } } },
  product: { include: productInclude },
  discount: true,
  prices: {
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    include: { productPrice: { include: { meter: { select: { id: true, name: true } } } } },
  },
} as const satisfies Prisma.SubscriptionInclude;

export type SubscriptionRow = Prisma.SubscriptionGetPayload<{ include: typeof subscriptionInclude }>;
export type SubscriptionRecord = Prisma.SubscriptionGetPayload<object>;

export function findSubscription(db: Client, id: string) {
  return db.subscription.findUnique({ where: { id }, include: subscriptionInclude });
}

export function findSubscriptionOfCheckout(db: Client, checkoutId: string) {
  return db.subscription.findUnique({ where: { checkoutId }, include: subscriptionInclude });
}

/** Serializes the changes of one subscription (its workflow's steps and the API's signals). */
export async function lockSubscription(tx: Prisma.TransactionClient, id: string) {
  await tx.$queryRaw`SELECT id FROM subscriptions WHERE id = ${id}::uuid FOR UPDATE`;
}

export function insertSubscription(
  tx: Prisma.TransactionClient,
  data: Prisma.SubscriptionUncheckedCreateInput,
) {
  return tx.subscription.create({ data, include: subscriptionInclude });
}

/** Whether the customer has a subscription of these statuses in the organization. */
export async function hasSubscriptionWithStatus(
  db: Client,
  where: { organizationId: string; customerId: string; statuses: readonly SubscriptionStatus[] },
): Promise<boolean> {
  const row = await db.subscription.findFirst({
    where: {
      organizationId: where.organizationId,
      customerId: where.customerId,
      status: { in: [...where.statuses] },
    },
    select: { id: true },
  });
  return row !== null;
}

/** The customer's subscriptions of these statuses, oldest first. */
export function subscriptionsOfCustomer(
  db: Client,
  customerId: string,
  statuses: readonly SubscriptionStatus[],
) {
  return db.subscription.findMany({
    where: { customerId, status: { in: [...statuses] }, startedAt: { not: null } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}

export function listSubscriptionRows(
  db: Db,
  where: Prisma.SubscriptionWhereInput,
  orderBy: Prisma.SubscriptionOrderByWithRelationInput[],
  page: { skip: number; take: number },
) {
  return db.$transaction([
    db.subscription.findMany({ where, orderBy, include: subscriptionInclude, ...page }),
    db.subscription.count({ where }),
  ]);
}

export function updateSubscriptionRow(
  tx: Prisma.TransactionClient,
  id: string,
  data: Prisma.SubscriptionUncheckedUpdateInput,
) {
  return tx.subscription.update({
    where: { id },
    data: { ...data, modifiedAt: new Date() },
    include: subscriptionInclude,
  });
}

/** The subscription's order still waiting to be paid, if any (oldest first: one at a time). */
export function findUnpaidOrderOfSubscription(db: Client, subscriptionId: string) {
  return db.order.findFirst({
    where: { subscriptionId, status: 'pending' },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true, totalAmount: true, currency: true, requestKey: true, createdAt: true },
  });
}

/** Proration lines not billed yet, oldest first. */
export function findPendingItems(db: Client, subscriptionId: string) {
  return db.subscriptionPendingItem.findMany({
    where: { subscriptionId, orderId: null },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}

export function markPendingItemsBilled(tx: Prisma.TransactionClient, ids: string[], orderId: string) {
  return tx.subscriptionPendingItem.updateMany({
    where: { id: { in: ids }, orderId: null },
    data: { orderId },
  });
}

export function insertPendingItem(
  tx: Prisma.TransactionClient,
  data: Prisma.SubscriptionPendingItemUncheckedCreateInput,
) {
  return tx.subscriptionPendingItem.create({ data });
}

/** Billable subscriptions older than `before`: the reconciler makes sure each has its workflow. */
export function findBillableSubscriptionIds(db: Client, before: Date, limit: number) {
  return db.subscription.findMany({
    where: { status: { in: ['trialing', 'active', 'past_due'] }, endedAt: null, createdAt: { lt: before } },
    select: { id: true },
    orderBy: { createdAt: 'asc' },
    take: limit,
  });
}

export async function replaceSubscriptionPrices(
  tx: Prisma.TransactionClient,
  subscriptionId: string,
  prices: { productPriceId: string; amount: number }[],
  at: Date,
) {
  await tx.subscriptionPrice.deleteMany({ where: { subscriptionId } });
  await tx.subscriptionPrice.createMany({
    data: prices.map((price) => ({ ...price, subscriptionId, createdAt: at })),
  });
}

/**
 * The time a subscription lives in: its customer's test clock (sandbox) when it has one, else the
 * wall clock. Every change of the subscription is dated with it, so periods, prorations and orders
 * agree with the clock that renews it.
 */
export function subscriptionNow(row: Pick<SubscriptionRow, 'customer'>): Date {
  return row.customer.testClock?.frozenTime ?? new Date();
}

/** Subscriptions of the customers on these test clocks, with how far each has caught up. */
export function subscriptionsOnTestClocks(db: Client, testClockIds: string[]) {
  return db.subscription.findMany({
    where: { customer: { testClockId: { in: testClockIds } } },
    select: {
      id: true,
      endedAt: true,
      clockCaughtUpTo: true,
      customer: { select: { testClockId: true } },
      orders: { where: { status: 'pending' }, select: { id: true }, take: 1 },
    },
  });
}

/** Its workflow has lived through the test clock's time up to `at`. */
export function markCaughtUpWithClock(db: Client, ids: string[], at: Date) {
  return db.subscription.updateMany({
    where: { id: { in: ids }, OR: [{ clockCaughtUpTo: null }, { clockCaughtUpTo: { lt: at } }] },
    data: { clockCaughtUpTo: at },
  });
}

/** Subscriptions whose test clock was advanced before `advancedBefore` and which have not caught up. */
export async function findSubscriptionIdsBehindTheirClock(
  db: Client,
  advancedBefore: Date,
  limit: number,
): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT s.id::text AS id
    FROM subscriptions s
    JOIN customers c ON c.id = s.customer_id
    JOIN test_clocks t ON t.id = c.test_clock_id
    WHERE (s.clock_caught_up_to IS NULL OR s.clock_caught_up_to < t.frozen_time)
      AND COALESCE(t.modified_at, t.created_at) < ${advancedBefore}
    ORDER BY s.id
    LIMIT ${limit}`;
  return rows.map((row) => row.id);
}
