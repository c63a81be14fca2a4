import type { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../infra/db.js';
import type { ProcessorEvent, ProcessorName } from './processor.js';

type Client = Db | Prisma.TransactionClient;

// ----- processor_events ----------------------------------------------------------------------

/** Records an event unless its (processor, event id) is already known: ON CONFLICT DO NOTHING. */
export function insertProcessorEvent(db: Client, processor: ProcessorName, event: ProcessorEvent) {
  return db.processorEvent.createMany({
    data: [
      {
        processor,
        eventId: event.id,
        type: event.type,
        payload: event,
        occurredAt: new Date(event.occurredAt),
      },
    ],
    skipDuplicates: true,
  });
}

/**
 * Takes the right to deliver an event: one conditional UPDATE, so of two processes holding the same
 * event only one wins. Nothing to take when it was delivered already or someone's lease still runs.
 */
export async function claimProcessorEvent(
  db: Client,
  key: { processor: string; eventId: string },
  leaseMs: number,
  now = new Date(),
): Promise<boolean> {
  const { count } = await db.processorEvent.updateMany({
    where: {
      ...key,
      deliveredAt: null,
      OR: [{ deliveryLeaseUntil: null }, { deliveryLeaseUntil: { lt: now } }],
    },
    data: { deliveryLeaseUntil: new Date(now.getTime() + leaseMs) },
  });
  return count === 1;
}

export function findProcessorEvent(db: Client, key: { processor: string; eventId: string }) {
  return db.processorEvent.findUnique({ where: { processor_eventId: key } });
}

export function markProcessorEventDelivered(db: Client, key: { processor: string; eventId: string }) {
  return db.processorEvent.update({
    where: { processor_eventId: key },
    data: { deliveredAt: new Date(), deliveryLeaseUntil: null },
  });
}

export function releaseProcessorEvent(db: Client, key: { processor: string; eventId: string }) {
  return db.processorEvent.update({
    where: { processor_eventId: key },
    data: { deliveryLeaseUntil: null },
  });
}

/** Undelivered events received before `receivedBefore`, oldest first, whose lease (if any) ran out. */
export function listUndeliveredProcessorEvents(
  db: Client,
  { receivedBefore, limit, now = new Date() }: { receivedBefore: Date; limit: number; now?: Date },
) {
  return db.processorEvent.findMany({
    where: {
      deliveredAt: null,
      receivedAt: { lt: receivedBefore },
      OR: [{ deliveryLeaseUntil: null }, { deliveryLeaseUntil: { lt: now } }],
    },
    select: { processor: true, eventId: true },
    orderBy: [{ receivedAt: 'asc' }, { id: 'asc' }],
    take: limit,
  });
}

// ----- the sandbox processor's own records ---------------------------------------------------

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
