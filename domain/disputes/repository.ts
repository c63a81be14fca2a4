import type { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../infra/db.js';

type Client = Db | Prisma.TransactionClient;

export type DisputeRow = Prisma.DisputeGetPayload<object>;

export function findDispute(db: Client, id: string) {
  return db.dispute.findUnique({ where: { id } });
}

export function findDisputeByProcessorId(db: Client, processor: string, processorDisputeId: string) {
  return db.dispute.findUnique({
    where: { processor_processorDisputeId: { processor, processorDisputeId } },
  });
}

/** Serializes the events and the seller's acceptance of one processor dispute. */
export async function lockProcessorDispute(tx: Prisma.TransactionClient, processorDisputeId: string) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`dispute:${processorDisputeId}`}))`;
}

export function insertDispute(tx: Client, data: Prisma.DisputeUncheckedCreateInput) {
  return tx.dispute.create({ data });
}

export function updateDispute(tx: Client, id: string, data: Prisma.DisputeUncheckedUpdateInput) {
  return tx.dispute.update({ where: { id }, data });
}

export function listDisputeRows(
  db: Client,
  where: Prisma.DisputeWhereInput,
  orderBy: Prisma.DisputeOrderByWithRelationInput[],
  page: { skip: number; take: number },
) {
  return Promise.all([
    db.dispute.findMany({ where, orderBy: [...orderBy, { id: 'asc' }], ...page }),
    db.dispute.count({ where }),
  ]);
}
