import { log } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import {
  cancelCheckoutPayment,
  chargeCheckout,
  expireCheckout,
  failCheckoutPayment,
  fulfilCheckout,
  refundOrphanPayment,
  type ChargeOutcome,
} from '../domain/checkouts/payment.js';
import { checkoutWorkflowState, type CheckoutWorkflowState } from '../domain/checkouts/service.js';
import type { PaymentProcessor } from '../domain/payments/processor.js';
import { executeRefund, settleRefund, type RefundExecution } from '../domain/refunds/service.js';
import { redeliverProcessorEvents } from '../domain/payments/events.js';
import { startMissingCommerceWorkflows, temporalProcessorEventSink } from '../temporal/commerce.js';
import type { Db } from '../infra/db.js';

export type CommerceActivityDeps = {
  db: Db;
  publicUrl: string;
  processor: PaymentProcessor;
  processorMetadata: Record<string, string>;
  temporal: Client;
  taskQueue: string;
};

/** Checkout and refund steps; each is idempotent, so Temporal may retry any of them. */
export function createCommerceActivities(deps: CommerceActivityDeps) {
  const view = { db: deps.db, publicUrl: deps.publicUrl, processorMetadata: deps.processorMetadata };
  return {
    loadCheckoutState(checkoutId: string): Promise<CheckoutWorkflowState | null> {
      return checkoutWorkflowState(deps.db, checkoutId);
    },
    chargeCheckout(input: { checkoutId: string; attempt: number }): Promise<ChargeOutcome> {
      return chargeCheckout(view, deps.processor, input);
    },
    cancelCheckoutPayment(input: { checkoutId: string; attempt: number }): Promise<ChargeOutcome> {
      return cancelCheckoutPayment(view, deps.processor, input);
    },
    fulfilCheckout(input: { checkoutId: string; paymentId: string | null }) {
      return fulfilCheckout(view, input);
    },
    async refundOrphanPayment(input: { checkoutId: string; paymentId: string }) {
      const result = await refundOrphanPayment(view, deps.processor, input);
      // Nothing else records these refunds (they belong to no order): an operator must see the
      // money that could not be given back.
      if (result.status === 'failed') {
        log.warn('refund of a payment the checkout could not take was refused', { ...input, ...result });
      }
      return result;
    },
    failCheckoutPayment(input: {
      checkoutId: string;
      attempt?: number;
      paymentId?: string | null;
      message: string;
    }) {
      return failCheckoutPayment(view, input);
    },
    expireCheckout(input: { checkoutId: string; nowMs: number }) {
      return expireCheckout(view, input);
    },
    executeRefund(refundId: string): Promise<RefundExecution> {
      return executeRefund(deps.db, deps.processor, refundId);
    },
    settleRefund(
      refundId: string,
      outcome:
        | { status: 'succeeded'; processorRefundId: string }
        | { status: 'failed'; processorRefundId: string | null; reason: string },
    ) {
      return settleRefund(deps.db, refundId, outcome);
    },
    /** Heals lost workflow starts and processor events whose hand-over to a workflow failed. */
    async startMissingCommerceWorkflows() {
      const { started } = await startMissingCommerceWorkflows(deps.db, deps.temporal, deps.taskQueue);
      const redelivered = await redeliverProcessorEvents(
        deps.db,
        temporalProcessorEventSink(deps.temporal, deps.taskQueue),
      );
      return { started, redeliveredEvents: redelivered.delivered };
    },
  };
}

export type CommerceActivities = ReturnType<typeof createCommerceActivities>;
