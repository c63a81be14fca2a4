// The subscriptions' tables: subscriptions, the prices each is billed, and proration lines waiting
// for the next order.
import type { Db, SqlClient } from '../../infra/db.js';
import { Prisma } from '../../generated/prisma/client.js';
import { insertRows, selectList, updateRow } from '../../infra/sql.js';
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
    include: {
      productPrice: {
        // What a renewal measures a metered price's usage with.
        include: {
          meter: { select: { id: true, name: true, filter: true, aggregation: true } },
        },
      },
    },
  },
  meters: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], include: { meter: true } },
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

/** The product a subscription is on from `since`, under the name it has now (its history). */
export async function recordSubscriptionProduct(
  tx: Prisma.TransactionClient,
  entry: { subscriptionId: string; productId: string; productName: string; since: Date },
): Promise<void> {
  await tx.subscriptionProduct.create({ data: entry, select: { id: true } });
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

/** Billable subscriptions older than `before`: the reconciler makes sure each has its workflow. */
export function findBillableSubscriptionIds(db: Client, before: Date, limit: number) {
  return db.subscription.findMany({
    // A paused plan's workflow waits to resume it (pause.ts).
    where: {
      status: { in: ['trialing', 'active', 'past_due', 'paused'] },
      endedAt: null,
      createdAt: { lt: before },
    },
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
  // A price the subscription keeps keeps its date: its metered usage counts from then (billing.ts).
  const kept = await tx.subscriptionPrice.findMany({ where: { subscriptionId } });
  const since = new Map(kept.map((price) => [price.productPriceId, price.createdAt]));
  await tx.subscriptionPrice.deleteMany({ where: { subscriptionId } });
  await tx.subscriptionPrice.createMany({
    data: prices.map((price) => ({
      ...price,
      subscriptionId,
      createdAt: since.get(price.productPriceId) ?? at,
    })),
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

/**
 * What a step of the workflow starts from, read before it locks the row: the subscription as the
 * API shows it (its events carry that shape), the seller's name and contact for the buyer's emails,
 * and the proration lines not billed yet.
 */
export const subscriptionStepInclude = {
  ...subscriptionInclude,
  organization: { select: { name: true, email: true, website: true, slug: true, timeZone: true } },
  pendingItems: { where: { orderId: null }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
} as const satisfies Prisma.SubscriptionInclude;

export type SubscriptionStepRow = Prisma.SubscriptionGetPayload<{ include: typeof subscriptionStepInclude }>;

export function findSubscriptionForStep(db: Client, id: string) {
  return db.subscription.findUnique({ where: { id }, include: subscriptionStepInclude });
}

type PendingItem = Prisma.SubscriptionPendingItemGetPayload<object>;

/**
 * The row locked until the transaction ends (the workflow's steps and the API's changes of one
 * subscription run one at a time), read in the same statement with what its billing depends on:
 * the prices billed and the proration lines not billed yet.
 */
export async function lockSubscriptionForStep(
  sql: SqlClient,
  id: string,
): Promise<{
  record: SubscriptionRecord;
  prices: { productPriceId: string; amount: number }[];
  pendingItems: PendingItem[];
} | null> {
  const { rows } = await sql.query<
    SubscriptionRecord & { prices: { productPriceId: string; amount: number }[] }
  >(
    `SELECT ${selectList(Prisma.SubscriptionScalarFieldEnum, 's')},
            COALESCE((SELECT json_agg(json_build_object('productPriceId', p.product_price_id, 'amount', p.amount)
                                      ORDER BY p.created_at, p.id)
                      FROM subscription_prices p WHERE p.subscription_id = s.id), '[]') AS prices
     FROM subscriptions s WHERE s.id = $1::uuid FOR UPDATE`,
    [id],
  );
  if (!rows[0]) return null;
  const { prices, ...record } = rows[0];
  const { rows: pendingItems } = await sql.query<PendingItem>(
    `SELECT ${selectList(Prisma.SubscriptionPendingItemScalarFieldEnum, 'i')} FROM subscription_pending_items i
     WHERE i.subscription_id = $1::uuid AND i.order_id IS NULL ORDER BY i.created_at, i.id`,
    [id],
  );
  return { record, prices, pendingItems };
}

const SUBSCRIPTION_JSON_FIELDS = [
  'metadata',
  'customFieldData',
  'paymentMethod',
  'periodMeterCredits',
] as const;

/** The row's own fields changed in the transaction of `sql`; its relations are the caller's. */
export async function updateSubscriptionRecord(
  sql: SqlClient,
  id: string,
  data: Partial<Omit<SubscriptionRecord, 'id' | 'modifiedAt'>>,
): Promise<SubscriptionRecord> {
  const row = await updateRow<SubscriptionRecord>(
    sql,
    'subscriptions',
    id,
    { ...data, modifiedAt: new Date() },
    { returning: Prisma.SubscriptionScalarFieldEnum, jsonFields: SUBSCRIPTION_JSON_FIELDS },
  );
  if (!row) throw new Error(`subscription ${id} vanished while locked`);
  return row;
}

/** Proration lines now billed by `orderId`. */
export async function markPendingItemsBilled(sql: SqlClient, ids: string[], orderId: string) {
  if (ids.length === 0) return;
  await sql.query(
    `UPDATE subscription_pending_items SET order_id = $1::uuid WHERE id = ANY($2::uuid[]) AND order_id IS NULL`,
    [orderId, ids],
  );
}

/** A proration line the next order of the subscription bills. */
export async function insertPendingItem(
  sql: SqlClient,
  item: Pick<PendingItem, 'subscriptionId' | 'label' | 'amount' | 'createdAt'> &
    Partial<Pick<PendingItem, 'productPriceId'>>,
) {
  await insertRows(sql, 'subscription_pending_items', [{ productPriceId: null, ...item }], {
    returning: { id: 'id' },
  });
}

export type SubscriptionWorkflowRow = {
  status: string;
  endedAt: Date | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: Date | null;
  currentPeriodIndex: number;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  failedAttempts: number;
  nextAttemptAt: Date | null;
  clockCaughtUpTo: Date | null;
  clockFrozenTime: Date | null;
  /** The oldest pending order of the subscription. */
  unpaidOrderId: string | null;
  unpaidOrderCreatedAt: Date | null;
  /** The pending order that opens the next period (an ended plan's final order). */
  nextPeriodOrderId: string | null;
  nextPeriodOrderCreatedAt: Date | null;
  /** The card the plan renews on, and the unpaid order's last try (rules.ts `awaitsCustomer`). */
  paymentMethodId: string | null;
  unpaidLastTry: { status: string; declineCode: string | null; paymentMethodId: string | null } | null;
  /** The pause (pause.ts): set to pause, paused since, resumes at, and where the periods count from. */
  pauseAtPeriodEnd: boolean;
  pausedAt: Date | null;
  resumesAt: Date | null;
  billingAnchor: Date;
  /** When its free trial ends (trials.ts); null without one. */
  trialEnd: Date | null;
  /** Its meter cycle of its own and where the current one began (meter-cycles.ts). */
  meterInterval: string | null;
  meterIntervalCount: number | null;
  meterPeriodStart: Date | null;
};

/** Everything the workflow decides its next step from, in one round trip (read on every wake). */
export async function findSubscriptionWorkflowRow(
  sql: SqlClient,
  id: string,
): Promise<SubscriptionWorkflowRow | null> {
  const { rows } = await sql.query<SubscriptionWorkflowRow>(
    `
    SELECT s.status, s.ended_at AS "endedAt", s.cancel_at_period_end AS "cancelAtPeriodEnd",
           s.canceled_at AS "canceledAt", s.current_period_index AS "currentPeriodIndex",
           s.current_period_start AS "currentPeriodStart", s.current_period_end AS "currentPeriodEnd",
           s.failed_attempts AS "failedAttempts", s.next_attempt_at AS "nextAttemptAt",
           s.clock_caught_up_to AS "clockCaughtUpTo", t.frozen_time AS "clockFrozenTime",
           unpaid.id::text AS "unpaidOrderId", unpaid.created_at AS "unpaidOrderCreatedAt",
           next_period.id::text AS "nextPeriodOrderId", next_period.created_at AS "nextPeriodOrderCreatedAt",
           s.payment_method_id AS "paymentMethodId",
           CASE WHEN last_try.status IS NULL THEN NULL ELSE json_build_object(
             'status', last_try.status, 'declineCode', last_try.decline_code,
             'paymentMethodId', last_try.payment_method_id) END AS "unpaidLastTry",
           s.pause_at_period_end AS "pauseAtPeriodEnd", s.paused_at AS "pausedAt",
           s.resumes_at AS "resumesAt", s.billing_anchor AS "billingAnchor",
           s.trial_end AS "trialEnd", s.meter_interval AS "meterInterval",
           s.meter_interval_count AS "meterIntervalCount", s.meter_period_start AS "meterPeriodStart"
    FROM subscriptions s
    JOIN customers c ON c.id = s.customer_id
    LEFT JOIN test_clocks t ON t.id = c.test_clock_id
    LEFT JOIN LATERAL (
      SELECT o.id, o.created_at FROM orders o
      WHERE o.subscription_id = s.id AND o.status = 'pending'
      ORDER BY o.created_at, o.id LIMIT 1
    ) unpaid ON true
    LEFT JOIN LATERAL (
      SELECT a.status, a.decline_code, a.payment_method_id FROM order_payment_attempts a
      WHERE a.order_id = unpaid.id ORDER BY a.attempt DESC LIMIT 1
    ) last_try ON true
    LEFT JOIN LATERAL (
      SELECT o.id, o.created_at FROM orders o
      WHERE o.request_key = 'subscription:' || s.id::text || ':cycle:' || (s.current_period_index + 1)::text
        AND o.status = 'pending'
    ) next_period ON true
    WHERE s.id = $1::uuid`,
    [id],
  );
  return rows[0] ?? null;
}

/** What the start of a subscription's workflow tells operators (temporal/entity-directory.ts). */
export function findSubscriptionForOperators(db: Db, id: string) {
  return db.subscription.findUnique({
    where: { id },
    select: {
      organizationId: true,
      organization: { select: { name: true } },
      product: { select: { name: true } },
      recurringInterval: true,
      customer: { select: { email: true } },
      startedAt: true,
    },
  });
}

export type UnpaidOrderOfPlan = {
  subscriptionId: string;
  orderId: string;
  /** The card the plan renews on, as the processor names it and as the customer's saved card. */
  paymentMethodId: string | null;
  savedCardId: string | null;
  lastTry: { status: string; declineCode: string | null; paymentMethodId: string | null };
};

/**
 * The unpaid order (the oldest pending one) of each of these live plans that was tried at least
 * once, with its last try and the card the plan renews on: whether it waits for its customer
 * (rules.ts `awaitsCustomer`) for a list of the portal in one statement.
 */
export async function findTriedUnpaidOrders(
  sql: SqlClient,
  subscriptionIds: string[],
  statuses: readonly SubscriptionStatus[],
): Promise<UnpaidOrderOfPlan[]> {
  if (subscriptionIds.length === 0) return [];
  const { rows } = await sql.query<UnpaidOrderOfPlan>(
    `SELECT s.id::text AS "subscriptionId", unpaid.id::text AS "orderId",
            s.payment_method_id AS "paymentMethodId", card.id::text AS "savedCardId",
            json_build_object('status', last_try.status, 'declineCode', last_try.decline_code,
              'paymentMethodId', last_try.payment_method_id) AS "lastTry"
     FROM subscriptions s
     JOIN LATERAL (
       SELECT o.id FROM orders o WHERE o.subscription_id = s.id AND o.status = 'pending'
       ORDER BY o.created_at, o.id LIMIT 1
     ) unpaid ON true
     JOIN LATERAL (
       SELECT a.status, a.decline_code, a.payment_method_id FROM order_payment_attempts a
       WHERE a.order_id = unpaid.id ORDER BY a.attempt DESC LIMIT 1
     ) last_try ON true
     LEFT JOIN customer_payment_methods card
       ON card.customer_id = s.customer_id AND card.processor_payment_method_id = s.payment_method_id
      AND card.deleted_at IS NULL
     WHERE s.id = ANY($1::uuid[]) AND s.ended_at IS NULL AND s.status = ANY($2::text[])`,
    [subscriptionIds, statuses],
  );
  return rows;
}

/** A product a plan has been on since a moment (ISO-8601), named as it was then. */
export type ProductSpell = { name: string; since: string };

/**
 * A customer's plans, newest first, each with the products it has been on, oldest first (their
 * timeline).
 */
export async function listCustomerSubscriptionHistory(
  sql: SqlClient,
  organizationId: string,
  customerId: string,
  limit: number,
) {
  const { rows } = await sql.query<{
    id: string;
    createdAt: Date;
    startedAt: Date | null;
    canceledAt: Date | null;
    endsAt: Date | null;
    endedAt: Date | null;
    productName: string;
    history: ProductSpell[];
  }>(
    `SELECT s.id, s.created_at AS "createdAt", s.started_at AS "startedAt", s.canceled_at AS "canceledAt",
            s.ends_at AS "endsAt", s.ended_at AS "endedAt", p.name AS "productName",
            coalesce((SELECT json_agg(json_build_object('name', h.product_name, 'since', h.since)
                                      ORDER BY h.since, h.created_at)
                      FROM subscription_products h WHERE h.subscription_id = s.id), '[]') AS history
     FROM subscriptions s JOIN products p ON p.id = s.product_id
     WHERE s.customer_id = $2::uuid AND s.organization_id = $1::uuid
     ORDER BY s.created_at DESC LIMIT $3`,
    [organizationId, customerId, limit],
  );
  return rows;
}

/** A new subscription keeps its product's meter cycle (meter-cycling.ts `keepProductMeterCycle`). */
export async function setSubscriptionMeterCycle(
  tx: Prisma.TransactionClient,
  id: string,
  cycle: { meterInterval: string; meterIntervalCount: number | null },
): Promise<void> {
  await tx.subscription.update({ where: { id }, data: cycle });
}
