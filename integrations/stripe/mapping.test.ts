import { describe, expect, it } from '@jest/globals';
import type Stripe from 'stripe';
import {
  createCardPaymentMethod,
  createDispute,
  createPaymentIntent,
  createRefund,
  createSetupIntent,
  createStripeEvent,
} from '../../test/stripe-factories.js';
import { PaymentProcessorError } from '../../domain/payments/errors.js';
import {
  disputeStatusFromStripe,
  paymentIntentResult,
  refundObjectResult,
  savedPaymentMethodOf,
  savedPaymentMethodOfSetup,
  setupIntentResult,
  stripeEventToProcessorEvent,
} from './mapping.js';

describe('paymentIntentResult', () => {
  it('reads a succeeded intent with its expanded card', () => {
    const intent = createPaymentIntent({
      status: 'succeeded',
      payment_method: createCardPaymentMethod({ brand: 'visa', last4: '4242' }),
    });
    expect(paymentIntentResult(intent)).toEqual({
      status: 'succeeded',
      paymentId: intent.id,
      paymentMethod: { brand: 'visa', last4: '4242' },
    });
  });

  it('has no card summary when the payment method is not expanded', () => {
    const intent = createPaymentIntent({ status: 'succeeded', payment_method: 'pm_123' });
    expect(paymentIntentResult(intent)).toMatchObject({ status: 'succeeded', paymentMethod: null });
  });

  it('reads processing as processing', () => {
    const intent = createPaymentIntent({ status: 'processing' });
    expect(paymentIntentResult(intent)).toEqual({ status: 'processing', paymentId: intent.id });
  });

  it('reads requires_payment_method as failed, with the decline code and message of the last error', () => {
    const intent = createPaymentIntent({
      status: 'requires_payment_method',
      last_payment_error: {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
      },
    });
    expect(paymentIntentResult(intent)).toEqual({
      status: 'failed',
      paymentId: intent.id,
      declineCode: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    });
  });

  it('falls back to the error code, then to a generic failure', () => {
    const withCode = createPaymentIntent({
      status: 'requires_payment_method',
      last_payment_error: { type: 'card_error', code: 'expired_card', message: 'Your card has expired.' },
    });
    expect(paymentIntentResult(withCode)).toMatchObject({ declineCode: 'expired_card' });
    const bare = createPaymentIntent({ status: 'requires_payment_method', last_payment_error: null });
    expect(paymentIntentResult(bare)).toMatchObject({
      status: 'failed',
      declineCode: 'payment_failed',
      message: 'The payment failed.',
    });
  });

  it('reads requires_action as waiting for the buyer, with the client secret the page authenticates with', () => {
    const intent = createPaymentIntent({ status: 'requires_action', client_secret: 'pi_123_secret_abc' });
    expect(paymentIntentResult(intent)).toEqual({
      status: 'requires_action',
      paymentId: intent.id,
      clientSecret: 'pi_123_secret_abc',
    });
    const withoutSecret = createPaymentIntent({ status: 'requires_action', client_secret: null });
    expect(() => paymentIntentResult(withoutSecret)).toThrow(/without its client secret/);
  });

  it('reads canceled as failed and refuses statuses a confirmed intent cannot have', () => {
    expect(paymentIntentResult(createPaymentIntent({ status: 'canceled' }))).toMatchObject({
      status: 'failed',
      declineCode: 'canceled',
    });
    const unexpected = () => paymentIntentResult(createPaymentIntent({ status: 'requires_capture' }));
    expect(unexpected).toThrow(PaymentProcessorError);
    expect(unexpected).toThrow(/requires_capture after confirmation/);
  });
});

describe('refundObjectResult', () => {
  it.each([
    ['succeeded', { status: 'succeeded' }],
    ['pending', { status: 'pending' }],
    ['requires_action', { status: 'pending' }],
    ['canceled', { status: 'failed', reason: 'canceled' }],
  ])('reads %s', (status, expected) => {
    const refund = createRefund({ status });
    expect(refundObjectResult(refund)).toEqual({ processorRefundId: refund.id, ...expected });
  });

  it('reads failed with its failure reason', () => {
    const refund = createRefund({ status: 'failed', failure_reason: 'expired_or_canceled_card' });
    expect(refundObjectResult(refund)).toEqual({
      status: 'failed',
      processorRefundId: refund.id,
      reason: 'expired_or_canceled_card',
    });
  });
});

describe('stripeEventToProcessorEvent', () => {
  const checkoutId = '0b8c7a52-51a4-4a32-9c2c-4a1a0f7d2c11';
  const refundId = '5f6b2a5e-0f0c-4d0e-8d3b-7d9a1f0e2b33';

  it('turns payment_intent.succeeded into payment.succeeded for the checkout in its metadata', () => {
    const intent = createPaymentIntent({ metadata: { checkout_id: checkoutId } });
    const event = createStripeEvent('payment_intent.succeeded', intent, { created: 1_795_000_123 });
    expect(stripeEventToProcessorEvent(event)).toEqual({
      id: event.id,
      type: 'payment.succeeded',
      occurredAt: '2026-11-18T11:08:43.000Z',
      checkoutId,
      paymentId: intent.id,
      paymentMethod: null,
    });
  });

  it('routes a payment a customer made for an order in the portal to its subscription, and no renewal charge', () => {
    const metadata = {
      order_id: '7d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      subscription_id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
      organization_id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e',
    };
    const paid = createPaymentIntent({
      status: 'succeeded',
      metadata: { ...metadata, payment_trigger: 'customer_confirmation' },
    });
    const event = createStripeEvent('payment_intent.succeeded', paid, { created: 1_795_000_123 });
    expect(stripeEventToProcessorEvent(event)).toEqual({
      id: event.id,
      type: 'order_payment.succeeded',
      occurredAt: '2026-11-18T11:08:43.000Z',
      orderId: metadata.order_id,
      subscriptionId: metadata.subscription_id,
      paymentId: paid.id,
      paymentMethod: null,
    });
    const failed = createPaymentIntent({
      status: 'requires_payment_method',
      metadata: { ...metadata, payment_trigger: 'customer_confirmation' },
      last_payment_error: {
        type: 'card_error',
        code: 'payment_intent_authentication_failure',
        message: 'We are unable to authenticate your payment method.',
      },
    });
    expect(
      stripeEventToProcessorEvent(createStripeEvent('payment_intent.payment_failed', failed)),
    ).toMatchObject({
      type: 'order_payment.failed',
      orderId: metadata.order_id,
      subscriptionId: metadata.subscription_id,
      paymentId: failed.id,
      declineCode: 'payment_intent_authentication_failure',
    });
    // A renewal's own charge answered synchronously: its events change nothing.
    const renewal = createPaymentIntent({ status: 'succeeded', metadata });
    expect(stripeEventToProcessorEvent(createStripeEvent('payment_intent.succeeded', renewal))).toBeNull();
  });

  it('turns payment_intent.payment_failed into payment.failed with the decline', () => {
    const intent = createPaymentIntent({
      status: 'requires_payment_method',
      metadata: { checkout_id: checkoutId },
      last_payment_error: {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: 'Your card was declined.',
      },
    });
    const event = createStripeEvent('payment_intent.payment_failed', intent);
    expect(stripeEventToProcessorEvent(event)).toMatchObject({
      id: event.id,
      type: 'payment.failed',
      checkoutId,
      paymentId: intent.id,
      declineCode: 'generic_decline',
      message: 'Your card was declined.',
    });
  });

  it('turns setup_intent.succeeded and .setup_failed of a plan checkout into its payment events', () => {
    const saved = createSetupIntent({ metadata: { checkout_id: checkoutId } });
    expect(stripeEventToProcessorEvent(createStripeEvent('setup_intent.succeeded', saved))).toMatchObject({
      type: 'payment.succeeded',
      checkoutId,
      paymentId: saved.id,
    });
    const declined = createSetupIntent({
      status: 'requires_payment_method',
      metadata: { checkout_id: checkoutId },
      last_setup_error: {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
      },
    });
    expect(
      stripeEventToProcessorEvent(createStripeEvent('setup_intent.setup_failed', declined)),
    ).toMatchObject({
      type: 'payment.failed',
      checkoutId,
      paymentId: declined.id,
      declineCode: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    });
    // A setup made outside Tollgate names no checkout.
    expect(
      stripeEventToProcessorEvent(createStripeEvent('setup_intent.succeeded', createSetupIntent())),
    ).toBeNull();
  });

  it('reads a SetupIntent as a result of nothing charged, and the card it saved', () => {
    const plain = createCardPaymentMethod({ brand: 'visa', last4: '4242' });
    // Stripe's fingerprint of the card number, which trial abuse prevention recognises it by.
    const card = { ...plain, card: { ...plain.card!, fingerprint: 'Xt5EWLLDS7FJjR1c' } } as typeof plain;
    const saved = createSetupIntent({ payment_method: card, customer: 'cus_1' });
    expect(setupIntentResult(saved)).toEqual({
      status: 'succeeded',
      paymentId: saved.id,
      paymentMethod: { brand: 'visa', last4: '4242' },
    });
    expect(savedPaymentMethodOfSetup(saved)).toEqual({
      paymentMethodId: card.id,
      processorCustomerId: 'cus_1',
      summary: { brand: 'visa', last4: '4242' },
      expiry: { month: 12, year: 2030 },
      fingerprint: 'Xt5EWLLDS7FJjR1c',
    });
    expect(savedPaymentMethodOfSetup(createSetupIntent({ status: 'requires_payment_method' }))).toBeNull();
  });

  it.each(['refund.created', 'refund.updated', 'charge.refund.updated'] as const)(
    'turns a succeeded refund of %s into refund.succeeded for the refund in its metadata',
    (type) => {
      const refund = createRefund({ status: 'succeeded', metadata: { refund_id: refundId } });
      const event = createStripeEvent(type, refund);
      expect(stripeEventToProcessorEvent(event)).toMatchObject({
        id: event.id,
        type: 'refund.succeeded',
        refundId,
        processorRefundId: refund.id,
      });
    },
  );

  it('turns refund.failed into refund.failed with its reason', () => {
    const refund = createRefund({
      status: 'failed',
      failure_reason: 'lost_or_stolen_card',
      metadata: { refund_id: refundId },
    });
    expect(stripeEventToProcessorEvent(createStripeEvent('refund.failed', refund))).toMatchObject({
      type: 'refund.failed',
      refundId,
      processorRefundId: refund.id,
      reason: 'lost_or_stolen_card',
    });
  });

  it('ignores pending refunds, objects without our metadata and other event types', () => {
    const pending = createRefund({ status: 'pending', metadata: { refund_id: refundId } });
    expect(stripeEventToProcessorEvent(createStripeEvent('refund.updated', pending))).toBeNull();
    const foreign = createPaymentIntent({ metadata: {} });
    expect(stripeEventToProcessorEvent(createStripeEvent('payment_intent.succeeded', foreign))).toBeNull();
    const created = createPaymentIntent({ metadata: { checkout_id: checkoutId } });
    expect(stripeEventToProcessorEvent(createStripeEvent('payment_intent.created', created))).toBeNull();
  });
});

describe('charge.dispute.* events', () => {
  it.each([
    'charge.dispute.created',
    'charge.dispute.updated',
    'charge.dispute.closed',
    'charge.dispute.funds_withdrawn',
    'charge.dispute.funds_reinstated',
  ] as const)('%s reports the whole dispute of its PaymentIntent', (type) => {
    const dispute = createDispute({
      amount: 4900,
      currency: 'eur',
      status: 'under_review',
      evidence_details: { due_by: 1_795_600_000 } as Stripe.Dispute.EvidenceDetails,
    });
    const event = createStripeEvent(type, dispute, { created: 1_795_000_100 });
    expect(stripeEventToProcessorEvent(event)).toEqual({
      id: event.id,
      type: 'dispute.updated',
      occurredAt: new Date(1_795_000_100 * 1000).toISOString(),
      processorDisputeId: dispute.id,
      processorPaymentId: dispute.payment_intent,
      status: 'under_review',
      amount: 4900,
      currency: 'eur',
      reason: 'fraudulent',
      evidenceDueBy: new Date(1_795_600_000 * 1000).toISOString(),
    });
  });

  it('ignores a dispute of a charge made without a PaymentIntent (not made by Tollgate)', () => {
    const dispute = createDispute({ payment_intent: null });
    expect(stripeEventToProcessorEvent(createStripeEvent('charge.dispute.created', dispute))).toBeNull();
  });

  it("maps Stripe's statuses onto Polar's: inquiries are early warnings, a closed inquiry prevented", () => {
    expect(disputeStatusFromStripe('warning_needs_response')).toBe('early_warning');
    expect(disputeStatusFromStripe('warning_under_review')).toBe('early_warning');
    expect(disputeStatusFromStripe('warning_closed')).toBe('prevented');
    expect(disputeStatusFromStripe('prevented')).toBe('prevented');
    expect(disputeStatusFromStripe('needs_response')).toBe('needs_response');
    expect(disputeStatusFromStripe('under_review')).toBe('under_review');
    expect(disputeStatusFromStripe('won')).toBe('won');
    expect(disputeStatusFromStripe('lost')).toBe('lost');
  });
});

describe('savedPaymentMethodOf', () => {
  const card = createCardPaymentMethod({ brand: 'mastercard', last4: '4444' });

  it('reads the card a succeeded intent saved on its customer', () => {
    const intent = createPaymentIntent({
      status: 'succeeded',
      setup_future_usage: 'off_session',
      customer: 'cus_123',
      payment_method: card,
    });
    expect(savedPaymentMethodOf(intent)).toEqual({
      paymentMethodId: card.id,
      processorCustomerId: 'cus_123',
      summary: { brand: 'mastercard', last4: '4444' },
      expiry: { month: 12, year: 2030 },
      // A card Stripe gave no fingerprint: unknown, never a made-up one.
      fingerprint: null,
    });
  });

  it.each([
    ['an intent that saved nothing', { status: 'succeeded', setup_future_usage: null, customer: 'cus_123' }],
    [
      'an intent that did not succeed',
      { status: 'processing', setup_future_usage: 'off_session', customer: 'cus_123' },
    ],
    [
      'an intent without a customer',
      { status: 'succeeded', setup_future_usage: 'off_session', customer: null },
    ],
  ] as const)('finds nothing saved by %s', (_, fields) => {
    expect(savedPaymentMethodOf(createPaymentIntent({ ...fields, payment_method: card }))).toBeNull();
  });
});
