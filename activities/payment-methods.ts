import {
  detachDeletedPaymentMethod,
  setUpPaymentMethod,
  type PaymentMethodSetupInput,
} from '../domain/payment-methods/service.js';
import type { PaymentProcessor } from '../domain/payments/processor.js';
import type { SubscriptionWorkflows } from '../domain/subscriptions/service.js';
import type { Db } from '../infra/db.js';
import { withRetryContract } from './failures.js';

export type PaymentMethodActivityDeps = {
  db: Db;
  processor: PaymentProcessor;
  workflows: { subscriptions: Pick<SubscriptionWorkflows, 'signalChanged'> };
};

export function createPaymentMethodActivities(deps: PaymentMethodActivityDeps) {
  const ctx = { db: deps.db, processor: deps.processor, subscriptions: deps.workflows.subscriptions };
  return withRetryContract({
    setUpCustomerPaymentMethod(input: PaymentMethodSetupInput) {
      return setUpPaymentMethod(ctx, input);
    },
    detachCustomerPaymentMethod(paymentMethodId: string) {
      return detachDeletedPaymentMethod(ctx, paymentMethodId);
    },
  });
}

export type PaymentMethodActivities = ReturnType<typeof createPaymentMethodActivities>;
