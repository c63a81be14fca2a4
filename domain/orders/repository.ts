import { boundedLabel, renewalTries } from '../../infra/metrics.js';
import type { Db, SqlClient } from '../../infra/db.js';
import { Prisma } from '../../generated/prisma/client.js';
import { insertRows, returningList, selectList } from '../../infra/sql.js';

type Client = Db | Prisma.TransactionClient;

export const orderInclude = {
  customer: true,
  product: true,
  discount: true,
  subscription: true,
  items: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
} as const satisfies Prisma.OrderInclude;

export type OrderRow = Prisma.OrderGetPayload<{ include: typeof orderInclude }>;

export function findOrder(db: Client, id: string) {
  return db.order.findUnique({ where: { id }, include: orderInclude });
}

/** Whether the order with this request key exists, and how far it got (no relations read). */
export function findOrderStatusByRequestKey(db: Client, requestKey: string) {
  return db.order.findUnique({
    where: { requestKey },
    select: { id: true, status: true, billingReason: true, createdAt: true },
  });
}

export function findOrderOfCheckout(db: Client, checkoutId: string) {
  return db.order.findUnique({ where: { checkoutId }, include: orderInclude });
}

/** Serializes refunds and invoice numbering of one order. */
export async function lockOrder(tx: Prisma.TransactionClient, id: string) {
  await tx.$queryRaw`SELECT id FROM orders WHERE id = ${id}::uuid FOR UPDATE`;
}

export function listOrderRows(
  db: Db,
  where: Prisma.OrderWhereInput,
  orderBy: Prisma.OrderOrderByWithRelationInput[],
  page: { skip: number; take: number },
) {
  return db.$transaction([
    db.order.findMany({ where, orderBy, include: orderInclude, ...page }),
    db.order.count({ where }),
  ]);
}

export function insertOrder(tx: Prisma.TransactionClient, data: Prisma.OrderUncheckedCreateInput) {
  return tx.order.create({ data, include: orderInclude });
}

export function updateOrderRow(
  tx: Prisma.TransactionClient,
  id: string,
  data: Prisma.OrderUncheckedUpdateInput,
) {
  return tx.order.update({ where: { id }, data: { ...data, modifiedAt: new Date() }, include: orderInclude });
}

/** The tries to collect the orders of a subscription, newest first. */
export function listPaymentAttemptsOfSubscription(
  db: Db,
  subscriptionId: string,
  page: { skip: number; take: number },
) {
  const where = { order: { subscriptionId } };
  return db.$transaction([
    db.orderPaymentAttempt.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { attempt: 'desc' }],
      ...page,
    }),
    db.orderPaymentAttempt.count({ where }),
  ]);
}

/** The next invoice number of the organization, taken in the caller's transaction. */
export async function nextInvoiceNumber(
  tx: Prisma.TransactionClient,
  organizationId: string,
): Promise<number> {
  const rows = await tx.$queryRaw<{ last_number: number }[]>`
    INSERT INTO invoice_sequences (organization_id, last_number) VALUES (${organizationId}::uuid, 1)
    ON CONFLICT (organization_id) DO UPDATE SET last_number = invoice_sequences.last_number + 1
    RETURNING last_number`;
  return rows[0]!.last_number;
}

export function findOrderByRequestKey(db: Client, requestKey: string) {
  return db.order.findUnique({ where: { requestKey }, include: orderInclude });
}

// The orders of subscriptions, in plain SQL on a transaction's connection: every renewal of every
// plan runs these (see Db in infra/db.ts).

export type OrderRecord = Prisma.OrderGetPayload<object>;
export type OrderItemRecord = Prisma.OrderItemGetPayload<object>;
/** An order and its lines, without the rows it refers to. */
export type OrderWithItems = OrderRecord & { items: OrderItemRecord[] };

const ORDER_JSON_FIELDS = ['billingAddress', 'metadata', 'customFieldData'] as const;

/** What a new order states; the rest (refunds, invoice, checkout) starts empty. */
export type NewOrder = Omit<
  OrderRecord,
  | 'id'
  | 'refundedAmount'
  | 'refundedTaxAmount'
  | 'checkoutId'
  | 'paymentId'
  | 'customFieldData'
  | 'invoiceNumber'
  | 'invoicePath'
  | 'modifiedAt'
>;

/** The order and its lines, in two statements. */
export async function insertOrderWithItems(
  sql: SqlClient,
  order: NewOrder,
  items: Omit<OrderItemRecord, 'orderId' | 'id' | 'modifiedAt'>[],
): Promise<OrderWithItems> {
  const [row] = await insertRows<OrderRecord>(sql, 'orders', [order], {
    returning: Prisma.OrderScalarFieldEnum,
    jsonFields: ORDER_JSON_FIELDS,
  });
  const lines = await insertRows<OrderItemRecord>(
    sql,
    'order_items',
    items.map((item) => ({ ...item, orderId: row!.id })),
    { returning: Prisma.OrderItemScalarFieldEnum },
  );
  return { ...row!, items: lines };
}

/** The order and its lines, oldest line first. */
export async function findOrderWithItems(sql: SqlClient, id: string): Promise<OrderWithItems | null> {
  const { rows } = await sql.query<OrderRecord>(
    `SELECT ${selectList(Prisma.OrderScalarFieldEnum, 'o')} FROM orders o WHERE o.id = $1::uuid`,
    [id],
  );
  if (!rows[0]) return null;
  const { rows: items } = await sql.query<OrderItemRecord>(
    `SELECT ${selectList(Prisma.OrderItemScalarFieldEnum, 'i')} FROM order_items i
     WHERE i.order_id = $1::uuid ORDER BY i.created_at, i.id`,
    [id],
  );
  return { ...rows[0], items };
}

/** Pending → paid in one conditional statement: null when it was not pending (paid already). */
export async function markOrderPaidIfPending(
  sql: SqlClient,
  id: string,
  paymentId: string | null,
  at: Date,
): Promise<OrderRecord | null> {
  const { rows } = await sql.query<OrderRecord>(
    `UPDATE orders SET status = 'paid', payment_id = $2, modified_at = $3
     WHERE id = $1::uuid AND status = 'pending'
     RETURNING ${returningList(Prisma.OrderScalarFieldEnum)}`,
    [id, paymentId, at],
  );
  return rows[0] ?? null;
}

// A seller's draft (`orders.create`) and its finalize tries: the try's key holds the order while
// it is charged, so two finalize calls never both charge it and a retried step resumes its own.

/** Draft → pending under the try's key; true too when that key holds it already (a retried step). */
export async function claimDraftOrder(tx: Client, id: string, key: string, at: Date): Promise<boolean> {
  const { count } = await tx.order.updateMany({
    where: { id, OR: [{ status: 'draft' }, { status: 'pending', requestKey: key }] },
    data: { status: 'pending', requestKey: key, modifiedAt: at },
  });
  return count === 1;
}

/** A try that took no money gives the order back to its seller as a draft, to finalize again. */
export async function releaseDraftOrder(tx: Client, id: string, key: string, at: Date): Promise<void> {
  await tx.order.updateMany({
    where: { id, status: 'pending', requestKey: key },
    data: { status: 'draft', requestKey: null, modifiedAt: at },
  });
}

/** The try's charge succeeded (or there was nothing to charge): paid, keeping the key of the try. */
export async function markDraftOrderPaid(
  tx: Prisma.TransactionClient,
  id: string,
  key: string,
  paymentId: string | null,
  at: Date,
): Promise<OrderRow | null> {
  const { count } = await tx.order.updateMany({
    where: { id, status: 'pending', requestKey: key },
    data: { status: 'paid', paymentId, modifiedAt: at },
  });
  return count === 1 ? findOrder(tx, id) : null;
}

/** One try to collect an order; a retried step records it once (unique per order and try). */
export async function recordPaymentAttempt(
  sql: SqlClient,
  data: Omit<Prisma.OrderPaymentAttemptCreateManyInput, 'id'>,
): Promise<void> {
  const { rowCount } = await sql.query(
    `INSERT INTO order_payment_attempts
       (order_id, attempt, status, payment_id, decline_code, message, is_refused, payment_method_id, created_at)
     VALUES ($1::uuid, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (order_id, attempt) DO NOTHING`,
    [
      data.orderId,
      data.attempt,
      data.status,
      data.paymentId ?? null,
      data.declineCode ?? null,
      data.message ?? null,
      data.isRefused ?? false,
      data.paymentMethodId ?? null,
      data.createdAt,
    ],
  );
  // Recorded inside the try's transaction: one rolled back after this (rare; its step is retried)
  // counts its try again. The orders' own rows stay the truth; this is the rate to graph.
  if (rowCount === 1) {
    renewalTries.inc({
      try: data.attempt === 1 ? 'first' : 'retry',
      outcome: boundedLabel(data.status, ['succeeded', 'failed'] as const),
    });
  }
}

export type OriginOrder = { id: string; createdAt: Date; productName: string; subscriptionId: string | null };

/**
 * The orders things were granted for: these orders, and the first order of each of these
 * subscriptions (the purchase that started it).
 */
export async function findOriginOrders(
  sql: SqlClient,
  ids: { orderIds: string[]; subscriptionIds: string[] },
): Promise<OriginOrder[]> {
  const { rows } = await sql.query<OriginOrder>(
    `SELECT id, created_at AS "createdAt", product_name AS "productName", subscription_id AS "subscriptionId"
     FROM orders WHERE id = ANY($1::uuid[])
     UNION ALL
     SELECT * FROM (
       SELECT DISTINCT ON (subscription_id) id, created_at, product_name, subscription_id FROM orders
       WHERE subscription_id = ANY($2::uuid[]) ORDER BY subscription_id, created_at, id
     ) first_orders`,
    [ids.orderIds, ids.subscriptionIds],
  );
  return rows;
}

export type PaymentAttemptSummary = {
  status: string;
  declineCode: string | null;
  message: string | null;
  isRefused: boolean;
  paymentMethodId: string | null;
  createdAt: Date;
};

/** The order's latest try, or null before its first. */
export async function lastPaymentAttemptOf(
  sql: SqlClient,
  orderId: string,
): Promise<PaymentAttemptSummary | null> {
  const { rows } = await sql.query<PaymentAttemptSummary>(
    `SELECT status, decline_code AS "declineCode", message, is_refused AS "isRefused",
            payment_method_id AS "paymentMethodId", created_at AS "createdAt"
     FROM order_payment_attempts WHERE order_id = $1::uuid ORDER BY attempt DESC LIMIT 1`,
    [orderId],
  );
  return rows[0] ?? null;
}

// Payments a customer makes themselves for an order (order_customer_payments).

export type CustomerPaymentRow = Prisma.OrderCustomerPaymentGetPayload<object>;

/** Still in the processor's hands: the customer may yet pay (or is paying) with it. */
export const OPEN_CUSTOMER_PAYMENT_STATUSES = ['creating', 'requires_action', 'processing'] as const;

export function insertCustomerPayment(
  db: Client,
  data: { orderId: string; paymentMethodId: string | null; createdAt: Date },
): Promise<CustomerPaymentRow> {
  return db.orderCustomerPayment.create({ data: { ...data, status: 'creating' } });
}

export function findCustomerPayment(db: Client, id: string) {
  return db.orderCustomerPayment.findUnique({ where: { id } });
}

export function findCustomerPaymentByPaymentId(db: Client, paymentId: string) {
  return db.orderCustomerPayment.findFirst({ where: { paymentId }, orderBy: { createdAt: 'desc' } });
}

/** Newest first. */
export function listCustomerPaymentsOfOrder(db: Client, orderId: string) {
  return db.orderCustomerPayment.findMany({
    where: { orderId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
}

/**
 * Moves a customer payment on, unless it already ended (succeeded, failed, canceled, refunded):
 * a late or repeated answer never rewrites how it ended. Null when it had.
 */
export async function updateOpenCustomerPayment(
  db: Client,
  id: string,
  data: Pick<
    Prisma.OrderCustomerPaymentUncheckedUpdateInput,
    'status' | 'paymentId' | 'declineCode' | 'message' | 'modifiedAt'
  >,
): Promise<boolean> {
  const { count } = await db.orderCustomerPayment.updateMany({
    where: { id, status: { in: [...OPEN_CUSTOMER_PAYMENT_STATUSES] } },
    data,
  });
  return count === 1;
}

/** A customer payment that ended as succeeded, and was then given back (the order was paid already). */
export function markCustomerPaymentRefunded(db: Client, id: string, message: string, at: Date) {
  return db.orderCustomerPayment.updateMany({
    where: { id, status: 'succeeded' },
    data: { status: 'refunded', message, modifiedAt: at },
  });
}

// What an order's timeline is assembled from (domain/orders/timeline.ts).

export function listPaymentAttemptsOfOrder(db: Db, orderId: string) {
  return db.orderPaymentAttempt.findMany({ where: { orderId }, orderBy: [{ attempt: 'asc' }] });
}

export function listRefundsOfOrder(db: Db, organizationId: string, orderId: string) {
  return db.refund.findMany({
    where: { organizationId, orderId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}

/** The order's disputes, for its timeline: read, never written (domain/disputes owns them). */
export function listDisputesOfOrder(db: Db, organizationId: string, orderId: string) {
  return db.dispute.findMany({
    where: { organizationId, orderId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}

export type OrderEventRecord = {
  id: string;
  type: string;
  createdAt: Date;
  isInvoiceGenerated: boolean;
  endpoints: number;
  succeeded: number;
  failed: number;
};

/** The order's events (and those of its refunds) through a transactional outbox, kept forever. */
const ORDER_EVENT_TYPES = ['order.created', 'order.paid', 'order.updated', 'order.refunded'];
const REFUND_EVENT_TYPES = ['refund.created', 'refund.updated'];

/**
 * The webhook events about an order or its refunds, oldest first, with how their deliveries went
 * (one per subscribed endpoint). `since` bounds the scan of the organization's outbox.
 */
export async function listOrderEvents(
  db: Db,
  input: { organizationId: string; orderId: string; refundIds: string[]; since: Date | null },
): Promise<OrderEventRecord[]> {
  const { rows } = await db.sql.query<OrderEventRecord>(
    `SELECT oe.id, oe.type, oe.created_at AS "createdAt",
            coalesce((oe.payload->'data'->>'is_invoice_generated')::boolean, false) AS "isInvoiceGenerated",
            count(we.id)::int AS endpoints,
            (count(we.id) FILTER (WHERE we.status = 'succeeded'))::int AS succeeded,
            (count(we.id) FILTER (WHERE we.status = 'failed'))::int AS failed
     FROM outbox_events oe
     LEFT JOIN webhook_events we ON we.outbox_event_id = oe.id
     WHERE oe.organization_id = $1::uuid
       AND ($2::timestamptz IS NULL OR oe.created_at >= $2::timestamptz)
       AND ((oe.type = ANY($3::text[]) AND oe.payload->'data'->>'id' = $4::text)
         OR (oe.type = ANY($5::text[]) AND oe.payload->'data'->>'id' = ANY($6::text[])))
     GROUP BY oe.id
     ORDER BY oe.sequence
     LIMIT 500`,
    [
      input.organizationId,
      input.since,
      ORDER_EVENT_TYPES,
      input.orderId,
      REFUND_EVENT_TYPES,
      input.refundIds,
    ],
  );
  return rows;
}

const orderExportSelect = {
  id: true,
  createdAt: true,
  status: true,
  billingReason: true,
  currency: true,
  subtotalAmount: true,
  discountAmount: true,
  netAmount: true,
  taxAmount: true,
  totalAmount: true,
  refundedAmount: true,
  refundedTaxAmount: true,
  invoiceNumber: true,
  productName: true,
  customer: { select: { email: true, name: true } },
} as const satisfies Prisma.OrderSelect;

export type OrderExportRow = Prisma.OrderGetPayload<{ select: typeof orderExportSelect }>;

/** One page of the export: only the columns it writes. */
export function listOrderExportRows(
  db: Db,
  where: Prisma.OrderWhereInput,
  orderBy: Prisma.OrderOrderByWithRelationInput[],
  page: { skip: number; take: number },
) {
  return db.order.findMany({ where, orderBy, select: orderExportSelect, ...page });
}

/** When the subscription's unpaid orders were last tried, or null before their first try. */
export async function lastTryOfUnpaidOrders(sql: SqlClient, subscriptionId: string): Promise<Date | null> {
  const { rows } = await sql.query<{ lastAttemptAt: Date | null }>(
    `SELECT max(a.created_at) AS "lastAttemptAt"
     FROM order_payment_attempts a JOIN orders o ON o.id = a.order_id
     WHERE o.subscription_id = $1::uuid AND o.status = 'pending'`,
    [subscriptionId],
  );
  return rows[0]?.lastAttemptAt ?? null;
}

/** A customer's orders, newest first, with the product's name as each order recorded it (their timeline). */
export async function listCustomerOrderHistory(
  sql: SqlClient,
  organizationId: string,
  customerId: string,
  limit: number,
) {
  const { rows } = await sql.query<{
    id: string;
    createdAt: Date;
    status: string;
    totalAmount: number;
    currency: string;
    productName: string;
  }>(
    // The product's name as the order recorded it: a product renamed since keeps its past orders'.
    `SELECT o.id, o.created_at AS "createdAt", o.status, o.total_amount AS "totalAmount", o.currency,
            o.product_name AS "productName"
     FROM orders o
     WHERE o.customer_id = $2::uuid AND o.organization_id = $1::uuid
     ORDER BY o.created_at DESC LIMIT $3`,
    [organizationId, customerId, limit],
  );
  return rows;
}
