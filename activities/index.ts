import type { BenefitGrantWorkflows } from '../domain/benefit-grants/service.js';
import type { AccountPlatforms } from '../domain/customer-accounts/platforms.js';
import type { CheckoutWorkflows } from '../domain/checkouts/service.js';
import type { CustomerMeterWorkflows } from '../domain/customer-meters/service.js';
import type { InvitationWorkflows } from '../domain/invitations/service.js';
import type { OperatorWorkflows } from '../domain/operators/stuck-work-service.js';
import type { PaymentProcessor, ProcessorEventSink } from '../domain/payments/processor.js';
import type { RefundWorkflows } from '../domain/refunds/service.js';
import type { SubscriptionWorkflows } from '../domain/subscriptions/service.js';
import type { TaxCalculator } from '../domain/tax/calculator.js';
import type { WebhookSender, WebhookWorkflows } from '../domain/webhooks/service.js';
import type { Db } from '../infra/db.js';
import type { Mailer } from '../domain/emails/mailer.js';
import { createBenefitGrantActivities } from './benefit-grants.js';
import { createCheckoutActivities } from './checkouts.js';
import { createDisputeActivities } from './disputes.js';
import { createInvitationActivities } from './invitations.js';
import { createOperatorActivities } from './operators.js';
import { createOrderActivities } from './orders.js';
import { createPaymentMethodActivities } from './payment-methods.js';
import { createPaymentActivities } from './payments.js';
import { createProcessorConfigurationActivities } from './processor-configuration.js';
import { createRefundActivities } from './refunds.js';
import { createSubscriptionActivities } from './subscriptions.js';
import { createCustomerMeterActivities } from './customer-meters.js';
import { createSystemActivities } from './system.js';
import { createWebhookActivities } from './webhooks.js';

export type ActivityDeps = {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  workerIdentity: string;
  /** Sandbox or Stripe: charges checkouts and refunds orders. */
  processor: PaymentProcessor;
  processorMetadata: Record<string, string>;
  /** Tax on renewals, as on checkouts. */
  tax: TaxCalculator;
  /** Days between the tries of a failed renewal. */
  dunningRetryDays?: readonly number[];
  webhookSender: WebhookSender;
  /** GitHub and Discord, where those benefits are granted (null: not configured). */
  accountPlatforms: AccountPlatforms;
  /** Each entity's workflows, for the steps that wake or start them (reconcilers, fan-out). */
  workflows: {
    checkouts: CheckoutWorkflows;
    refunds: RefundWorkflows;
    subscriptions: SubscriptionWorkflows;
    invitations: InvitationWorkflows;
    webhooks: WebhookWorkflows;
    customerMeters: CustomerMeterWorkflows;
    benefitGrants: BenefitGrantWorkflows;
    processorEvents: ProcessorEventSink;
    operators: OperatorWorkflows;
  };
};

/** Every activity the worker registers, built from injected dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createSystemActivities(deps),
    ...createOperatorActivities(deps),
    ...createInvitationActivities(deps),
    ...createWebhookActivities(deps),
    ...createCheckoutActivities(deps),
    ...createRefundActivities(deps),
    ...createDisputeActivities(deps),
    ...createSubscriptionActivities(deps),
    ...createPaymentActivities(deps),
    ...createPaymentMethodActivities(deps),
    ...createOrderActivities(deps),
    ...createProcessorConfigurationActivities(deps),
    ...createCustomerMeterActivities(deps),
    ...createBenefitGrantActivities(deps),
  };
}
