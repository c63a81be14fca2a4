import type { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../infra/db.js';

type Client = Db | Prisma.TransactionClient;

/** The order's buyer, whom the dispute's view shows: read in the same statement. */
const disputeInclude = { order: { select: { customer: true } } } as const satisfies Prisma.DisputeInclude;

export type DisputeRow = Prisma.DisputeGetPayload<{ include: typeof disputeInclude }>;

export function findDispute(db: Client, id: string) {
  return db.dispute.findUnique({ where: { id }, include: disputeInclude });
}

export function findDisputeByProcessorId(db: Client, processor: string, processorDisputeId: string) {
  return db.dispute.findUnique({
    where: { processor_processorDisputeId: { processor, processorDisputeId } },
    include: disputeInclude,
  });
}

/** Serializes the events and the seller's acceptance of one processor dispute. */
export async function lockProcessorDispute(tx: Prisma.TransactionClient, processorDisputeId: string) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`dispute:${processorDisputeId}`}))`;
}

export function insertDispute(tx: Client, data: Prisma.DisputeUncheckedCreateInput) {
  return tx.dispute.create({ data, include: disputeInclude });
}

export function updateDispute(tx: Client, id: string, data: Prisma.DisputeUncheckedUpdateInput) {
  return tx.dispute.update({ where: { id }, data, include: disputeInclude });
}

export function listDisputeRows(
  db: Client,
  where: Prisma.DisputeWhereInput,
  orderBy: Prisma.DisputeOrderByWithRelationInput[],
  page: { skip: number; take: number },
) {
  return Promise.all([
    db.dispute.findMany({ where, orderBy: [...orderBy, { id: 'asc' }], ...page, include: disputeInclude }),
    db.dispute.count({ where }),
  ]);
}
