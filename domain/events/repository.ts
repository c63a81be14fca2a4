import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { WebhookEventType } from './schemas.js';

type Transaction = Prisma.TransactionClient;

/**
 * Records an event in the outbox. Call it with the transaction that makes the change, so the
 * change and its event commit together (DESIGN.md, "Consistency rules").
 */
export async function recordEvent(
  tx: Transaction,
  event: { organizationId: string; type: WebhookEventType; data: Prisma.InputJsonValue; at?: Date },
): Promise<void> {
  const timestamp = (event.at ?? new Date()).toISOString();
  await tx.outboxEvent.create({
    select: { id: true },
    data: {
      organizationId: event.organizationId,
      type: event.type,
      payload: { type: event.type, timestamp, data: event.data },
    },
  });
}

type Client = Db | Prisma.TransactionClient;

/** The oldest events not yet fanned out to webhook endpoints. */
export function listUndispatchedOutboxEvents(db: Client, limit: number) {
  return db.outboxEvent.findMany({
    where: { dispatchedAt: null },
    orderBy: { sequence: 'asc' },
    take: limit,
  });
}

export function markOutboxEventsDispatched(db: Client, ids: string[], at: Date) {
  return db.outboxEvent.updateMany({
    where: { id: { in: ids }, dispatchedAt: null },
    data: { dispatchedAt: at },
  });
}
