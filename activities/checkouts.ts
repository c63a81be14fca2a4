import { log } from '@temporalio/activity';
import {
  cancelCheckoutPayment,
  chargeCheckout,
  expireCheckout,
  failCheckoutPayment,
  fulfilCheckout,
  refundOrphanPayment,
  type ChargeOutcome,
} from '../domain/checkouts/payment.js';
import type { CheckoutWorkflows } from '../domain/checkouts/service.js';
import {
  checkoutWorkflowState,
  reconcileCheckoutWorkflows,
  type CheckoutWorkflowState,
} from '../domain/checkouts/workflow-state.js';
import type { Mailer } from '../domain/emails/mailer.js';
import { sendNewOrderEmails } from '../domain/orders/new-order-emails.js';
import { sendOrderReceipt } from '../domain/orders/receipts.js';
import type { PaymentProcessor } from '../domain/payments/processor.js';
import type { SubscriptionWorkflows } from '../domain/subscriptions/service.js';
import type { Db } from '../infra/db.js';
import { withRetryContract } from './failures.js';

export type CheckoutActivityDeps = {
  db: Db;
  publicUrl: string;
  processor: PaymentProcessor;
  processorMetadata: Record<string, string>;
  mailer: Mailer;
  workflows: { checkouts: CheckoutWorkflows; subscriptions: SubscriptionWorkflows };
};

/** The steps of `checkout:<id>`; each is idempotent, so Temporal may retry any of them. */
export function createCheckoutActivities(deps: CheckoutActivityDeps) {
  const view = { db: deps.db, publicUrl: deps.publicUrl, processorMetadata: deps.processorMetadata };
  return withRetryContract({
    loadCheckoutState(checkoutId: string): Promise<CheckoutWorkflowState | null> {
      return checkoutWorkflowState(deps.db, checkoutId);
    },
    chargeCheckout(input: { checkoutId: string; attempt: number }): Promise<ChargeOutcome> {
      return chargeCheckout(view, deps.processor, input);
    },
    cancelCheckoutPayment(input: { checkoutId: string; attempt: number }): Promise<ChargeOutcome> {
      return cancelCheckoutPayment(view, deps.processor, input);
    },
    async fulfilCheckout(input: { checkoutId: string; paymentId: string | null }) {
      const fulfilled = await fulfilCheckout(view, deps.processor, input);
      // A lost start (the worker died here) is healed by the `reconcile-subscriptions` schedule.
      if (fulfilled.subscriptionId) await deps.workflows.subscriptions.start(fulfilled.subscriptionId);
      for (const moved of fulfilled.movedSubscriptionIds ?? []) {
        await deps.workflows.subscriptions.signalChanged(moved);
      }
      // A plan's first payment has its own email (the subscription workflow's "started").
      if (fulfilled.orderId && !fulfilled.orphan && !fulfilled.subscriptionId) {
        await sendOrderReceipt({ db: deps.db, publicUrl: deps.publicUrl }, deps.mailer, fulfilled.orderId);
      }
      if (fulfilled.orderId && !fulfilled.orphan) {
        await sendNewOrderEmails({ db: deps.db, publicUrl: deps.publicUrl }, deps.mailer, fulfilled.orderId);
      }
      const { movedSubscriptionIds: _moved, ...outcome } = fulfilled;
      return outcome;
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
      refused?: boolean;
    }) {
      return failCheckoutPayment(view, input);
    },
    expireCheckout(input: { checkoutId: string; nowMs: number }) {
      return expireCheckout(view, input);
    },
    /** Heals checkouts whose workflow start was lost. */
    reconcileCheckouts() {
      return reconcileCheckoutWorkflows(deps.db, deps.workflows.checkouts);
    },
  });
}

export type CheckoutActivities = ReturnType<typeof createCheckoutActivities>;
