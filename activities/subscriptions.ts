import type { Mailer } from '../domain/emails/mailer.js';
import { sendNewOrderEmails } from '../domain/orders/new-order-emails.js';
import type { PaymentProcessor } from '../domain/payments/processor.js';
import {
  collectSubscriptionOrder,
  renewSubscription,
  notifySubscription,
  notifySubscriptionPaymentFailed,
  reportCaughtUpWithClock,
  type SubscriptionNotice,
  subscriptionWorkflowState,
  type SubscriptionBillingContext,
} from '../domain/subscriptions/billing.js';
import { DEFAULT_DUNNING_RETRY_DAYS } from '../domain/subscriptions/rules.js';
import {
  reconcileSubscriptionWorkflows,
  type SubscriptionWorkflows,
} from '../domain/subscriptions/service.js';
import type { TaxCalculator } from '../domain/tax/calculator.js';
import type { Db } from '../infra/db.js';

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
  return {
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
    notifySubscriptionPaymentFailed(input: {
      subscriptionId: string;
      orderId: string;
      attempt: number;
      reason: string;
      nextAttemptAt: string | null;
    }) {
      return notifySubscriptionPaymentFailed(ctx, deps.mailer, input);
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
  };
}

export type SubscriptionActivities = ReturnType<typeof createSubscriptionActivities>;
