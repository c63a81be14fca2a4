// Payments a customer makes themselves for an order in the portal (`order_customer_payments`): how
// each one moves on as the processor answers, and how a charge of the order made without the
// customer first stops the ones still open, so one order is never paid twice.
import type { Db } from '../../infra/db.js';
import type { OffSessionPaymentResult, PaymentProcessor, PaymentResult } from '../payments/processor.js';
import { recordCustomerPaymentTry } from '../payments/repository.js';
import {
  listCustomerPaymentsOfOrder,
  OPEN_CUSTOMER_PAYMENT_STATUSES,
  updateOpenCustomerPayment,
} from './repository.js';

/**
 * How long a customer payment may stay `creating` (its workflow asking the processor) before a
 * charge of the same order stops waiting for it: the portal gives up on the answer after a minute.
 */
export const CUSTOMER_PAYMENT_CREATION_MS = 2 * 60_000;

/** A customer payment's row as the processor's answer (or event) leaves it. */
export async function recordCustomerPaymentResult(
  db: Db,
  id: string,
  result: PaymentResult,
  at: Date,
): Promise<void> {
  const canceled = result.status === 'failed' && result.declineCode === 'canceled';
  const moved = await updateOpenCustomerPayment(db, id, {
    status: canceled ? 'canceled' : result.status,
    paymentId: result.paymentId,
    declineCode: result.status === 'failed' ? result.declineCode : null,
    message: result.status === 'failed' ? result.message : null,
    modifiedAt: at,
  });
  // Only an answer that moved the customer's payment on is its try's answer: a late one is not.
  if (!moved) return;
  await recordCustomerPaymentTry(db.sql, id, {
    status: result.status === 'succeeded' ? 'succeeded' : result.status === 'failed' ? 'failed' : 'pending',
    processorPaymentId: result.paymentId,
    card: result.status === 'succeeded' || result.status === 'failed' ? (result.paymentMethod ?? null) : null,
    declineReason: result.status === 'failed' ? result.declineCode : null,
    declineMessage: result.status === 'failed' ? result.message : null,
    at,
  });
}

/**
 * Before the order is charged without the customer: every payment they started for it and did not
 * finish (the bank's page left open) is canceled. One that succeeded meanwhile paid the order, and
 * is answered instead of a new charge. A payment still being created may reach the processor any
 * moment: the caller is failed, so its retry comes back once that one can be canceled.
 */
export async function stopCustomerPayments(
  db: Db,
  processor: PaymentProcessor,
  orderId: string,
  nowMs: number,
): Promise<Extract<OffSessionPaymentResult, { status: 'succeeded' }> | null> {
  const payments = await listCustomerPaymentsOfOrder(db, orderId);
  const open = payments.filter((payment) =>
    (OPEN_CUSTOMER_PAYMENT_STATUSES as readonly string[]).includes(payment.status),
  );
  for (const payment of open) {
    if (!payment.paymentId) {
      if (nowMs - payment.createdAt.getTime() < CUSTOMER_PAYMENT_CREATION_MS) {
        throw new Error(`order ${orderId}: its customer is paying it right now (payment ${payment.id})`);
      }
      // Never reached the processor (its request was lost): nothing to cancel.
      await updateOpenCustomerPayment(db, payment.id, {
        status: 'failed',
        declineCode: 'abandoned',
        message: 'The payment was not completed.',
        modifiedAt: new Date(nowMs),
      });
      continue;
    }
    const result = await processor.cancelPayment({
      paymentId: payment.paymentId,
      idempotencyKey: `order-customer-payment:${payment.id}:cancel`,
    });
    await recordCustomerPaymentResult(db, payment.id, result, new Date(nowMs));
    if (result.status === 'succeeded') return result;
  }
  return null;
}
