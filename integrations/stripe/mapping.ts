// Stripe's objects and events read as the processor interface's results and events. Pure: the
// Stripe SDK is imported for its types only.
import type Stripe from 'stripe';
import { PaymentProcessorError } from '../../domain/payments/errors.js';
import {
  paymentRouteOf,
  type DisputeStatus,
  type PaymentMethodSummary,
  type PaymentResult,
  type ProcessorEvent,
  type RefundResult,
  type SavedPaymentMethod,
} from '../../domain/payments/processor.js';

export function paymentMethodSummary(
  paymentMethod: Stripe.PaymentIntent['payment_method'],
): PaymentMethodSummary | null {
  if (!paymentMethod || typeof paymentMethod === 'string' || !paymentMethod.card) return null;
  return { brand: paymentMethod.card.brand, last4: paymentMethod.card.last4 };
}

function lastPaymentError(intent: Stripe.PaymentIntent) {
  const error = intent.last_payment_error;
  return {
    declineCode: error?.decline_code ?? error?.code ?? 'payment_failed',
    message: error?.message ?? 'The payment failed.',
  };
}

/** What PaymentIntents and SetupIntents share, read alike. */
type Intent = {
  id: string;
  status: string;
  client_secret: string | null;
  customer: string | Stripe.Customer | Stripe.DeletedCustomer | null;
  payment_method: Stripe.PaymentIntent['payment_method'];
};

/**
 * A confirmed intent as a payment result (its `payment_method` expanded for brand and last four):
 * a PaymentIntent, or a SetupIntent that saves a card without charging it.
 */
function intentResult(
  intent: Intent,
  kind: 'PaymentIntent' | 'SetupIntent',
  lastError: { declineCode: string; message: string },
): PaymentResult {
  switch (intent.status) {
    case 'succeeded':
      return {
        status: 'succeeded',
        paymentId: intent.id,
        paymentMethod: paymentMethodSummary(intent.payment_method),
      };
    case 'processing':
      return { status: 'processing', paymentId: intent.id };
    case 'requires_payment_method':
      return { status: 'failed', paymentId: intent.id, ...lastError };
    case 'requires_action':
      if (!intent.client_secret) {
        throw new PaymentProcessorError(
          'missing_client_secret',
          `${kind} ${intent.id} requires action but came without its client secret`,
          'permanent',
        );
      }
      return { status: 'requires_action', paymentId: intent.id, clientSecret: intent.client_secret };
    case 'canceled':
      return {
        status: 'failed',
        paymentId: intent.id,
        declineCode: 'canceled',
        message: kind === 'PaymentIntent' ? 'The payment was canceled.' : 'The card setup was canceled.',
      };
    default:
      // requires_confirmation / requires_capture: impossible with confirm and automatic capture.
      throw new PaymentProcessorError(
        'unexpected_status',
        `${kind} ${intent.id} is ${intent.status} after confirmation`,
        'permanent',
      );
  }
}

/** The card a succeeded intent left on its customer for later charges. */
function savedCardOf(intent: Intent): SavedPaymentMethod | null {
  if (intent.status !== 'succeeded' || !intent.payment_method) return null;
  const customer = typeof intent.customer === 'string' ? intent.customer : intent.customer?.id;
  if (!customer) return null;
  const paymentMethodId =
    typeof intent.payment_method === 'string' ? intent.payment_method : intent.payment_method.id;
  const card = typeof intent.payment_method === 'string' ? null : intent.payment_method.card;
  return {
    paymentMethodId,
    processorCustomerId: customer,
    summary: paymentMethodSummary(intent.payment_method),
    expiry: card ? { month: card.exp_month, year: card.exp_year } : null,
    fingerprint: card?.fingerprint ?? null,
  };
}

export function paymentIntentResult(intent: Stripe.PaymentIntent): PaymentResult {
  return intentResult(intent, 'PaymentIntent', lastPaymentError(intent));
}

/**
 * The payment method a succeeded PaymentIntent saved for later charges: Stripe attaches it to the
 * intent's customer when the intent had `setup_future_usage`.
 */
export function savedPaymentMethodOf(intent: Stripe.PaymentIntent): SavedPaymentMethod | null {
  return intent.setup_future_usage ? savedCardOf(intent) : null;
}

/** A SetupIntent's id: the card setups of plans whose first period costs nothing. */
export const isSetupIntentId = (id: string) => id.startsWith('seti_');

function lastSetupError(intent: Stripe.SetupIntent) {
  const error = intent.last_setup_error;
  return {
    declineCode: error?.decline_code ?? error?.code ?? 'setup_failed',
    message: error?.message ?? 'The card could not be saved.',
  };
}

/** A confirmed SetupIntent as a payment result of nothing charged. */
export function setupIntentResult(intent: Stripe.SetupIntent): PaymentResult {
  return intentResult(intent, 'SetupIntent', lastSetupError(intent));
}

/** The card a succeeded off-session SetupIntent attached to its customer. */
export function savedPaymentMethodOfSetup(intent: Stripe.SetupIntent): SavedPaymentMethod | null {
  return savedCardOf(intent);
}

export function refundObjectResult(refund: Stripe.Refund): RefundResult {
  switch (refund.status) {
    case 'succeeded':
      return { status: 'succeeded', processorRefundId: refund.id };
    case 'failed':
      return { status: 'failed', processorRefundId: refund.id, reason: refund.failure_reason ?? 'unknown' };
    case 'canceled':
      return { status: 'failed', processorRefundId: refund.id, reason: 'canceled' };
    default:
      // pending, requires_action: Stripe reports the end with refund.updated / charge.refund.updated.
      return { status: 'pending', processorRefundId: refund.id };
  }
}

const occurredAt = (event: Stripe.Event) => new Date(event.created * 1000).toISOString();

/**
 * Polar's status for a Stripe dispute: an inquiry (`warning_…`) is an early warning until it closes
 * without becoming a chargeback, which prevented it.
 */
export function disputeStatusFromStripe(status: Stripe.Dispute.Status): DisputeStatus {
  switch (status) {
    case 'warning_needs_response':
    case 'warning_under_review':
      return 'early_warning';
    case 'warning_closed':
    case 'prevented':
      return 'prevented';
    case 'needs_response':
    case 'under_review':
    case 'lost':
    case 'won':
      return status;
    default:
      // A status newer than this SDK: still open until Stripe says how it ended.
      return 'under_review';
  }
}

function disputeEvent(event: Stripe.Event, dispute: Stripe.Dispute): ProcessorEvent | null {
  const paymentIntent =
    typeof dispute.payment_intent === 'string' ? dispute.payment_intent : dispute.payment_intent?.id;
  // A charge made without a PaymentIntent was not made by Tollgate.
  if (!paymentIntent) return null;
  return {
    id: event.id,
    type: 'dispute.updated',
    occurredAt: occurredAt(event),
    processorDisputeId: dispute.id,
    processorPaymentId: paymentIntent,
    status: disputeStatusFromStripe(dispute.status),
    amount: dispute.amount,
    currency: dispute.currency,
    reason: dispute.reason ?? null,
    evidenceDueBy: dispute.evidence_details?.due_by
      ? new Date(dispute.evidence_details.due_by * 1000).toISOString()
      : null,
  };
}

function refundEvent(event: Stripe.Event, refund: Stripe.Refund): ProcessorEvent | null {
  const refundId = refund.metadata?.refund_id;
  if (!refundId) return null;
  const result = refundObjectResult(refund);
  const common = { id: event.id, occurredAt: occurredAt(event), refundId };
  if (result.status === 'succeeded') {
    return { ...common, type: 'refund.succeeded', processorRefundId: refund.id };
  }
  if (result.status === 'failed') {
    return { ...common, type: 'refund.failed', processorRefundId: refund.id, reason: result.reason };
  }
  return null;
}

/**
 * The ProcessorEvent a verified Stripe event stands for; null when it concerns nothing of ours:
 * another event type, an object without our metadata (created outside Tollgate, or a renewal's
 * charge, answered at once), a refund still pending. A PaymentIntent a customer made in the
 * portal for an order (an off-session charge their bank wanted them to confirm) routes to its
 * subscription.
 */
export function stripeEventToProcessorEvent(event: Stripe.Event): ProcessorEvent | null {
  switch (event.type) {
    case 'payment_intent.succeeded': {
      const intent = event.data.object;
      const route = paymentRouteOf(intent.metadata);
      if (!route) return null;
      const common = {
        id: event.id,
        occurredAt: occurredAt(event),
        paymentId: intent.id,
        // Events carry the PaymentMethod's id only; its card is in the synchronous answer.
        paymentMethod: paymentMethodSummary(intent.payment_method),
      };
      return 'checkoutId' in route
        ? { ...common, ...route, type: 'payment.succeeded' }
        : { ...common, ...route, type: 'order_payment.succeeded' };
    }
    case 'payment_intent.payment_failed': {
      const intent = event.data.object;
      const route = paymentRouteOf(intent.metadata);
      if (!route) return null;
      const common = {
        id: event.id,
        occurredAt: occurredAt(event),
        paymentId: intent.id,
        ...lastPaymentError(intent),
      };
      return 'checkoutId' in route
        ? { ...common, ...route, type: 'payment.failed' }
        : { ...common, ...route, type: 'order_payment.failed' };
    }
    case 'setup_intent.succeeded':
    case 'setup_intent.setup_failed': {
      const intent = event.data.object;
      const checkoutId = intent.metadata?.checkout_id;
      if (!checkoutId) return null;
      const common = { id: event.id, occurredAt: occurredAt(event), checkoutId, paymentId: intent.id };
      return event.type === 'setup_intent.succeeded'
        ? { ...common, type: 'payment.succeeded', paymentMethod: paymentMethodSummary(intent.payment_method) }
        : { ...common, type: 'payment.failed', ...lastSetupError(intent) };
    }
    case 'refund.created':
    case 'refund.updated':
    case 'refund.failed':
    case 'charge.refund.updated':
      return refundEvent(event, event.data.object);
    case 'charge.dispute.created':
    case 'charge.dispute.updated':
    case 'charge.dispute.closed':
    case 'charge.dispute.funds_withdrawn':
    case 'charge.dispute.funds_reinstated':
      return disputeEvent(event, event.data.object);
    default:
      return null;
  }
}
