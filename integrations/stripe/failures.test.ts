import { describe, expect, it } from '@jest/globals';
import Stripe from 'stripe';
import { stripeFailureClass, toPaymentProcessorError } from './processor.js';

const stripeError = (raw: { type: string; code?: string; statusCode?: number; message?: string }) =>
  Stripe.errors.StripeError.generate({ message: 'Stripe says no.', ...raw } as Parameters<
    typeof Stripe.errors.StripeError.generate
  >[0]);

describe('stripeFailureClass', () => {
  it.each([
    [
      'an idempotency key reused with other parameters',
      { type: 'idempotency_error', statusCode: 400 },
      'permanent',
    ],
    [
      'a missing resource',
      { type: 'invalid_request_error', code: 'resource_missing', statusCode: 404 },
      'permanent',
    ],
    [
      'refused parameters',
      { type: 'invalid_request_error', code: 'parameter_invalid_integer', statusCode: 400 },
      'permanent',
    ],
    ['an invalid API key', { type: 'authentication_error', statusCode: 401 }, 'configuration'],
    ['a key without the permission', { type: 'invalid_request_error', statusCode: 403 }, 'configuration'],
    [
      'an account not activated',
      { type: 'invalid_request_error', code: 'testmode_charges_only', statusCode: 400 },
      'configuration',
    ],
    [
      'an expired key',
      { type: 'invalid_request_error', code: 'api_key_expired', statusCode: 401 },
      'configuration',
    ],
    ['a rate limit', { type: 'invalid_request_error', code: 'rate_limit', statusCode: 429 }, 'transient'],
    ['an outage', { type: 'api_error', statusCode: 500 }, 'transient'],
    [
      'a key still in use',
      { type: 'invalid_request_error', code: 'idempotency_key_in_use', statusCode: 409 },
      'transient',
    ],
  ] as const)('%s is %s', (_case, raw, expected) => {
    expect(stripeFailureClass(stripeError(raw))).toBe(expected);
  });

  it("reads the SDK's own classes: a missing permission as configuration, a lost connection as transient", () => {
    expect(
      stripeFailureClass(
        new Stripe.errors.StripePermissionError({ message: 'No access.', type: 'invalid_request_error' }),
      ),
    ).toBe('configuration');
    expect(
      stripeFailureClass(
        new Stripe.errors.StripeConnectionError({ message: 'ECONNRESET', type: 'api_error' }),
      ),
    ).toBe('transient');
  });

  it("names the error by Stripe's code, else its class", () => {
    expect(
      toPaymentProcessorError(stripeError({ type: 'authentication_error', statusCode: 401 })),
    ).toMatchObject({
      code: 'StripeAuthenticationError',
      failureClass: 'configuration',
    });
    const other = new Error('not Stripe');
    expect(toPaymentProcessorError(other)).toBe(other);
  });
});
