import type { Mailer } from '../domain/emails/mailer.js';
import { sendNewOrderEmails } from '../domain/orders/new-order-emails.js';
import type { PaymentProcessor } from '../domain/payments/processor.js';
import type { SubscriptionBillingContext } from '../domain/subscriptions/billing-step.js';
import { collectSubscriptionOrder } from '../domain/subscriptions/collection.js';
import { renewSubscription } from '../domain/subscriptions/renewal.js';
import { closeMeterCycle } from '../domain/subscriptions/meter-cycling.js';
import type { PauseStep } from '../domain/subscriptions/pause.js';
import { runPauseStep } from '../domain/subscriptions/pausing.js';
import {
  reportCaughtUpWithClock,
  subscriptionWorkflowState,
} from '../domain/subscriptions/workflow-state.js';
import {
  notifySubscription,
  notifySubscriptionPaymentFailed,
  type SubscriptionNotice,
} from '../domain/subscriptions/notices.js';
import {
  notifyPaymentConfirmationNeeded,
  payOrderAsCustomer,
  settleCustomerPayment,
} from '../domain/subscriptions/customer-payments.js';
import {
  AUTHENTICATION_REQUIRED,
  DEFAULT_DUNNING_RETRY_DAYS,
  type CustomerPaymentInput,
  type CustomerPaymentOutcome,
} from '../domain/subscriptions/rules.js';
import {
  reconcileSubscriptionWorkflows,
  type SubscriptionWorkflows,
} from '../domain/subscriptions/service.js';
import type { TaxCalculator } from '../domain/tax/calculator.js';
import type { Db } from '../infra/db.js';
import { withRetryContract } from './failures.js';

export type SubscriptionActivityDeps = {
  db: Db;
  publicUrl: string;
  mailer: Mailer;
  processor: PaymentProcessor;
  tax: TaxCalculator;
  /** Days between the tries of a failed renewal; Polar's +2, +5, +7, +7 unless configured. */
  dunningRetryDays?: readonly number[];
  workflows: { subscriptions: SubscriptionWorkflows };
};

/** The steps of `subscription:<id>`; each is idempotent, so Temporal may retry any of them. */
export function createSubscriptionActivities(deps: SubscriptionActivityDeps) {
  const ctx: SubscriptionBillingContext = {
    db: deps.db,
    publicUrl: deps.publicUrl,
    tax: deps.tax,
    retryDays: deps.dunningRetryDays ?? DEFAULT_DUNNING_RETRY_DAYS,
  };
  return withRetryContract({
    loadSubscriptionState(subscriptionId: string) {
      return subscriptionWorkflowState(deps.db, subscriptionId);
    },
    async renewSubscription(input: { subscriptionId: string; index: number; nowMs: number }) {
      const renewed = await renewSubscription(ctx, deps.processor, deps.mailer, input);
      // Also after a retry that finds the renewal paid already: each email's key sends it once.
      const { cycled } = renewed;
      if (cycled.outcome === 'renewed' && cycled.orderId) {
        await sendNewOrderEmails(ctx, deps.mailer, cycled.orderId);
      }
      return renewed;
    },
    collectSubscriptionOrder(input: {
      subscriptionId: string;
      orderId: string;
      attempt: number;
      nowMs: number;
    }) {
      return collectSubscriptionOrder(ctx, deps.processor, input);
    },
    /** A meter cycle of the product's own closes inside the period: its usage billed (meter-cycling.ts). */
    async closeMeterCycle(input: { subscriptionId: string; index: number; endMs: number; nowMs: number }) {
      const closed = await closeMeterCycle(ctx, deps.processor, deps.mailer, input);
      if (closed.orderId) await sendNewOrderEmails(ctx, deps.mailer, closed.orderId);
      return closed;
    },
    /** Goes `paused` at the period's end, or resumes at `resumes_at` (pausing.ts). */
    runPauseStep(input: { subscriptionId: string; step: PauseStep; nowMs: number }) {
      return runPauseStep(ctx, input);
    },
    notifySubscriptionPaymentFailed(input: {
      subscriptionId: string;
      orderId: string;
      attempt: number;
      reason: string;
      nextAttemptAt: string | null;
      declineCode?: string | null;
      refused?: boolean;
    }) {
      // A card whose bank wants the buyer: they are asked to confirm the payment in the portal.
      return input.declineCode === AUTHENTICATION_REQUIRED
        ? notifyPaymentConfirmationNeeded(ctx, deps.mailer, input)
        : notifySubscriptionPaymentFailed(ctx, deps.mailer, input);
    },
    settleCustomerPayment(input: { subscriptionId: string; outcome: CustomerPaymentOutcome; nowMs: number }) {
      return settleCustomerPayment(ctx, deps.processor, input);
    },
    /** `customer-payment:<id>`'s one step. */
    payOrderAsCustomer(input: CustomerPaymentInput) {
      return payOrderAsCustomer({ db: deps.db, processor: deps.processor }, input);
    },
    async notifySubscription(notice: SubscriptionNotice) {
      const outcome = await notifySubscription(ctx, deps.mailer, notice);
      // A paid order's receipt goes with the seller's "New order" email (a renewal paid on a retry,
      // a plan change billed at once).
      if (notice.kind === 'receipt') await sendNewOrderEmails(ctx, deps.mailer, notice.orderId);
      return outcome;
    },
    reportCaughtUpWithClock(input: { subscriptionId: string; frozenTimeMs: number }) {
      return reportCaughtUpWithClock(deps.db, input);
    },
    /** Heals subscriptions whose workflow start was lost. */
    reconcileSubscriptions() {
      return reconcileSubscriptionWorkflows(deps.db, deps.workflows.subscriptions);
    },
  });
}

export type SubscriptionActivities = ReturnType<typeof createSubscriptionActivities>;
