import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type Stripe from 'stripe';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { createRecordingSink } from '../../test/stripe-factories.js';
import { startStripeProxy, type StripeProxy } from '../../test/stripe-proxy.js';
import type { TaxQuoteInput } from '../../domain/tax/calculator.js';
import { PaymentProcessorError, refusalReason } from '../../domain/payments/errors.js';
import { createPaymentProcessor, createStripeTax } from '../payments.js';
import type { PaymentInput, PaymentProcessor, RefundInput } from '../../domain/payments/processor.js';
import { createStripeClient, createStripeProcessor } from './processor.js';
import { createStripeTaxCalculator } from './tax.js';

/** The API version of stripe-mock's OpenAPI document (started with -strict-version-check). */
const API_VERSION = '2025-09-30.clover';

/** Every outgoing call against stripe-mock, through a recording proxy that shows what was sent. */
describe('Stripe processor and Stripe Tax (stripe-mock)', () => {
  let proxy: StripeProxy;
  let stripe: Stripe;
  let processor: PaymentProcessor;

  beforeAll(async () => {
    proxy = await startStripeProxy();
    stripe = createStripeClient({ secretKey: 'sk_test_tollgate', apiBase: proxy.url });
    processor = createStripeProcessor({ stripe });
  });
  afterAll(async () => {
    await proxy?.stop();
  });
  beforeEach(() => {
    proxy.forward();
    proxy.requests.length = 0;
  });

  const lastRequest = () => {
    const request = proxy.requests.at(-1);
    if (!request) throw new Error('no request reached Stripe');
    return request;
  };

  const paymentInput = (overrides: Partial<PaymentInput> = {}): PaymentInput => ({
    idempotencyKey: `checkout:${randomUUID()}:pay`,
    amount: 2500,
    currency: 'USD',
    confirmationTokenId: 'ctoken_1QaBcD2eFgHiJkLm',
    processorCustomerId: 'cus_QaBcD2eFgHiJkL',
    metadata: { checkout_id: randomUUID(), organization_id: randomUUID() },
    description: 'Pro plan',
    saveForOffSession: false,
    ...overrides,
  });

  const refundInput = (overrides: Partial<RefundInput> = {}): RefundInput => ({
    idempotencyKey: `refund:${randomUUID()}:refund`,
    paymentId: 'pi_3QaBcD2eFgHiJkLm',
    amount: 777,
    currency: 'usd',
    metadata: { refund_id: randomUUID(), order_id: randomUUID() },
    ...overrides,
  });

  describe('ensureCustomer', () => {
    it('creates a customer with our id in its metadata, under the idempotency key', async () => {
      const customerId = randomUUID();
      const result = await processor.ensureCustomer({
        idempotencyKey: 'checkout:c1:customer',
        email: 'buyer@example.com',
        name: 'Buyer',
        customerId,
      });
      expect(result.processorCustomerId).toMatch(/^cus_/);
      const request = lastRequest();
      expect(request).toMatchObject({ method: 'POST', path: '/v1/customers' });
      expect(request.headers['idempotency-key']).toBe('checkout:c1:customer');
      expect(request.headers['stripe-version']).toBe(API_VERSION);
      expect(Object.fromEntries(request.form)).toEqual({
        email: 'buyer@example.com',
        name: 'Buyer',
        'metadata[customer_id]': customerId,
      });
    });

    it('leaves the name out when there is none', async () => {
      await processor.ensureCustomer({
        idempotencyKey: 'checkout:c2:customer',
        email: 'buyer@example.com',
        name: null,
        customerId: randomUUID(),
      });
      expect(lastRequest().form.has('name')).toBe(false);
    });
  });

  describe('pay', () => {
    it('confirms a PaymentIntent with the ConfirmationToken from Elements', async () => {
      const input = paymentInput();
      const result = await processor.pay(input);
      const request = lastRequest();
      expect(request).toMatchObject({ method: 'POST', path: '/v1/payment_intents' });
      expect(request.headers['idempotency-key']).toBe(input.idempotencyKey);
      expect(Object.fromEntries(request.form)).toEqual({
        amount: '2500',
        currency: 'usd',
        customer: 'cus_QaBcD2eFgHiJkL',
        description: 'Pro plan',
        'metadata[checkout_id]': input.metadata.checkout_id,
        'metadata[organization_id]': input.metadata.organization_id,
        confirmation_token: 'ctoken_1QaBcD2eFgHiJkLm',
        confirm: 'true',
        'payment_method_types[0]': 'card',
        'expand[0]': 'payment_method',
      });
      // stripe-mock's fixture intent is requires_payment_method with an empty last error.
      expect(result).toEqual({
        status: 'failed',
        paymentId: expect.stringMatching(/^pi_/),
        declineCode: 'payment_failed',
        message: 'The payment failed.',
      });
    });

    it('confirms with a test PaymentMethod id in place of a ConfirmationToken', async () => {
      await processor.pay(paymentInput({ confirmationTokenId: 'pm_card_visa' }));
      const form = lastRequest().form;
      expect(form.get('payment_method')).toBe('pm_card_visa');
      expect(form.has('confirmation_token')).toBe(false);
    });

    it('answers a card that asks for 3-D Secure as requires_action, with the client secret to authenticate with', async () => {
      proxy.answerOnce(200, {
        id: 'pi_3ds',
        object: 'payment_intent',
        status: 'requires_action',
        client_secret: 'pi_3ds_secret_xyz',
        next_action: { type: 'use_stripe_sdk', use_stripe_sdk: {} },
      });
      await expect(
        processor.pay(paymentInput({ confirmationTokenId: 'pm_card_authenticationRequired' })),
      ).resolves.toEqual({
        status: 'requires_action',
        paymentId: 'pi_3ds',
        clientSecret: 'pi_3ds_secret_xyz',
      });
    });

    it("answers a card decline as a failed payment with Stripe's decline code and message", async () => {
      proxy.answer(402, {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
        payment_intent: { id: 'pi_declined', object: 'payment_intent', status: 'requires_payment_method' },
      });
      await expect(processor.pay(paymentInput())).resolves.toEqual({
        status: 'failed',
        paymentId: 'pi_declined',
        declineCode: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
        // The error names no card here (its payment method is not expanded).
        paymentMethod: null,
      });
    });

    it('answers a card error without a decline code with its error code', async () => {
      proxy.answer(402, { type: 'card_error', code: 'expired_card', message: 'Your card has expired.' });
      await expect(processor.pay(paymentInput())).resolves.toMatchObject({
        status: 'failed',
        paymentId: null,
        declineCode: 'expired_card',
      });
    });

    it('answers a ConfirmationToken Stripe does not know as a failed payment', async () => {
      proxy.answer(400, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'confirmation_token',
        message: "No such confirmationtoken: 'ctoken_gone'",
      });
      await expect(processor.pay(paymentInput({ confirmationTokenId: 'ctoken_gone' }))).resolves.toEqual({
        status: 'failed',
        paymentId: null,
        declineCode: 'resource_missing',
        message: "No such confirmationtoken: 'ctoken_gone'",
      });
    });

    it('throws refused requests as permanent errors: a key reused with other parameters, an unknown customer', async () => {
      const input = paymentInput();
      proxy.answer(400, {
        type: 'idempotency_error',
        message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${input.idempotencyKey}' if you meant to execute a different request.`,
      });
      const reused = await processor.pay(input).catch((error: unknown) => error);
      expect(reused).toBeInstanceOf(PaymentProcessorError);
      expect(reused).toMatchObject({ code: 'StripeIdempotencyError', failureClass: 'permanent' });
      // The seller reads Stripe's own words, key included; the buyer reads refusedPaymentNotice.
      expect(refusalReason(reused as PaymentProcessorError)).toBe(
        `The payment processor refused the request (StripeIdempotencyError): Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${input.idempotencyKey}' if you meant to execute a different request.`,
      );

      proxy.answer(400, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'customer',
        message: "No such customer: 'cus_gone'",
      });
      await expect(processor.pay(paymentInput())).rejects.toMatchObject({
        code: 'resource_missing',
        failureClass: 'permanent',
      });
    });

    it('throws a refused key or account as a configuration error: retried, and reported to the seller', async () => {
      proxy.answer(401, { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_****' });
      await expect(processor.pay(paymentInput())).rejects.toMatchObject({
        code: 'StripeAuthenticationError',
        failureClass: 'configuration',
      });

      proxy.answer(403, {
        type: 'invalid_request_error',
        code: 'secret_key_required',
        message: 'The provided key does not have access to this resource.',
      });
      await expect(processor.pay(paymentInput())).rejects.toMatchObject({ failureClass: 'configuration' });

      proxy.answer(400, {
        type: 'invalid_request_error',
        code: 'testmode_charges_only',
        message: 'Your account cannot currently make live charges.',
      });
      await expect(processor.pay(paymentInput())).rejects.toMatchObject({
        code: 'testmode_charges_only',
        failureClass: 'configuration',
      });
    });

    it('throws outages and rate limits as retryable errors, after the SDK retried with the same key', async () => {
      proxy.answer(500, { type: 'api_error', message: 'Something went wrong on our end.' });
      const input = paymentInput();
      await expect(processor.pay(input)).rejects.toMatchObject({
        code: 'StripeAPIError',
        failureClass: 'transient',
      });
      expect(proxy.requests.length).toBeGreaterThan(1);
      expect(new Set(proxy.requests.map((request) => request.headers['idempotency-key']))).toEqual(
        new Set([input.idempotencyKey]),
      );

      proxy.answer(429, { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests.' });
      await expect(processor.pay(paymentInput())).rejects.toMatchObject({ failureClass: 'transient' });
    });

    it('throws a connection failure as retryable', async () => {
      const unreachable = createStripeProcessor({
        stripe: createStripeClient({ secretKey: 'sk_test_tollgate', apiBase: 'http://127.0.0.1:9' }),
      });
      await expect(unreachable.pay(paymentInput())).rejects.toMatchObject({
        code: 'StripeConnectionError',
        failureClass: 'transient',
      });
    }, 30_000);
  });

  describe('saved payment methods and off-session charges', () => {
    it('asks Stripe to keep the card for later charges when the payment starts a plan', async () => {
      await processor.pay(paymentInput({ saveForOffSession: true }));
      expect(lastRequest().form.get('setup_future_usage')).toBe('off_session');
    });

    it('reads the saved payment method off the PaymentIntent', async () => {
      // stripe-mock's fixture intent has neither succeeded nor saved a card: nothing is saved.
      expect(await processor.savedPaymentMethod({ paymentId: 'pi_3QaBcD2eFgHiJkLm' })).toBeNull();
      expect(lastRequest()).toMatchObject({ method: 'GET', path: '/v1/payment_intents/pi_3QaBcD2eFgHiJkLm' });
    });

    it('charges a saved card off-session, confirmed at once, under the caller key', async () => {
      const key = `subscription:${randomUUID()}:cycle:1:attempt:1`;
      await processor.chargeOffSession({
        idempotencyKey: key,
        amount: 1500,
        currency: 'USD',
        processorCustomerId: 'cus_QaBcD2eFgHiJkL',
        paymentMethodId: 'pm_1QaBcD2eFgHiJkLm',
        metadata: { subscription_id: 'sub-1', organization_id: 'org-1' },
        description: 'Pro plan renewal',
      });
      const request = lastRequest();
      expect(request.headers['idempotency-key']).toBe(key);
      expect(Object.fromEntries(request.form)).toEqual({
        amount: '1500',
        currency: 'usd',
        customer: 'cus_QaBcD2eFgHiJkL',
        payment_method: 'pm_1QaBcD2eFgHiJkLm',
        description: 'Pro plan renewal',
        'metadata[subscription_id]': 'sub-1',
        'metadata[organization_id]': 'org-1',
        confirm: 'true',
        off_session: 'true',
        'payment_method_types[0]': 'card',
        'expand[0]': 'payment_method',
      });
    });
  });

  describe('card setups (a plan whose first period costs nothing)', () => {
    it('saves the card with an off-session SetupIntent under the caller key, charging nothing', async () => {
      const key = `checkout:${randomUUID()}:setup:1`;
      const result = await processor.setUpOffSession({
        idempotencyKey: key,
        confirmationTokenId: 'ctoken_1QaBcD2eFgHiJkLm',
        processorCustomerId: 'cus_QaBcD2eFgHiJkL',
        currency: 'USD',
        metadata: { checkout_id: 'checkout-1', organization_id: 'org-1' },
        description: 'Pro plan',
      });
      const request = lastRequest();
      expect(request).toMatchObject({ method: 'POST', path: '/v1/setup_intents' });
      expect(request.headers['idempotency-key']).toBe(key);
      expect(Object.fromEntries(request.form)).toEqual({
        customer: 'cus_QaBcD2eFgHiJkL',
        confirmation_token: 'ctoken_1QaBcD2eFgHiJkLm',
        description: 'Pro plan',
        'metadata[checkout_id]': 'checkout-1',
        'metadata[organization_id]': 'org-1',
        confirm: 'true',
        usage: 'off_session',
        'payment_method_types[0]': 'card',
        'expand[0]': 'payment_method',
      });
      expect(result.paymentId).toMatch(/^seti_/);
    });

    it('reads the saved card off the SetupIntent, cancels it there, and refunds nothing of it', async () => {
      await processor.savedPaymentMethod({ paymentId: 'seti_1QaBcD2eFgHiJkLm' });
      expect(lastRequest()).toMatchObject({ method: 'GET', path: '/v1/setup_intents/seti_1QaBcD2eFgHiJkLm' });
      await processor.cancelPayment({ paymentId: 'seti_1QaBcD2eFgHiJkLm', idempotencyKey: 'cancel-setup-1' });
      expect(lastRequest()).toMatchObject({
        method: 'POST',
        path: '/v1/setup_intents/seti_1QaBcD2eFgHiJkLm/cancel',
      });
      const before = proxy.requests.length;
      expect(
        await processor.refund({
          idempotencyKey: 'refund-setup-1',
          paymentId: 'seti_1QaBcD2eFgHiJkLm',
          amount: null,
          currency: 'usd',
          metadata: {},
        }),
      ).toEqual({ status: 'failed', processorRefundId: null, reason: 'nothing_charged' });
      expect(proxy.requests.length).toBe(before);
    });
  });

  describe('detachPaymentMethod (a card the customer deleted in the portal)', () => {
    it('detaches the PaymentMethod from its Stripe customer', async () => {
      await processor.detachPaymentMethod({ paymentMethodId: 'pm_1QaBcD2eFgHiJkLm' });
      expect(lastRequest()).toMatchObject({
        method: 'POST',
        path: '/v1/payment_methods/pm_1QaBcD2eFgHiJkLm/detach',
      });
    });
  });

  describe('cancelPayment', () => {
    it("cancels a payment the buyer abandoned, as abandoned, under the caller's key", async () => {
      const result = await processor.cancelPayment({
        paymentId: 'pi_abandoned',
        idempotencyKey: 'checkout:c1:cancel:1',
      });
      const request = lastRequest();
      expect(request).toMatchObject({ method: 'POST', path: '/v1/payment_intents/pi_abandoned/cancel' });
      expect(request.headers['idempotency-key']).toBe('checkout:c1:cancel:1');
      expect(Object.fromEntries(request.form)).toEqual({
        cancellation_reason: 'abandoned',
        'expand[0]': 'payment_method',
      });
      // stripe-mock answers its fixture intent, whatever the request; the mapping is unit-tested.
      expect(result.paymentId).toMatch(/^pi_/);
    });

    it('answers where the payment ended when Stripe refuses to cancel it (the buyer authenticated first)', async () => {
      proxy.answerOnce(400, {
        error: {
          type: 'invalid_request_error',
          code: 'payment_intent_unexpected_state',
          message: 'You cannot cancel this PaymentIntent because it has a status of succeeded.',
        },
      });
      proxy.answerOnce(200, {
        id: 'pi_done',
        object: 'payment_intent',
        status: 'succeeded',
        payment_method: { id: 'pm_1', object: 'payment_method', card: { brand: 'visa', last4: '3184' } },
      });
      await expect(
        processor.cancelPayment({ paymentId: 'pi_done', idempotencyKey: 'checkout:c2:cancel:1' }),
      ).resolves.toEqual({
        status: 'succeeded',
        paymentId: 'pi_done',
        paymentMethod: { brand: 'visa', last4: '3184' },
      });
      expect(proxy.requests.slice(-2).map((request) => `${request.method} ${request.path}`)).toEqual([
        'POST /v1/payment_intents/pi_done/cancel',
        'GET /v1/payment_intents/pi_done',
      ]);
    });
  });

  describe('refund', () => {
    it('refunds the PaymentIntent with our refund in its metadata, under the idempotency key', async () => {
      const input = refundInput();
      const result = await processor.refund(input);
      const request = lastRequest();
      expect(request).toMatchObject({ method: 'POST', path: '/v1/refunds' });
      expect(request.headers['idempotency-key']).toBe(input.idempotencyKey);
      expect(Object.fromEntries(request.form)).toEqual({
        payment_intent: 'pi_3QaBcD2eFgHiJkLm',
        amount: '777',
        'metadata[refund_id]': input.metadata.refund_id,
        'metadata[order_id]': input.metadata.order_id,
      });
      expect(result).toEqual({ status: 'succeeded', processorRefundId: expect.stringMatching(/^re_/) });
    });

    it('leaves the amount out to refund whatever is left of the payment', async () => {
      await processor.refund(refundInput({ amount: null }));
      expect(lastRequest().form.has('amount')).toBe(false);
      expect(lastRequest().form.get('payment_intent')).toBe('pi_3QaBcD2eFgHiJkLm');
    });

    it('answers a refund Stripe refuses as a failed refund with its code', async () => {
      proxy.answer(400, {
        type: 'invalid_request_error',
        code: 'charge_already_refunded',
        message: 'Charge ch_1 has already been refunded.',
      });
      await expect(processor.refund(refundInput())).resolves.toEqual({
        status: 'failed',
        processorRefundId: null,
        reason: 'charge_already_refunded',
      });
    });
  });

  describe('Stripe Tax', () => {
    const quoteInput = (overrides: Partial<TaxQuoteInput> = {}): TaxQuoteInput => ({
      amount: 1000,
      currency: 'EUR',
      billingAddress: {
        line1: '1 Rue de Rivoli',
        line2: null,
        postal_code: '75001',
        city: 'Paris',
        state: null,
        country: 'FR',
      },
      taxId: null,
      productId: randomUUID(),
      idempotencyKey: `checkout:${randomUUID()}:tax:1`,
      ...overrides,
    });

    it('creates a tax calculation for the net amount at the billing address and keeps its id', async () => {
      const calculator = createStripeTaxCalculator({ stripe });
      const input = quoteInput();
      const quote = await calculator.quote(input);
      const request = lastRequest();
      expect(request).toMatchObject({ method: 'POST', path: '/v1/tax/calculations' });
      // The caller's key and a digest of what was sent.
      expect(request.headers['idempotency-key']).toMatch(
        new RegExp(`^${input.idempotencyKey}:[0-9a-f]{32}$`),
      );
      expect(Object.fromEntries(request.form)).toEqual({
        currency: 'eur',
        'line_items[0][amount]': '1000',
        'line_items[0][reference]': input.productId,
        'line_items[0][tax_behavior]': 'exclusive',
        'customer_details[address][country]': 'FR',
        'customer_details[address][line1]': '1 Rue de Rivoli',
        'customer_details[address][city]': 'Paris',
        'customer_details[address][postal_code]': '75001',
        'customer_details[address_source]': 'billing',
      });
      // stripe-mock's fixture: 148 of exclusive tax, one rate of 9.875 % (no whole basis points).
      expect(quote).toEqual({
        amount: 148,
        rateBasisPoints: null,
        reference: expect.stringMatching(/^taxcalc_/),
      });
    });

    it("sends the buyer's tax id when its kind is certain, under another key than the same state without it", async () => {
      const calculator = createStripeTaxCalculator({ stripe });
      const input = quoteInput();
      await calculator.quote(input);
      const withoutTaxId = lastRequest();
      const quote = await calculator.quote({ ...input, taxId: 'fr ab 123456789' });
      const request = lastRequest();
      expect(request.path).toBe('/v1/tax/calculations');
      expect(request.form.get('customer_details[tax_ids][0][type]')).toBe('eu_vat');
      expect(request.form.get('customer_details[tax_ids][0][value]')).toBe('FRAB123456789');
      expect(quote?.reference).toMatch(/^taxcalc_/);
      // Stripe refuses a key reused with other parameters: a tax id added to the same state is a new key.
      expect(request.headers['idempotency-key']).not.toBe(withoutTaxId.headers['idempotency-key']);
      await calculator.quote({ ...input, taxId: 'fr ab 123456789' });
      expect(lastRequest().headers['idempotency-key']).toBe(request.headers['idempotency-key']);

      await calculator.quote({ ...input, taxId: '123456789' });
      expect([...lastRequest().form.keys()].filter((key) => key.includes('tax_ids'))).toEqual([]);
    });

    it('quotes without the tax id when Stripe refuses it, instead of failing the checkout', async () => {
      proxy.answerOnce(400, {
        error: {
          type: 'invalid_request_error',
          code: 'tax_id_invalid',
          param: 'customer_details[tax_ids][0][value]',
          message: 'Invalid value for eu_vat.',
        },
      });
      const calculator = createStripeTaxCalculator({ stripe });
      const quote = await calculator.quote(quoteInput({ taxId: 'FR00123456789' }));
      expect(proxy.requests.map((request) => request.form.has('customer_details[tax_ids][0][type]'))).toEqual(
        [true, false],
      );
      expect(quote).toMatchObject({ amount: 148, reference: expect.stringMatching(/^taxcalc_/) });
    });

    it('cannot quote without a country, and quotes nothing on nothing, both without calling Stripe', async () => {
      const calculator = createStripeTaxCalculator({ stripe });
      await expect(calculator.quote(quoteInput({ billingAddress: null }))).resolves.toBeNull();
      await expect(calculator.quote(quoteInput({ amount: 0 }))).resolves.toEqual({
        amount: 0,
        rateBasisPoints: null,
        reference: null,
      });
      expect(proxy.requests).toEqual([]);
    });

    it('cannot quote yet when Stripe finds the address too vague for its jurisdiction', async () => {
      proxy.answer(400, {
        type: 'invalid_request_error',
        code: 'customer_tax_location_invalid',
        message: 'We could not determine the customer’s tax location based on the provided customer address.',
      });
      const calculator = createStripeTaxCalculator({ stripe });
      await expect(
        calculator.quote(quoteInput({ billingAddress: { country: 'US', postal_code: null } })),
      ).resolves.toBeNull();
    });
  });

  describe('createPaymentProcessor', () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(async () => {
      await database?.drop();
    });

    it('runs the sandbox without a Stripe key', () => {
      const config = { isSandbox: true, STRIPE_SECRET_KEY: undefined, STRIPE_API_BASE: undefined };
      expect(createPaymentProcessor(config, { db: database.db, sink: createRecordingSink() }).name).toBe(
        'sandbox',
      );
      expect(() => createStripeTax(config)).toThrow(/Stripe is not configured/);
    });

    it('runs Stripe with a key, at the configured API base, with Stripe Tax beside it', async () => {
      const config = { isSandbox: false, STRIPE_SECRET_KEY: 'sk_test_tollgate', STRIPE_API_BASE: proxy.url };
      const stripeProcessor = createPaymentProcessor(config, {
        db: database.db,
        sink: createRecordingSink(),
      });
      expect(stripeProcessor.name).toBe('stripe');
      await stripeProcessor.ensureCustomer({
        idempotencyKey: 'checkout:c3:customer',
        email: 'buyer@example.com',
        name: null,
        customerId: randomUUID(),
      });
      expect(lastRequest().path).toBe('/v1/customers');
      expect(createStripeTax(config).name).toBe('stripe');
    });
  });
});
