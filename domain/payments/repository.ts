import type { Prisma } from '../../generated/prisma/client.js';
import type { Db, SqlClient } from '../../infra/db.js';
import type { ProcessorEvent, ProcessorName } from './processor.js';
import type { ProcessorEntity } from './rules.js';

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

// ----- processor_configuration_problems --------------------------------------------------------

/** The entities whose workflows call the processor, and the table that names their organization. */
const ENTITY_TABLES: Record<ProcessorEntity['kind'], string> = {
  checkout: 'checkouts',
  refund: 'refunds',
  subscription: 'subscriptions',
};

/**
 * Records (or refreshes) the organization's problem, found through the entity in the same
 * statement; `since` stays the first sighting.
 */
export async function upsertProcessorConfigurationProblem(
  sql: SqlClient,
  entity: ProcessorEntity,
  problem: { processor: string; code: string; message: string; at: Date },
): Promise<void> {
  await sql.query(
    `INSERT INTO processor_configuration_problems
       (organization_id, processor, code, message, since, last_seen_at)
     SELECT organization_id, $2, $3, $4, $5, $5 FROM ${ENTITY_TABLES[entity.kind]} WHERE id = $1
     ON CONFLICT (organization_id) DO UPDATE
       SET processor = EXCLUDED.processor, code = EXCLUDED.code, message = EXCLUDED.message,
           last_seen_at = EXCLUDED.last_seen_at`,
    [entity.id, problem.processor, problem.code, problem.message, problem.at],
  );
}

/** Clears the problem of the entity's organization, if it has one. */
export async function deleteProcessorConfigurationProblem(sql: SqlClient, entity: ProcessorEntity) {
  await sql.query(
    `DELETE FROM processor_configuration_problems
      WHERE organization_id = (SELECT organization_id FROM ${ENTITY_TABLES[entity.kind]} WHERE id = $1)`,
    [entity.id],
  );
}

export function findProcessorConfigurationProblem(db: Client, organizationId: string) {
  return db.processorConfigurationProblem.findUnique({ where: { organizationId } });
}
