// The sandbox processor's own tables: the payments, customers and refunds it keeps instead of Stripe.
import type { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../infra/db.js';

type Client = Db | Prisma.TransactionClient;

export type SandboxPaymentRow = Awaited<ReturnType<Db['sandboxPayment']['create']>>;
export type SandboxRefundRow = Awaited<ReturnType<Db['sandboxRefund']['create']>>;

export function findSandboxCustomerByKey(db: Client, idempotencyKey: string) {
  return db.sandboxCustomer.findUnique({ where: { idempotencyKey } });
}

export function findSandboxCustomer(db: Client, id: string) {
  return db.sandboxCustomer.findUnique({ where: { id } });
}

/** Inserts unless the idempotency key is taken (a concurrent first request won the race). */
export function insertSandboxCustomer(db: Client, data: Prisma.SandboxCustomerCreateManyInput) {
  return db.sandboxCustomer.createMany({ data: [data], skipDuplicates: true });
}

export function findSandboxPaymentByKey(db: Client, idempotencyKey: string) {
  return db.sandboxPayment.findUnique({ where: { idempotencyKey } });
}

export function findSandboxPayment(db: Client, id: string) {
  return db.sandboxPayment.findUnique({ where: { id } });
}

export function insertSandboxPayment(db: Client, data: Prisma.SandboxPaymentCreateManyInput) {
  return db.sandboxPayment.createMany({ data: [data], skipDuplicates: true });
}

/** The payment row, locked until the transaction ends: refunds of one payment run one at a time. */
export async function lockSandboxPayment(tx: Prisma.TransactionClient, id: string) {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM sandbox_payments WHERE id = ${id} FOR UPDATE`;
  if (rows.length === 0) return null;
  return tx.sandboxPayment.findUnique({ where: { id } });
}

export function findSandboxRefundByKey(db: Client, idempotencyKey: string) {
  return db.sandboxRefund.findUnique({ where: { idempotencyKey }, include: { payment: true } });
}

/** What the payment's refunds took so far; a failed refund gave its amount back. */
export async function sumSandboxRefunds(db: Client, paymentId: string): Promise<number> {
  const { _sum } = await db.sandboxRefund.aggregate({
    where: { paymentId, failureReason: null },
    _sum: { amount: true },
  });
  return _sum.amount ?? 0;
}

export function insertSandboxRefund(db: Client, data: Prisma.SandboxRefundCreateManyInput) {
  return db.sandboxRefund.create({ data, include: { payment: true } });
}

export function updateSandboxPayment(
  tx: Prisma.TransactionClient,
  id: string,
  data: Pick<Prisma.SandboxPaymentUpdateInput, 'status' | 'declineCode' | 'failureMessage'>,
) {
  return tx.sandboxPayment.update({ where: { id }, data });
}
