// Every long-lived entity's workflows as its domain sees them, built once per process (API,
// worker, tests) from one Temporal client and the deployment's main task queue.

import type { Client } from '@temporalio/client';
import type { BenefitGrantWorkflows } from '../domain/benefit-grants/service.js';
import type { CheckoutWorkflows } from '../domain/checkouts/service.js';
import type { CustomerMeterWorkflows } from '../domain/customer-meters/service.js';
import type { InvitationWorkflows } from '../domain/invitations/service.js';
import { processorEventRouter } from '../domain/payments/events.js';
import type { PaymentMethodWorkflows } from '../domain/payment-methods/service.js';
import type { ProcessorEventSink } from '../domain/payments/processor.js';
import type { RefundWorkflows } from '../domain/refunds/service.js';
import type { SubscriptionWorkflows } from '../domain/subscriptions/service.js';
import type { WebhookWorkflows } from '../domain/webhooks/service.js';
import { temporalBenefitGrantWorkflows } from './benefit-grants.js';
import { temporalCheckoutWorkflows } from './checkouts.js';
import { temporalInvitationWorkflows } from './invitations.js';
import { temporalPaymentMethodWorkflows } from './payment-methods.js';
import { temporalRefundWorkflows } from './refunds.js';
import { temporalSubscriptionWorkflows } from './subscriptions.js';
import { temporalCustomerMeterWorkflows } from './usage.js';
import { temporalWebhookWorkflows } from './webhooks.js';

export type WorkflowStarters = {
  checkouts: CheckoutWorkflows;
  refunds: RefundWorkflows;
  subscriptions: SubscriptionWorkflows;
  invitations: InvitationWorkflows;
  webhooks: WebhookWorkflows;
  customerMeters: CustomerMeterWorkflows;
  benefitGrants: BenefitGrantWorkflows;
  paymentMethods: PaymentMethodWorkflows;
  /** Where processor events go (Stripe's webhooks, the sandbox's outcomes). */
  processorEvents: ProcessorEventSink;
};

export function temporalStarters(temporal: Client, taskQueue: string): WorkflowStarters {
  const checkouts = temporalCheckoutWorkflows(temporal, taskQueue);
  const refunds = temporalRefundWorkflows(temporal, taskQueue);
  return {
    checkouts,
    refunds,
    subscriptions: temporalSubscriptionWorkflows(temporal, taskQueue),
    invitations: temporalInvitationWorkflows(temporal, taskQueue),
    webhooks: temporalWebhookWorkflows(temporal, taskQueue),
    customerMeters: temporalCustomerMeterWorkflows(temporal, taskQueue),
    benefitGrants: temporalBenefitGrantWorkflows(temporal, taskQueue),
    paymentMethods: temporalPaymentMethodWorkflows(temporal, taskQueue),
    processorEvents: processorEventRouter({ checkouts, refunds }),
  };
}
