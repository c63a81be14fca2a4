// The one path every processor event takes to the workflows: Stripe's webhooks and the sandbox's
// outcomes alike. An event is recorded once per (processor, event id), and handed to the sink only
// while it has not been delivered: duplicates and re-sent events are absorbed here.
//
// Delivery is at least once. The row is written before the sink is called and marked delivered
// after the sink returned; if the sink throws, the row stays undelivered and is delivered again by
// whichever comes first: the processor re-sending the event (Stripe retries any non-2xx answer;
// a retried sandbox call reports its outcome again) or `redeliverProcessorEvents`, which the worker
// runs on a schedule. A process dying between the sink's success and the mark leads to a second
// delivery once the lease ends, so receivers treat an event id they have seen as done.
import type { Db } from '../../infra/db.js';
import type { CheckoutWorkflows } from '../checkouts/service.js';
import type { DisputeWorkflows } from '../disputes/service.js';
import type { RefundWorkflows } from '../refunds/service.js';
import type { SubscriptionWorkflows } from '../subscriptions/service.js';
import type { ProcessorEvent, ProcessorEventSink, ProcessorName } from './processor.js';
import {
  claimProcessorEvent,
  findProcessorEvent,
  insertProcessorEvent,
  listUndeliveredProcessorEvents,
  markProcessorEventDelivered,
  releaseProcessorEvent,
  settlePendingPayment,
} from './repository.js';
import { processorEventSchema } from './schemas.js';

/**
 * The sink every processor event ends in: payment events wake the checkout's workflow, a
 * customer's own payment for a subscription's order wakes the subscription's, refund events the
 * refund's, starting it when it ended (it then re-reads its row and ends again, so a late or
 * repeated event changes nothing); dispute events the dispute's.
 */
export function processorEventRouter(workflows: {
  checkouts: Pick<CheckoutWorkflows, 'signalPayment'>;
  refunds: Pick<RefundWorkflows, 'signalOutcome'>;
  subscriptions: Pick<SubscriptionWorkflows, 'signalCustomerPayment'>;
  disputes: Pick<DisputeWorkflows, 'signalEvent'>;
}): ProcessorEventSink {
  return {
    async deliver(event) {
      switch (event.type) {
        case 'payment.succeeded':
          return workflows.checkouts.signalPayment(event.checkoutId, {
            type: event.type,
            paymentId: event.paymentId,
          });
        case 'payment.failed':
          return workflows.checkouts.signalPayment(event.checkoutId, {
            type: event.type,
            paymentId: event.paymentId,
            message: event.message,
          });
        case 'order_payment.succeeded':
          return workflows.subscriptions.signalCustomerPayment(event.subscriptionId, {
            orderId: event.orderId,
            paymentId: event.paymentId,
            status: 'succeeded',
            declineCode: null,
            message: null,
          });
        case 'order_payment.failed':
          return workflows.subscriptions.signalCustomerPayment(event.subscriptionId, {
            orderId: event.orderId,
            paymentId: event.paymentId,
            status: 'failed',
            declineCode: event.declineCode,
            message: event.message,
          });
        case 'refund.succeeded':
          return workflows.refunds.signalOutcome(event.refundId, {
            type: event.type,
            processorRefundId: event.processorRefundId,
          });
        case 'refund.failed':
          return workflows.refunds.signalOutcome(event.refundId, {
            type: event.type,
            processorRefundId: event.processorRefundId,
            reason: event.reason,
          });
        case 'dispute.updated':
          return workflows.disputes.signalEvent(event);
      }
    },
  };
}

/** How long one delivery may take before another process may deliver the same event. */
export const DELIVERY_LEASE_MS = 60_000;

export type IngestOutcome = 'delivered' | 'duplicate';

/**
 * Records `event` and delivers it unless it was delivered before (or is being delivered right now
 * by another process): 'duplicate'. Throws what the sink threw, leaving the event undelivered.
 */
export async function ingestProcessorEvent(
  db: Db,
  processor: ProcessorName,
  event: ProcessorEvent,
  sink: ProcessorEventSink,
): Promise<IngestOutcome> {
  await insertProcessorEvent(db, processor, event);
  return deliverRecordedEvent(db, { processor, eventId: event.id }, sink);
}

/**
 * A payment's try that waited (3-D Secure, a customer's payment in the portal) takes the outcome
 * the processor reports, with the decline code and the card only the event carries.
 */
async function settlePaymentOf(db: Db, event: ProcessorEvent): Promise<void> {
  const at = new Date(event.occurredAt);
  switch (event.type) {
    case 'payment.succeeded':
    case 'order_payment.succeeded':
      return settlePendingPayment(
        db,
        { processorPaymentId: event.paymentId },
        { status: 'succeeded', card: event.paymentMethod, declineReason: null, declineMessage: null, at },
      );
    case 'payment.failed':
    case 'order_payment.failed':
      if (!event.paymentId) return;
      return settlePendingPayment(
        db,
        { processorPaymentId: event.paymentId },
        { status: 'failed', card: null, declineReason: event.declineCode, declineMessage: event.message, at },
      );
    default:
      return;
  }
}

async function deliverRecordedEvent(
  db: Db,
  key: { processor: string; eventId: string },
  sink: ProcessorEventSink,
): Promise<IngestOutcome> {
  if (!(await claimProcessorEvent(db, key, DELIVERY_LEASE_MS))) return 'duplicate';
  try {
    const row = await findProcessorEvent(db, key);
    // The stored event, not the one just received: a re-sent event is delivered as first recorded.
    const event = processorEventSchema.parse(row?.payload);
    await settlePaymentOf(db, event);
    await sink.deliver(event);
  } catch (error) {
    // Free it at once: the processor's retry or the next redelivery run may deliver it.
    await releaseProcessorEvent(db, key).catch(() => undefined);
    throw error;
  }
  await markProcessorEventDelivered(db, key);
  return 'delivered';
}

/**
 * Delivers events that were recorded but never delivered (the sink failed, or the process died),
 * oldest first. `minAgeMs` leaves alone events whose first delivery may still be under way.
 * Returns how many were delivered and how many failed again (those stay for the next run).
 */
export async function redeliverProcessorEvents(
  db: Db,
  sink: ProcessorEventSink,
  { minAgeMs = DELIVERY_LEASE_MS, limit = 100 }: { minAgeMs?: number; limit?: number } = {},
): Promise<{ delivered: number; failed: number }> {
  const pending = await listUndeliveredProcessorEvents(db, {
    receivedBefore: new Date(Date.now() - minAgeMs),
    limit,
  });
  const counts = { delivered: 0, failed: 0 };
  for (const key of pending) {
    try {
      if ((await deliverRecordedEvent(db, key, sink)) === 'delivered') counts.delivered += 1;
    } catch {
      counts.failed += 1;
    }
  }
  return counts;
}
