import type { Mailer } from '../domain/emails/mailer.js';
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
    renewSubscription(input: { subscriptionId: string; index: number; nowMs: number }) {
      return renewSubscription(ctx, deps.processor, deps.mailer, input);
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
      declineCode?: string | null;
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
    notifySubscription(notice: SubscriptionNotice) {
      return notifySubscription(ctx, deps.mailer, notice);
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
