import type { Prisma } from '../../generated/prisma/client.js';
import type { Db, SqlClient } from '../../infra/db.js';
import type {
  OffSessionPaymentResult,
  PaymentMethodSummary,
  ProcessorEvent,
  ProcessorName,
} from './processor.js';
import { orderChargeTryKey, type ProcessorEntity } from './rules.js';

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

// ----- payments ----------------------------------------------------------------------------------

export type PaymentRecord = {
  organizationId: string;
  /** Unique per try: the try's own key, so a retried step records it once. */
  requestKey: string;
  processor: ProcessorName;
  processorPaymentId: string | null;
  status: 'pending' | 'succeeded' | 'failed';
  amount: number;
  currency: string;
  card: PaymentMethodSummary | null;
  declineReason: string | null;
  declineMessage: string | null;
  checkoutId?: string | null;
  orderId?: string | null;
  customerId?: string | null;
  at: Date;
};

/**
 * Records a try, or its answer when the try is already known and still pending (a step retried
 * after the processor answered, a 3-D Secure payment that settled). A settled try never changes.
 */
export async function recordPayment(sql: SqlClient, payment: PaymentRecord): Promise<void> {
  await sql.query(
    `INSERT INTO payments
       (organization_id, request_key, processor, processor_payment_id, status, amount, currency,
        card_brand, card_last4, decline_reason, decline_message, checkout_id, order_id, customer_id,
        created_at)
     VALUES ($1::uuid, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::uuid, $13::uuid, $14::uuid, $15)
     ON CONFLICT (request_key) DO UPDATE
       SET status = EXCLUDED.status,
           processor_payment_id = COALESCE(EXCLUDED.processor_payment_id, payments.processor_payment_id),
           card_brand = COALESCE(EXCLUDED.card_brand, payments.card_brand),
           card_last4 = COALESCE(EXCLUDED.card_last4, payments.card_last4),
           decline_reason = EXCLUDED.decline_reason, decline_message = EXCLUDED.decline_message,
           order_id = COALESCE(EXCLUDED.order_id, payments.order_id),
           customer_id = COALESCE(EXCLUDED.customer_id, payments.customer_id),
           modified_at = EXCLUDED.created_at
     WHERE payments.status = 'pending' AND EXCLUDED.status <> 'pending'`,
    [
      payment.organizationId,
      payment.requestKey,
      payment.processor,
      payment.processorPaymentId,
      payment.status,
      payment.amount,
      payment.currency,
      payment.card?.brand ?? null,
      payment.card?.last4 ?? null,
      payment.declineReason,
      payment.declineMessage,
      payment.checkoutId ?? null,
      payment.orderId ?? null,
      payment.customerId ?? null,
      payment.at,
    ],
  );
}

/**
 * A try of an order charged without its customer (a renewal, a dunning try, a plan change billed
 * now), once the processor answered it or refused the request.
 */
export type OrderChargeTry = {
  organizationId: string;
  customerId: string;
  order: { id: string; totalAmount: number; currency: string };
  attempt: number;
  processor: ProcessorName;
  answer: Exclude<OffSessionPaymentResult, { status: 'processing' }>;
  /** The card saved for the charge as stored, named when the answer describes none. */
  savedCard: Partial<PaymentMethodSummary> | null;
  at: Date;
};

export function recordOrderChargeTry(sql: SqlClient, charge: OrderChargeTry): Promise<void> {
  const { answer, savedCard, order } = charge;
  const failed = answer.status === 'failed' ? answer : null;
  return recordPayment(sql, {
    organizationId: charge.organizationId,
    requestKey: orderChargeTryKey(order.id, charge.attempt),
    processor: charge.processor,
    processorPaymentId: answer.paymentId,
    status: answer.status,
    amount: order.totalAmount,
    currency: order.currency,
    card:
      answer.paymentMethod ??
      (savedCard?.brand && savedCard.last4 ? { brand: savedCard.brand, last4: savedCard.last4 } : null),
    declineReason: failed?.declineCode ?? null,
    declineMessage: failed?.message ?? null,
    orderId: order.id,
    customerId: charge.customerId,
    at: charge.at,
  });
}

/**
 * The processor settled a pending payment (an event after 3-D Secure, a cancel), or the workflow
 * gave up on it: its try takes the outcome. A try already settled keeps its answer, so a replayed event changes nothing.
 */
export async function settlePendingPayment(
  db: Client,
  which: { processorPaymentId: string } | { requestKey: string },
  outcome: {
    status: 'succeeded' | 'failed';
    card: PaymentMethodSummary | null;
    declineReason: string | null;
    declineMessage: string | null;
    at: Date;
  },
): Promise<void> {
  await db.payment.updateMany({
    where: { ...which, status: 'pending' },
    data: {
      status: outcome.status,
      ...(outcome.card ? { cardBrand: outcome.card.brand, cardLast4: outcome.card.last4 } : {}),
      declineReason: outcome.declineReason,
      declineMessage: outcome.declineMessage,
      modifiedAt: outcome.at,
    },
  });
}

/**
 * A checkout became an order: its tries are the buyer's, and the one that paid is the order's.
 * Run in the order's transaction.
 */
export async function assignCheckoutPayments(
  db: Client,
  input: { checkoutId: string; orderId: string; customerId: string; processorPaymentId: string | null },
): Promise<void> {
  await db.payment.updateMany({
    where: { checkoutId: input.checkoutId, customerId: null },
    data: { customerId: input.customerId },
  });
  if (input.processorPaymentId) {
    await db.payment.updateMany({
      where: { checkoutId: input.checkoutId, processorPaymentId: input.processorPaymentId },
      data: { orderId: input.orderId },
    });
  }
}

export type PaymentRow = Prisma.PaymentGetPayload<object>;

export function listPaymentRows(
  db: Client,
  where: Prisma.PaymentWhereInput,
  orderBy: Prisma.PaymentOrderByWithRelationInput[],
  page: { skip: number; take: number },
) {
  return Promise.all([
    db.payment.findMany({ where, orderBy: [...orderBy, { id: 'asc' }], ...page }),
    db.payment.count({ where }),
  ]);
}

export function findPaymentRow(db: Client, id: string) {
  return db.payment.findUnique({ where: { id } });
}

/** The succeeded try that made an order, by the processor's payment id (a dispute names it). */
export function findOrderPaymentByProcessorId(db: Client, processorPaymentId: string) {
  return db.payment.findFirst({
    where: { processorPaymentId, status: 'succeeded', orderId: { not: null } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}

/** An order's tries, oldest first: its own, and those of the checkout it came from. */
export function listPaymentsOfOrder(db: Client, order: { id: string; checkoutId: string | null }) {
  return db.payment.findMany({
    where: { OR: [{ orderId: order.id }, ...(order.checkoutId ? [{ checkoutId: order.checkoutId }] : [])] },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}

/**
 * A payment the customer made themselves in the portal (`order_customer_payments`), as a try of
 * its order: read, not written, from the order and its subscription, which name the organization,
 * the buyer, the amount and the processor that was asked.
 */
export async function recordCustomerPaymentTry(
  sql: SqlClient,
  customerPaymentId: string,
  answer: Pick<
    PaymentRecord,
    'status' | 'processorPaymentId' | 'card' | 'declineReason' | 'declineMessage' | 'at'
  >,
): Promise<void> {
  await sql.query(
    `INSERT INTO payments
       (organization_id, request_key, processor, processor_payment_id, status, amount, currency,
        card_brand, card_last4, decline_reason, decline_message, order_id, customer_id, created_at)
     SELECT o.organization_id, 'order-customer-payment:' || cp.id, COALESCE(s.payment_processor, 'stripe'),
            $2, $3, o.total_amount, o.currency, $4, $5, $6, $7, o.id, o.customer_id, cp.created_at
       FROM order_customer_payments cp
       JOIN orders o ON o.id = cp.order_id
       LEFT JOIN subscriptions s ON s.id = o.subscription_id
      WHERE cp.id = $1::uuid
     ON CONFLICT (request_key) DO UPDATE
       SET status = EXCLUDED.status,
           processor_payment_id = COALESCE(EXCLUDED.processor_payment_id, payments.processor_payment_id),
           card_brand = COALESCE(EXCLUDED.card_brand, payments.card_brand),
           card_last4 = COALESCE(EXCLUDED.card_last4, payments.card_last4),
           decline_reason = EXCLUDED.decline_reason, decline_message = EXCLUDED.decline_message,
           modified_at = $8
     WHERE payments.status = 'pending'`,
    [
      customerPaymentId,
      answer.processorPaymentId,
      answer.status,
      answer.card?.brand ?? null,
      answer.card?.last4 ?? null,
      answer.declineReason,
      answer.declineMessage,
      answer.at,
    ],
  );
}
