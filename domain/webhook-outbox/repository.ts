import type { Db, SqlClient } from '../../infra/db.js';
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
  await tx.outboxEvent.create({
    select: { id: true },
    data: { organizationId: event.organizationId, type: event.type, payload: outboxPayload(event) },
  });
}

type OutboxEventInput = Parameters<typeof recordEvent>[1];

/** The webhook body as Polar's SDK parses it. */
const outboxPayload = (event: OutboxEventInput) => ({
  type: event.type,
  timestamp: (event.at ?? new Date()).toISOString(),
  data: event.data,
});

/**
 * Several events in one statement on a transaction's connection (`Tx.sql`), in this order: the
 * path of every renewal, where each Prisma statement is dear.
 */
export async function recordEvents(sql: SqlClient, events: OutboxEventInput[]): Promise<void> {
  if (events.length === 0) return;
  const values: unknown[] = [];
  const tuples = events.map((event) => {
    values.push(event.organizationId, event.type, JSON.stringify(outboxPayload(event)));
    return `($${values.length - 2}::uuid, $${values.length - 1}, $${values.length}::jsonb)`;
  });
  await sql.query(
    `INSERT INTO outbox_events (organization_id, type, payload) VALUES ${tuples.join(', ')}`,
    values,
  );
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
