import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';

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

/** What charging an order needs, and its receipt's lines. */
export function findOrderToCollect(db: Client, id: string) {
  return db.order.findUnique({
    where: { id },
    select: {
      id: true,
      subscriptionId: true,
      status: true,
      requestKey: true,
      totalAmount: true,
      currency: true,
      billingReason: true,
      items: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: { label: true, amount: true } },
    },
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

/** Pending → paid in one conditional statement: false when it was not pending (paid already). */
export async function markOrderPaidIfPending(
  tx: Prisma.TransactionClient,
  id: string,
  paymentId: string | null,
): Promise<boolean> {
  const { count } = await tx.order.updateMany({
    where: { id, status: 'pending' },
    data: { status: 'paid', paymentId, modifiedAt: new Date() },
  });
  return count === 1;
}

/** One try to collect an order; a retried step records it once (unique per order and try). */
export async function recordPaymentAttempt(
  tx: Prisma.TransactionClient,
  data: Omit<Prisma.OrderPaymentAttemptCreateManyInput, 'id'>,
): Promise<void> {
  await tx.orderPaymentAttempt.createMany({ data: [data], skipDuplicates: true });
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
