// The sandbox processor's own tables: the payments, customers, refunds and confirmation tokens it
// keeps instead of Stripe.
import { Prisma } from '../../generated/prisma/client.js';
import type { Db, SqlClient } from '../../infra/db.js';
import { insertRows, selectList } from '../../infra/sql.js';

type Client = Db | Prisma.TransactionClient;

export type SandboxPaymentRow = Awaited<ReturnType<Db['sandboxPayment']['create']>>;
export type SandboxRefundRow = Awaited<ReturnType<Db['sandboxRefund']['create']>>;

export function findSandboxCustomerByKey(db: Client, idempotencyKey: string) {
  return db.sandboxCustomer.findUnique({ where: { idempotencyKey } });
}

/** Inserts unless the idempotency key is taken (a concurrent first request won the race). */
export function insertSandboxCustomer(db: Client, data: Prisma.SandboxCustomerCreateManyInput) {
  return db.sandboxCustomer.createMany({ data: [data], skipDuplicates: true });
}

// Payments are written and looked up in plain SQL: every renewal of every sandbox plan makes one.

export async function findSandboxPaymentByKey(
  sql: SqlClient,
  idempotencyKey: string,
): Promise<SandboxPaymentRow | null> {
  const { rows } = await sql.query<SandboxPaymentRow>(
    `SELECT ${selectList(Prisma.SandboxPaymentScalarFieldEnum, 'p')} FROM sandbox_payments p
     WHERE p.idempotency_key = $1`,
    [idempotencyKey],
  );
  return rows[0] ?? null;
}

/** Whether the sandbox knows this customer. */
export async function sandboxCustomerExists(sql: SqlClient, id: string): Promise<boolean> {
  const { rowCount } = await sql.query('SELECT 1 FROM sandbox_customers WHERE id = $1', [id]);
  return rowCount === 1;
}

export function findSandboxPayment(db: Client, id: string) {
  return db.sandboxPayment.findUnique({ where: { id } });
}

/** The new payment, or null when its idempotency key is taken (a concurrent first request won). */
export async function insertSandboxPayment(
  sql: SqlClient,
  data: Omit<
    SandboxPaymentRow,
    'createdAt' | 'setupFutureUsage' | 'offSession' | 'clientSecret' | 'cardExpMonth' | 'cardExpYear'
  > &
    Partial<
      Pick<
        SandboxPaymentRow,
        'setupFutureUsage' | 'offSession' | 'clientSecret' | 'cardExpMonth' | 'cardExpYear'
      >
    >,
): Promise<SandboxPaymentRow | null> {
  const [row] = await insertRows<SandboxPaymentRow>(sql, 'sandbox_payments', [data], {
    returning: Prisma.SandboxPaymentScalarFieldEnum,
    jsonFields: ['metadata'],
    onConflictDoNothing: true,
  });
  return row ?? null;
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

export function insertSandboxConfirmationToken(db: Client, data: Prisma.SandboxConfirmationTokenCreateInput) {
  return db.sandboxConfirmationToken.create({ data });
}

export function findSandboxConfirmationToken(db: Client, id: string) {
  return db.sandboxConfirmationToken.findUnique({ where: { id } });
}
