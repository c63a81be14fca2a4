import type { Prisma } from '../../generated/prisma/client.js';
import type { WebhookEventType } from './schemas.js';

type Transaction = Prisma.TransactionClient;

/**
 * Records an event in the outbox. Call it with the transaction that makes the change, so the
 * change and its event commit together (DESIGN.md, "Consistency rules").
 */
export function recordEvent(
  tx: Transaction,
  event: { organizationId: string; type: WebhookEventType; data: Prisma.InputJsonValue; at?: Date },
) {
  const timestamp = (event.at ?? new Date()).toISOString();
  return tx.outboxEvent.create({
    data: {
      organizationId: event.organizationId,
      type: event.type,
      payload: { type: event.type, timestamp, data: event.data },
    },
  });
}
