// An order's timeline for the seller (our extension): payments, invoice, refunds, the buyer's emails
// and the webhooks about it, assembled from the rows that record each of them.

import type { Db } from '../../infra/db.js';
import type { Caller } from '../access/rules.js';
import { findEmailsByKeys } from '../emails/repository.js';
import { listPaymentsOfOrder } from '../payments/repository.js';
import {
  listOrderEvents,
  listDisputesOfOrder,
  listPaymentAttemptsOfOrder,
  listRefundsOfOrder,
  type OrderRow,
} from './repository.js';
import type { OrderTimeline, OrderTimelineEntry } from './schemas.js';
import { findOrderFor } from './service.js';

/**
 * The order's events are recorded in the same transaction as the order, a moment after the instant
 * the order states; the outbox is read from a little before it.
 */
const EVENT_SCAN_MARGIN_MS = 60 * 60 * 1000;

/** Entries at the same instant keep the order in which they happen. */
const TYPE_RANK: Record<OrderTimelineEntry['type'], number> = {
  order_created: 0,
  payment_attempt: 1,
  invoice_generated: 2,
  refund_requested: 3,
  refund_succeeded: 4,
  refund_failed: 4,
  dispute_opened: 4,
  dispute_closed: 4,
  email_sent: 5,
  webhook_event: 6,
};

const entry = (
  fields: Pick<OrderTimelineEntry, 'type' | 'at'> & Partial<OrderTimelineEntry>,
): OrderTimelineEntry => ({
  status: null,
  card: null,
  amount: null,
  reference: null,
  detail: null,
  ...fields,
});

/**
 * The tries to collect the order: the payments recorded for it and for the checkout it came from,
 * the same rows the payments API answers (domain/payments).
 */
async function paymentEntries(db: Db, order: OrderRow): Promise<OrderTimelineEntry[]> {
  const payments = await listPaymentsOfOrder(db, order);
  return payments.map((payment) =>
    entry({
      type: 'payment_attempt',
      at: payment.createdAt.toISOString(),
      status: payment.status,
      card:
        payment.cardBrand && payment.cardLast4
          ? { brand: payment.cardBrand, last4: payment.cardLast4 }
          : null,
      reference: payment.processorPaymentId,
      detail: payment.status === 'failed' ? (payment.declineMessage ?? payment.declineReason) : null,
    }),
  );
}

/** The keys the buyer's emails about this order were sent under (domain/orders/receipts.ts, billing). */
function emailKeys(order: OrderRow, refundIds: string[], failedAttempts: number[]): string[] {
  const keys = [`order:${order.id}:receipt`, ...refundIds.map((id) => `refund:${id}:confirmation`)];
  if (order.subscriptionId) {
    if (order.billingReason === 'subscription_create')
      keys.push(`subscription:${order.subscriptionId}:started`);
    for (const attempt of failedAttempts) {
      keys.push(`subscription:${order.subscriptionId}:order:${order.id}:failed:${attempt}`);
    }
  }
  return keys;
}

function webhookStatus(event: { endpoints: number; succeeded: number; failed: number }): string {
  if (event.failed > 0) return 'failed';
  return event.succeeded === event.endpoints ? 'succeeded' : 'pending';
}

const endpointsPhrase = (count: number) => `${count} endpoint${count === 1 ? '' : 's'}`;

export async function getOrderTimeline(db: Db, caller: Caller, id: string): Promise<OrderTimeline> {
  const order = await findOrderFor(db, caller, id);
  const [attempts, refunds, disputes] = await Promise.all([
    listPaymentAttemptsOfOrder(db, order.id),
    listRefundsOfOrder(db, order.organizationId, order.id),
    listDisputesOfOrder(db, order.organizationId, order.id),
  ]);
  const payments = await paymentEntries(db, order);
  const refundIds = refunds.map((refund) => refund.id);
  const failedAttempts = attempts.filter((attempt) => attempt.status === 'failed').map((a) => a.attempt);
  const [emails, events] = await Promise.all([
    findEmailsByKeys(db, emailKeys(order, refundIds, failedAttempts)),
    listOrderEvents(db, {
      organizationId: order.organizationId,
      orderId: order.id,
      refundIds,
      // A test clock's orders state the clock's time, not when they were written: read it all.
      since: order.customer.testClockId ? null : new Date(order.createdAt.getTime() - EVENT_SCAN_MARGIN_MS),
    }),
  ]);

  const items: OrderTimelineEntry[] = [
    entry({ type: 'order_created', at: order.createdAt.toISOString() }),
    ...payments,
  ];
  if (order.invoiceNumber && order.invoicePath) {
    const generated = events.find((event) => event.type === 'order.updated' && event.isInvoiceGenerated);
    items.push(
      entry({
        type: 'invoice_generated',
        at: (generated?.createdAt ?? order.modifiedAt ?? order.createdAt).toISOString(),
        reference: order.invoiceNumber,
      }),
    );
  }
  for (const refund of refunds) {
    items.push(
      entry({
        type: 'refund_requested',
        at: refund.createdAt.toISOString(),
        status: refund.status,
        amount: refund.amount,
        reference: refund.id,
        detail: refund.reason,
      }),
    );
    if (refund.status === 'succeeded' || refund.status === 'failed') {
      items.push(
        entry({
          type: refund.status === 'succeeded' ? 'refund_succeeded' : 'refund_failed',
          at: (refund.modifiedAt ?? refund.createdAt).toISOString(),
          status: refund.status,
          amount: refund.amount,
          reference: refund.id,
          detail: refund.status === 'failed' ? refund.failureReason : null,
        }),
      );
    }
  }
  for (const dispute of disputes) {
    const common = { amount: dispute.amount, reference: dispute.processorDisputeId };
    items.push(
      entry({
        type: 'dispute_opened',
        at: dispute.createdAt.toISOString(),
        ...common,
        detail: dispute.reason,
      }),
    );
    if (['won', 'lost', 'prevented'].includes(dispute.status)) {
      items.push(
        entry({
          type: 'dispute_closed',
          at: (dispute.modifiedAt ?? dispute.createdAt).toISOString(),
          status: dispute.status,
          ...common,
          detail: dispute.acceptedAt ? 'accepted' : null,
        }),
      );
    }
  }
  for (const email of emails) {
    items.push(
      entry({
        type: 'email_sent',
        at: (email.sentAt ?? email.createdAt).toISOString(),
        status: email.status,
        reference: email.subject,
        detail: email.toAddress,
      }),
    );
  }
  for (const event of events) {
    // Only events some endpoint subscribed to were sent anywhere.
    if (event.endpoints === 0) continue;
    items.push(
      entry({
        type: 'webhook_event',
        at: event.createdAt.toISOString(),
        status: webhookStatus(event),
        reference: event.type,
        detail: `Delivered to ${event.succeeded} of ${endpointsPhrase(event.endpoints)}`,
      }),
    );
  }
  // ISO instants in UTC compare as text.
  items.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : TYPE_RANK[a.type] - TYPE_RANK[b.type]));
  return { order_id: order.id, currency: order.currency, items };
}
