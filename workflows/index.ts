// Every workflow the worker registers. Workflow ids are `<kind>:<entity id>` (DESIGN.md).
export { housekeepingWorkflow, readinessWorkflow, reviewStuckWorkWorkflow } from './system.js';
export { invitationWorkflow, reconcileInvitationsWorkflow } from './invitations.js';
export {
  ensureWebhookDispatcherWorkflow,
  webhookDeliveryWorkflow,
  webhookDispatcherWorkflow,
  webhookEndpointDeliveryWorkflow,
} from './webhooks.js';
export { checkoutWorkflow, reconcileCheckoutsWorkflow } from './checkouts.js';
export { reconcileRefundsWorkflow, refundWorkflow } from './refunds.js';
export { disputeWorkflow } from './disputes.js';
export { redeliverProcessorEventsWorkflow } from './payments.js';
export { paymentMethodDetachWorkflow, paymentMethodSetupWorkflow } from './payment-methods.js';
export { draftOrderChargeWorkflow } from './orders.js';
export {
  customerPaymentWorkflow,
  reconcileSubscriptionsWorkflow,
  subscriptionWorkflow,
} from './subscriptions.js';
export {
  benefitGrantDispatcherWorkflow,
  benefitGrantWorkflow,
  ensureBenefitGrantDispatcherWorkflow,
  reconcileBenefitGrantsWorkflow,
} from './benefit-grants.js';
export { customerMeterRefresherWorkflow, ensureCustomerMeterRefresherWorkflow } from './customer-meters.js';
