import { describe, expect, it } from '@jest/globals';
import {
  orderChargeTryKey,
  paymentTriggerOf,
  sandboxOffSessionOutcome,
  sandboxPaymentOutcome,
} from './rules.js';
import { TEST_CARDS } from './test-cards.js';

describe('sandboxPaymentOutcome', () => {
  it.each([
    ['pm_card_visa', { brand: 'visa', last4: '4242' }],
    ['pm_card_mastercard', { brand: 'mastercard', last4: '4444' }],
    ['pm_card_amex', { brand: 'amex', last4: '0005' }],
    ['pm_card_discover', { brand: 'discover', last4: '1117' }],
  ])('lets %s succeed with its card', (paymentMethodId, paymentMethod) => {
    expect(sandboxPaymentOutcome(paymentMethodId)).toEqual({
      status: 'succeeded',
      paymentMethod,
      refundsFail: false,
      disputed: false,
    });
  });

  it.each([
    ['pm_card_chargeDeclined', 'generic_decline', 'Your card was declined.'],
    ['pm_card_visa_chargeDeclined', 'generic_decline', 'Your card was declined.'],
    ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds', 'Your card has insufficient funds.'],
    ['pm_card_chargeDeclinedExpiredCard', 'expired_card', 'Your card has expired.'],
    ['pm_card_chargeDeclinedIncorrectCvc', 'incorrect_cvc', "Your card's security code is incorrect."],
    [
      'pm_card_chargeDeclinedProcessingError',
      'processing_error',
      'An error occurred while processing your card. Try again in a little bit.',
    ],
    ['pm_card_chargeDeclinedFraudulent', 'fraudulent', 'Your card was declined.'],
    ['pm_card_chargeDeclinedLostCard', 'lost_card', 'Your card was declined.'],
    ['pm_card_chargeDeclinedStolenCard', 'stolen_card', 'Your card was declined.'],
  ])('declines %s with %s', (paymentMethodId, declineCode, message) => {
    expect(sandboxPaymentOutcome(paymentMethodId)).toEqual({ status: 'failed', declineCode, message });
  });

  it.each([
    ['pm_card_authenticationRequired', '3184'],
    ['pm_card_threeDSecure2Required', '3220'],
  ])('asks for authentication with %s, then succeeds with its card', (paymentMethodId, last4) => {
    expect(sandboxPaymentOutcome(paymentMethodId)).toEqual({
      status: 'requires_action',
      authenticated: {
        status: 'succeeded',
        paymentMethod: { brand: 'visa', last4 },
        refundsFail: false,
        disputed: false,
      },
    });
  });

  it('asks for authentication, then declines for insufficient funds, with the card that does both', () => {
    expect(sandboxPaymentOutcome('pm_card_authenticationRequiredChargeDeclinedInsufficientFunds')).toEqual({
      status: 'requires_action',
      authenticated: {
        status: 'failed',
        declineCode: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
      },
    });
  });

  it('lets pm_card_refundFail succeed and marks its refunds as failing', () => {
    expect(sandboxPaymentOutcome('pm_card_refundFail')).toEqual({
      status: 'succeeded',
      paymentMethod: { brand: 'visa', last4: '5126' },
      refundsFail: true,
      disputed: false,
    });
  });

  it('lets pm_card_createDispute succeed and marks it disputed', () => {
    expect(sandboxPaymentOutcome('pm_card_createDispute')).toEqual({
      status: 'succeeded',
      paymentMethod: { brand: 'visa', last4: '0259' },
      refundsFail: false,
      disputed: true,
    });
  });

  it('knows no outcome for ids Stripe does not know', () => {
    expect(sandboxPaymentOutcome('pm_card_nonexistent')).toBeNull();
    expect(sandboxPaymentOutcome('ctoken_1N2abc')).toBeNull();
    expect(sandboxPaymentOutcome('')).toBeNull();
  });

  it('has an outcome for every test card the card form accepts', () => {
    for (const card of TEST_CARDS) expect(sandboxPaymentOutcome(card.paymentMethodId)).not.toBeNull();
  });
});

describe('sandboxOffSessionOutcome', () => {
  it('charges a saved good card without the buyer', () => {
    expect(sandboxOffSessionOutcome('pm_card_visa')).toEqual({
      status: 'succeeded',
      paymentMethod: { brand: 'visa', last4: '4242' },
      refundsFail: false,
      disputed: false,
    });
  });

  it('lets the renewal-declining card pay now and decline later', () => {
    expect(sandboxPaymentOutcome('pm_card_chargeCustomerFail')).toMatchObject({ status: 'succeeded' });
    expect(sandboxOffSessionOutcome('pm_card_chargeCustomerFail')).toEqual({
      status: 'failed',
      declineCode: 'generic_decline',
      message: 'Your card was declined.',
    });
  });

  it.each(['pm_card_authenticationRequired', 'pm_card_threeDSecure2Required'])(
    'fails %s for want of authentication, since nobody is there to authenticate',
    (paymentMethodId) => {
      expect(sandboxOffSessionOutcome(paymentMethodId)).toMatchObject({
        status: 'failed',
        declineCode: 'authentication_required',
      });
    },
  );

  it('pays without asking again with a card authenticated once at setup', () => {
    expect(sandboxPaymentOutcome('pm_card_authenticationRequiredOnSetup')).toMatchObject({
      status: 'requires_action',
    });
    expect(sandboxOffSessionOutcome('pm_card_authenticationRequiredOnSetup')).toEqual({
      status: 'succeeded',
      paymentMethod: { brand: 'visa', last4: '3155' },
      refundsFail: false,
      disputed: false,
    });
  });

  it('knows no outcome for ids Stripe does not know', () => {
    expect(sandboxOffSessionOutcome('pm_card_nonexistent')).toBeNull();
  });
});

describe('paymentTriggerOf', () => {
  it("reads Polar's trigger from the key the try was recorded under", () => {
    const id = '00000000-0000-4000-8000-000000000001';
    expect(paymentTriggerOf(`checkout:${id}:attempt:2`)).toBe('purchase');
    expect(paymentTriggerOf(`order:${id}:attempt:1`)).toBe('subscription_cycle');
    expect(paymentTriggerOf(`order:${id}:attempt:3`)).toBe('retry_dunning');
    expect(paymentTriggerOf(`order:${id}:finalize:2`)).toBe('purchase');
    expect(paymentTriggerOf(`order-customer-payment:${id}`)).toBe('retry_customer');
    expect(paymentTriggerOf(`refund:${id}`)).toBeNull();
  });

  it('reads an order charge try by the key it is recorded under: the first the cycle, the rest dunning', () => {
    const id = '00000000-0000-4000-8000-000000000002';
    expect([1, 2, 10].map((attempt) => paymentTriggerOf(orderChargeTryKey(id, attempt)))).toEqual([
      'subscription_cycle',
      'retry_dunning',
      'retry_dunning',
    ]);
  });
});
