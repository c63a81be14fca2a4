// Every long-lived entity's workflows as its domain sees them, built once per process (API,
// worker, tests) from one Temporal client and the deployment's main task queue.

import type { Client } from '@temporalio/client';
import type { BenefitGrantWorkflows } from '../domain/benefit-grants/service.js';
import type { CheckoutWorkflows } from '../domain/checkouts/service.js';
import type { CustomerMeterWorkflows } from '../domain/customer-meters/service.js';
import type { DisputeWorkflows } from '../domain/disputes/service.js';
import type { InvitationWorkflows } from '../domain/invitations/service.js';
import type { OperatorWorkflows } from '../domain/operators/stuck-work-service.js';
import type { DraftOrderWorkflows } from '../domain/orders/drafts.js';
import { processorEventRouter } from '../domain/payments/events.js';
import type { PaymentMethodWorkflows } from '../domain/payment-methods/service.js';
import type { ProcessorEventSink } from '../domain/payments/processor.js';
import type { RefundWorkflows } from '../domain/refunds/service.js';
import type { SubscriptionWorkflows } from '../domain/subscriptions/service.js';
import type { WebhookWorkflows } from '../domain/webhooks/service.js';
import { temporalBenefitGrantWorkflows } from './benefit-grants.js';
import { NO_OPERATOR_CONTEXT, type OperatorContext } from './entity-directory.js';
import { temporalCheckoutWorkflows } from './checkouts.js';
import { temporalDisputeWorkflows } from './disputes.js';
import { temporalInvitationWorkflows } from './invitations.js';
import { temporalDraftOrderWorkflows } from './orders.js';
import { temporalPaymentMethodWorkflows } from './payment-methods.js';
import { temporalRefundWorkflows } from './refunds.js';
import { temporalOperatorWorkflows } from './stuck-work.js';
import { temporalSubscriptionWorkflows } from './subscriptions.js';
import { temporalCustomerMeterWorkflows } from './customer-meters.js';
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
  disputes: DisputeWorkflows;
  draftOrders: DraftOrderWorkflows;
  /** Where processor events go (Stripe's webhooks, the sandbox's outcomes). */
  processorEvents: ProcessorEventSink;
  /** The stuck-work review's reading and marking of runs. */
  operators: OperatorWorkflows;
};

/**
 * `operators` adds search attributes and the dashboard memo to every start (temporal/operators.ts);
 * without it workflows start bare, as on a namespace where they are not registered.
 */
export function temporalStarters(
  temporal: Client,
  taskQueue: string,
  operators: OperatorContext = NO_OPERATOR_CONTEXT,
): WorkflowStarters {
  const checkouts = temporalCheckoutWorkflows(temporal, taskQueue, operators);
  const refunds = temporalRefundWorkflows(temporal, taskQueue, operators);
  const subscriptions = temporalSubscriptionWorkflows(temporal, taskQueue, operators);
  const disputes = temporalDisputeWorkflows(temporal, taskQueue);
  return {
    checkouts,
    refunds,
    subscriptions,
    invitations: temporalInvitationWorkflows(temporal, taskQueue, operators),
    webhooks: temporalWebhookWorkflows(temporal, taskQueue, operators),
    customerMeters: temporalCustomerMeterWorkflows(temporal, taskQueue, operators),
    benefitGrants: temporalBenefitGrantWorkflows(temporal, taskQueue, operators),
    paymentMethods: temporalPaymentMethodWorkflows(temporal, taskQueue, operators),
    disputes,
    draftOrders: temporalDraftOrderWorkflows(temporal, taskQueue),
    processorEvents: processorEventRouter({ checkouts, refunds, subscriptions, disputes }),
    operators: temporalOperatorWorkflows(temporal, taskQueue, operators),
  };
}
