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

/** One try to collect an order; a retried step records it once (unique per order and try). */
export async function recordPaymentAttempt(
  sql: SqlClient,
  data: Omit<Prisma.OrderPaymentAttemptCreateManyInput, 'id'>,
): Promise<void> {
  await sql.query(
    `INSERT INTO order_payment_attempts (order_id, attempt, status, payment_id, decline_code, message, created_at)
     VALUES ($1::uuid, $2, $3, $4, $5, $6, $7) ON CONFLICT (order_id, attempt) DO NOTHING`,
    [
      data.orderId,
      data.attempt,
      data.status,
      data.paymentId ?? null,
      data.declineCode ?? null,
      data.message ?? null,
      data.createdAt,
    ],
  );
}

/** These customers' paid one-time orders: each entitles its buyer to the product's benefits. */
export async function paidPurchasesOf(
  sql: SqlClient,
  customerIds: string[],
): Promise<{ id: string; customerId: string; productId: string }[]> {
  const { rows } = await sql.query<{ id: string; customerId: string; productId: string }>(
    `SELECT id, customer_id AS "customerId", product_id AS "productId" FROM orders
     WHERE customer_id = ANY($1::uuid[]) AND subscription_id IS NULL
       AND status IN ('paid', 'partially_refunded', 'refunded')`,
    [customerIds],
  );
  return rows;
}

/** Every customer who bought the product once (its benefits changed). */
export async function purchaserIdsOfProduct(
  tx: Prisma.TransactionClient,
  productId: string,
): Promise<string[]> {
  const rows = await tx.order.findMany({
    where: { productId, subscriptionId: null },
    select: { customerId: true },
    distinct: ['customerId'],
  });
  return rows.map((row) => row.customerId);
}
