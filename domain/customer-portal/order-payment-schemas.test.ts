import { describe, expect, it } from '@jest/globals';
import { CustomerOrderConfirmPayment$outboundSchema } from 'polar-sdk-0481/models/components/customerorderconfirmpayment.js';
import { CustomerOrderPaymentConfirmation$inboundSchema } from 'polar-sdk-0481/models/components/customerorderpaymentconfirmation.js';
import { CustomerOrderPaymentStatus$inboundSchema } from 'polar-sdk-0481/models/components/customerorderpaymentstatus.js';
import { invalidInputFromZod } from '../platform/errors.js';
import {
  customerOrderConfirmPaymentSchema,
  customerOrderPaymentConfirmationSchema,
  customerOrderPaymentStatusSchema,
} from './schemas.js';

// Polar's confirm-payment and payment-status are in @polar-sh/sdk from 0.48 on (the project's
// SDK is 0.33.2): checked against 0.48.1's own parsers, installed as `polar-sdk-0481`.

const cardId = '0b7e6f5e-3c1f-4f43-9d0e-5f2b8c9d1a2e';

describe('confirm-payment and payment-status as @polar-sh/sdk@0.48.1 reads and sends them', () => {
  it.each([
    ['went through', { status: 'succeeded', client_secret: null, error: null }],
    ['needs the bank', { status: 'requires_action', client_secret: 'pi_sbx_0123_secret_4567', error: null }],
    ['was declined', { status: 'failed', client_secret: null, error: 'Your card was declined.' }],
  ])('reads a confirmation that %s', (_, answer) => {
    const written = customerOrderPaymentConfirmationSchema.parse(answer);
    const read = CustomerOrderPaymentConfirmation$inboundSchema.parse(written);
    expect(read).toEqual({ status: answer.status, clientSecret: answer.client_secret, error: answer.error });
  });

  it.each([
    { status: 'no_payment', error: null },
    { status: 'pending', error: null },
    { status: 'succeeded', error: null },
    { status: 'failed', error: 'We are unable to authenticate your payment method.' },
  ] as const)('reads the payment status $status', (answer) => {
    expect(
      CustomerOrderPaymentStatus$inboundSchema.parse(customerOrderPaymentStatusSchema.parse(answer)),
    ).toEqual(answer);
  });

  it.each([
    ['a saved card', { paymentMethodId: cardId }, { payment_method_id: cardId }],
    ['a new card', { confirmationTokenId: 'ctoken_123' }, { confirmation_token_id: 'ctoken_123' }],
    [
      'a saved card, naming the processor',
      { paymentMethodId: cardId, paymentProcessor: 'stripe' as const },
      { payment_method_id: cardId },
    ],
  ])('accepts the body the SDK sends for %s', (_, request, expected) => {
    const sent = CustomerOrderConfirmPayment$outboundSchema.parse(request);
    expect(customerOrderConfirmPaymentSchema.parse(sent)).toEqual({
      ...expected,
      payment_processor: 'stripe',
    });
  });

  it('refuses a body with neither or both, next to the field to fill in', () => {
    const issuesOf = (body: unknown) => {
      const parsed = customerOrderConfirmPaymentSchema.safeParse(body);
      if (parsed.success) throw new Error('accepted');
      return invalidInputFromZod(parsed.error, 'body').issues.map(({ loc, msg }) => ({ loc, msg }));
    };
    expect(issuesOf({})).toEqual([
      {
        loc: ['body', 'payment_method_id'],
        msg: 'Choose a saved card (payment_method_id) or a new card (confirmation_token_id).',
      },
    ]);
    expect(issuesOf({ payment_method_id: cardId, confirmation_token_id: 'ctoken_123' })).toEqual([
      { loc: ['body', 'confirmation_token_id'], msg: 'Pay with a saved card or a new card, not both.' },
    ]);
    expect(issuesOf({ payment_method_id: 'card-1' })).toEqual([
      { loc: ['body', 'payment_method_id'], msg: 'Not a valid payment method id.' },
    ]);
    expect(issuesOf({ payment_method_id: cardId, payment_processor: 'paypal' })).toEqual([
      { loc: ['body', 'payment_processor'], msg: 'The payment processor is stripe.' },
    ]);
  });
});
