import type { Db, SqlClient } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';

type Client = Db | Prisma.TransactionClient;

export type RefundRow = Prisma.RefundGetPayload<object>;

/** What pending refunds of an order already hold back from what is left to refund. */
export async function sumPendingRefunds(tx: Client, orderId: string) {
  const pending = await tx.refund.aggregate({
    where: { orderId, status: 'pending' },
    _sum: { amount: true, taxAmount: true },
  });
  return { amount: pending._sum.amount ?? 0, taxAmount: pending._sum.taxAmount ?? 0 };
}

export function insertRefund(tx: Prisma.TransactionClient, data: Prisma.RefundUncheckedCreateInput) {
  return tx.refund.create({ data });
}

export function findRefundByRequestKey(
  tx: Prisma.TransactionClient,
  organizationId: string,
  requestKey: string,
) {
  return tx.refund.findUnique({ where: { organizationId_requestKey: { organizationId, requestKey } } });
}

export function listRefundRows(
  db: Db,
  where: Prisma.RefundWhereInput,
  orderBy: Prisma.RefundOrderByWithRelationInput[],
  page: { skip: number; take: number },
) {
  return db.$transaction([db.refund.findMany({ where, orderBy, ...page }), db.refund.count({ where })]);
}

export function findRefund(db: Client, id: string) {
  return db.refund.findUnique({ where: { id } });
}

/** The refund with the payment it gives money back from. */
export function findRefundWithPayment(db: Client, id: string) {
  return db.refund.findUnique({
    where: { id },
    include: { order: { select: { paymentId: true } } },
  });
}

/** Moves a pending refund to its outcome; 0 when it had moved already (a replayed outcome). */
export async function settlePendingRefund(
  tx: Prisma.TransactionClient,
  id: string,
  data: Pick<Prisma.RefundUncheckedUpdateInput, 'status' | 'processorRefundId' | 'failureReason'>,
): Promise<number> {
  const moved = await tx.refund.updateMany({
    where: { id, status: 'pending' },
    data: { ...data, modifiedAt: new Date() },
  });
  return moved.count;
}

/** Pending refunds older than `before`, for the reconciler that restarts lost workflows. */
export function findPendingRefunds(db: Db, before: Date, limit: number) {
  return db.refund.findMany({
    where: { status: 'pending', createdAt: { lt: before } },
    select: { id: true },
    orderBy: { createdAt: 'asc' },
    take: limit,
  });
}

/** What the start of a refund's workflow tells operators (temporal/entity-directory.ts). */
export function findRefundForOperators(db: Db, id: string) {
  return db.refund.findUnique({
    where: { id },
    select: {
      organizationId: true,
      organization: { select: { name: true } },
      orderId: true,
      order: { select: { product: { select: { name: true } } } },
      customer: { select: { email: true } },
      amount: true,
      taxAmount: true,
      currency: true,
      reason: true,
    },
  });
}

/** Refunds of a customer's orders, newest first (their timeline). */
export async function listCustomerRefundHistory(
  sql: SqlClient,
  organizationId: string,
  customerId: string,
  limit: number,
) {
  const { rows } = await sql.query<{
    createdAt: Date;
    status: string;
    amount: number;
    currency: string;
    orderId: string;
  }>(
    `SELECT r.created_at AS "createdAt", r.status, r.amount, r.currency, r.order_id AS "orderId"
     FROM refunds r JOIN orders o ON o.id = r.order_id
     WHERE o.customer_id = $2::uuid AND r.organization_id = $1::uuid
     ORDER BY r.created_at DESC LIMIT $3`,
    [organizationId, customerId, limit],
  );
  return rows;
}

/** A refund that went through, with what its confirmation email says (the buyer, product and seller). */
export async function findRefundConfirmation(sql: SqlClient, refundId: string) {
  const { rows } = await sql.query<{
    amount: number;
    taxAmount: number;
    currency: string;
    email: string;
    customerName: string | null;
    productName: string | null;
    organizationName: string;
    organizationEmail: string | null;
    organizationWebsite: string | null;
    slug: string;
  }>(
    `SELECT r.amount, r.tax_amount AS "taxAmount", r.currency, c.email, c.name AS "customerName",
            p.name AS "productName", o.name AS "organizationName", o.email AS "organizationEmail",
            o.website AS "organizationWebsite", o.slug
     FROM refunds r
     JOIN orders ord ON ord.id = r.order_id
     JOIN customers c ON c.id = ord.customer_id
     LEFT JOIN products p ON p.id = ord.product_id
     JOIN organizations o ON o.id = r.organization_id
     WHERE r.id = $1::uuid AND r.status = 'succeeded'`,
    [refundId],
  );
  return rows[0] ?? null;
}
