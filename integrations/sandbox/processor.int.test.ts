import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { createRecordingSink } from '../../test/stripe-factories.js';
import { PaymentProcessorError } from '../../domain/payments/errors.js';
import type { PaymentInput, PaymentProcessor, RefundInput } from '../../domain/payments/processor.js';
import {
  authenticateSandboxPayment,
  createSandboxConfirmationToken,
  sandboxCardFingerprint,
  createSandboxProcessor,
} from './processor.js';

describe('sandbox processor', () => {
  let database: TestDatabase;
  let sink: ReturnType<typeof createRecordingSink>;
  let processor: PaymentProcessor;
  let processorCustomerId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });
  beforeEach(async () => {
    await database.reset();
    sink = createRecordingSink();
    processor = createSandboxProcessor({ db: database.db, sink });
    ({ processorCustomerId } = await processor.ensureCustomer({
      idempotencyKey: `checkout:${randomUUID()}:customer`,
      email: 'buyer@example.com',
      name: 'Buyer',
      customerId: randomUUID(),
    }));
  });

  const paymentInput = (overrides: Partial<PaymentInput> = {}): PaymentInput => ({
    idempotencyKey: `checkout:${randomUUID()}:pay`,
    amount: 2500,
    currency: 'usd',
    confirmationTokenId: 'pm_card_visa',
    processorCustomerId,
    metadata: { checkout_id: randomUUID(), organization_id: randomUUID() },
    description: 'Pro plan',
    saveForOffSession: false,
    ...overrides,
  });

  const refundInput = (paymentId: string, overrides: Partial<RefundInput> = {}): RefundInput => ({
    idempotencyKey: `refund:${randomUUID()}:refund`,
    paymentId,
    amount: 1000,
    currency: 'usd',
    metadata: { refund_id: randomUUID(), order_id: randomUUID() },
    ...overrides,
  });

  async function paid(overrides: Partial<PaymentInput> = {}) {
    const result = await processor.pay(paymentInput(overrides));
    if (result.status !== 'succeeded') throw new Error(`expected a payment, got ${JSON.stringify(result)}`);
    return result.paymentId;
  }

  describe('ensureCustomer', () => {
    it('creates one customer per idempotency key', async () => {
      const input = {
        idempotencyKey: 'checkout:1:customer',
        email: 'a@example.com',
        name: null,
        customerId: randomUUID(),
      };
      const first = await processor.ensureCustomer(input);
      expect(first.processorCustomerId).toMatch(/^cus_sbx_[0-9a-f]{24}$/);
      await expect(processor.ensureCustomer(input)).resolves.toEqual(first);
      expect(
        await database.db.sandboxCustomer.count({ where: { idempotencyKey: input.idempotencyKey } }),
      ).toBe(1);
    });

    it('refuses the same key with other parameters, as Stripe does', async () => {
      const input = {
        idempotencyKey: 'checkout:2:customer',
        email: 'a@example.com',
        name: null,
        customerId: 'c1',
      };
      await processor.ensureCustomer(input);
      const reuse = processor.ensureCustomer({ ...input, email: 'b@example.com' });
      await expect(reuse).rejects.toThrow(PaymentProcessorError);
      await expect(reuse).rejects.toMatchObject({ code: 'idempotency_error', failureClass: 'permanent' });
    });
  });

  describe('saved payment methods and off-session charges', () => {
    const offSessionInput = (
      paymentMethodId: string,
      key = `subscription:${randomUUID()}:cycle:1:attempt:1`,
    ) => ({
      idempotencyKey: key,
      amount: 1500,
      currency: 'usd',
      processorCustomerId,
      paymentMethodId,
      metadata: { subscription_id: randomUUID(), organization_id: randomUUID() },
      description: 'Pro plan renewal',
    });

    it('saves the card of a payment made for later charges, and only then', async () => {
      const saved = await processor.pay(paymentInput({ saveForOffSession: true }));
      const unsaved = await processor.pay(paymentInput());
      const now = new Date();
      expect(await processor.savedPaymentMethod({ paymentId: saved.paymentId! })).toEqual({
        paymentMethodId: 'pm_card_visa',
        processorCustomerId,
        summary: { brand: 'visa', last4: '4242' },
        // Test cards have no expiry: the sandbox gives one issued this month.
        expiry: { month: now.getUTCMonth() + 1, year: now.getUTCFullYear() + 4 },
        // One per test card, as Stripe's per card number (trial abuse prevention reads it).
        fingerprint: expect.stringMatching(/^fp_sbx_[0-9a-f]{16}$/),
      });
      expect(await processor.savedPaymentMethod({ paymentId: unsaved.paymentId! })).toBeNull();
      const declined = await processor.pay(
        paymentInput({ confirmationTokenId: 'pm_card_chargeDeclined', saveForOffSession: true }),
      );
      expect(await processor.savedPaymentMethod({ paymentId: declined.paymentId! })).toBeNull();
    });

    it('keeps the expiry the buyer typed on a card saved through the card form’s confirmation token', async () => {
      const now = new Date('2026-11-28T10:00:00Z');
      const token = await createSandboxConfirmationToken(
        database.db,
        { payment_method: 'pm_card_mastercard', card: { exp_month: 8, exp_year: 2031 } },
        now,
      );
      expect(token).toEqual({
        id: expect.stringMatching(/^ctoken_sbx_[0-9a-f]{24}$/),
        payment_method: 'pm_card_mastercard',
        card: { exp_month: 8, exp_year: 2031 },
      });
      const input = paymentInput({ confirmationTokenId: token.id, saveForOffSession: true });
      const paid = await processor.pay(input);
      expect(paid).toMatchObject({
        status: 'succeeded',
        paymentMethod: { brand: 'mastercard', last4: '4444' },
      });
      // A retry with the same key and token answers the first payment.
      expect(await processor.pay(input)).toEqual(paid);
      expect(await processor.savedPaymentMethod({ paymentId: paid.paymentId! })).toEqual({
        paymentMethodId: 'pm_card_mastercard',
        processorCustomerId,
        summary: { brand: 'mastercard', last4: '4444' },
        expiry: { month: 8, year: 2031 },
        // The token's card is its test PaymentMethod's: the same fingerprint as a bare id's.
        fingerprint: sandboxCardFingerprint('pm_card_mastercard'),
      });
      expect(sandboxCardFingerprint('pm_card_mastercard')).not.toBe(sandboxCardFingerprint('pm_card_visa'));

      const setup = await processor.setUpOffSession({
        idempotencyKey: `portal:${randomUUID()}:setup`,
        currency: 'usd',
        confirmationTokenId: (
          await createSandboxConfirmationToken(
            database.db,
            { payment_method: 'pm_card_visa', card: { exp_month: 11, exp_year: 2029 } },
            now,
          )
        ).id,
        processorCustomerId,
        metadata: {},
        description: 'Card saved in the customer portal',
      });
      expect((await processor.savedPaymentMethod({ paymentId: setup.paymentId! }))?.expiry).toEqual({
        month: 11,
        year: 2029,
      });

      const unknown = await processor.pay(
        paymentInput({ confirmationTokenId: 'ctoken_sbx_000000000000000000000000' }),
      );
      expect(unknown).toEqual({
        status: 'failed',
        paymentId: null,
        declineCode: 'resource_missing',
        message: "No such ConfirmationToken: 'ctoken_sbx_000000000000000000000000'",
      });
    });

    it('refuses a confirmation token for a card that is no test card or has expired, naming the field', async () => {
      const now = new Date('2026-11-28T10:00:00Z');
      await expect(
        createSandboxConfirmationToken(
          database.db,
          { payment_method: 'pm_card_nonsense', card: { exp_month: 8, exp_year: 2031 } },
          now,
        ),
      ).rejects.toMatchObject({ issues: [expect.objectContaining({ loc: ['body', 'payment_method'] })] });
      await expect(
        createSandboxConfirmationToken(
          database.db,
          { payment_method: 'pm_card_visa', card: { exp_month: 10, exp_year: 2026 } },
          now,
        ),
      ).rejects.toMatchObject({
        issues: [
          { loc: ['body', 'card'], msg: "Your card's expiration date is in the past.", type: 'value_error' },
        ],
      });
      expect(await database.db.sandboxConfirmationToken.count()).toBe(0);
    });

    it('charges a saved card without the buyer, once per key, and reports no checkout event', async () => {
      const input = offSessionInput('pm_card_visa');
      const first = await processor.chargeOffSession(input);
      const replay = await processor.chargeOffSession(input);
      expect(first).toEqual({
        status: 'succeeded',
        paymentId: expect.stringMatching(/^pi_sbx_/),
        paymentMethod: { brand: 'visa', last4: '4242' },
      });
      expect(replay).toEqual(first);
      expect(
        await database.db.sandboxPayment.count({ where: { idempotencyKey: input.idempotencyKey } }),
      ).toBe(1);
      expect(sink.events).toEqual([]);
      await expect(processor.chargeOffSession({ ...input, amount: 1600 })).rejects.toMatchObject({
        code: 'idempotency_error',
      });
    });

    it('declines renewals of the card that paid at checkout, and those that need authentication', async () => {
      const first = await processor.pay(
        paymentInput({ confirmationTokenId: 'pm_card_chargeCustomerFail', saveForOffSession: true }),
      );
      expect(first.status).toBe('succeeded');
      expect(await processor.chargeOffSession(offSessionInput('pm_card_chargeCustomerFail'))).toEqual({
        status: 'failed',
        paymentId: expect.stringMatching(/^pi_sbx_/),
        declineCode: 'generic_decline',
        message: 'Your card was declined.',
        paymentMethod: { brand: 'visa', last4: '0341' },
      });
      expect(
        await processor.chargeOffSession(offSessionInput('pm_card_authenticationRequired')),
      ).toMatchObject({
        status: 'failed',
        declineCode: 'authentication_required',
      });
      expect(
        await processor.chargeOffSession(offSessionInput('pm_card_authenticationRequiredOnSetup')),
      ).toMatchObject({
        status: 'succeeded',
      });
    });

    it('answers an unknown payment method as a failed charge and an unknown customer as an error', async () => {
      expect(await processor.chargeOffSession(offSessionInput('pm_card_nonexistent'))).toMatchObject({
        status: 'failed',
        paymentId: null,
        declineCode: 'resource_missing',
      });
      await expect(
        processor.chargeOffSession({
          ...offSessionInput('pm_card_visa'),
          processorCustomerId: 'cus_sbx_missing',
        }),
      ).rejects.toMatchObject({ code: 'resource_missing' });
    });
  });

  describe('pay', () => {
    it('charges pm_card_visa and reports payment.succeeded for the checkout', async () => {
      const input = paymentInput();
      const result = await processor.pay(input);
      expect(result).toEqual({
        status: 'succeeded',
        paymentId: expect.stringMatching(/^pi_sbx_/),
        paymentMethod: { brand: 'visa', last4: '4242' },
      });
      expect(sink.events).toEqual([
        {
          id: expect.stringMatching(/^evt_sbx_/),
          type: 'payment.succeeded',
          occurredAt: expect.any(String),
          checkoutId: input.metadata.checkout_id,
          paymentId: result.status === 'succeeded' ? result.paymentId : null,
          paymentMethod: { brand: 'visa', last4: '4242' },
        },
      ]);
      expect(await database.db.processorEvent.count({ where: { processor: 'sandbox' } })).toBe(1);
    });

    it.each([
      ['pm_card_chargeDeclined', 'generic_decline', 'Your card was declined.'],
      ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds', 'Your card has insufficient funds.'],
      ['pm_card_chargeDeclinedExpiredCard', 'expired_card', 'Your card has expired.'],
      ['pm_card_chargeDeclinedIncorrectCvc', 'incorrect_cvc', "Your card's security code is incorrect."],
      [
        'pm_card_chargeDeclinedProcessingError',
        'processing_error',
        'An error occurred while processing your card. Try again in a little bit.',
      ],
      ['pm_card_chargeDeclinedFraudulent', 'fraudulent', 'Your card was declined.'],
    ])('declines %s with %s and reports payment.failed', async (paymentMethodId, declineCode, message) => {
      const input = paymentInput({ confirmationTokenId: paymentMethodId });
      const result = await processor.pay(input);
      // The declined card is named: the payment records it (docs/payments.md, "Payments").
      expect(result).toEqual({
        status: 'failed',
        paymentId: expect.stringMatching(/^pi_sbx_/),
        declineCode,
        message,
        paymentMethod: { brand: 'visa', last4: expect.stringMatching(/^\d{4}$/) },
      });
      expect(sink.events).toEqual([
        expect.objectContaining({
          type: 'payment.failed',
          checkoutId: input.metadata.checkout_id,
          declineCode,
          message,
        }),
      ]);
    });

    describe('3-D Secure', () => {
      async function awaitingAuthentication(confirmationTokenId = 'pm_card_authenticationRequired') {
        const input = paymentInput({ confirmationTokenId });
        const result = await processor.pay(input);
        if (result.status !== 'requires_action')
          throw new Error(`expected requires_action, got ${result.status}`);
        return { input, result };
      }

      it('waits for the buyer with a client secret and reports nothing until they answer', async () => {
        const { input, result } = await awaitingAuthentication();
        expect(result).toEqual({
          status: 'requires_action',
          paymentId: expect.stringMatching(/^pi_sbx_/),
          clientSecret: expect.stringMatching(new RegExp(`^${result.paymentId}_secret_[0-9a-f]{32}$`)),
        });
        expect(sink.events).toEqual([]);
        // A retried request answers the same payment and the same secret.
        await expect(processor.pay(input)).resolves.toEqual(result);
      });

      it('succeeds once authenticated and reports payment.succeeded once, however often the buyer answers', async () => {
        const { input, result } = await awaitingAuthentication();
        const answer = {
          paymentId: result.paymentId,
          clientSecret: result.clientSecret,
          outcome: 'complete' as const,
        };
        const expected = {
          status: 'succeeded',
          paymentId: result.paymentId,
          paymentMethod: { brand: 'visa', last4: '3184' },
        };
        await expect(authenticateSandboxPayment({ db: database.db, sink }, answer)).resolves.toEqual(
          expected,
        );
        await expect(authenticateSandboxPayment({ db: database.db, sink }, answer)).resolves.toEqual(
          expected,
        );
        expect(sink.events).toEqual([
          expect.objectContaining({ type: 'payment.succeeded', checkoutId: input.metadata.checkout_id }),
        ]);
        await expect(processor.pay(input)).resolves.toEqual(expected);
        // Too late to cancel: the answer is where the payment ended.
        await expect(
          processor.cancelPayment({ paymentId: result.paymentId, idempotencyKey: 'k' }),
        ).resolves.toEqual(expected);
      });

      it('declines a failed authentication, and a card that declines after authenticating', async () => {
        const failedAuthentication = await awaitingAuthentication();
        await expect(
          authenticateSandboxPayment(
            { db: database.db, sink },
            { ...failedAuthentication.result, outcome: 'fail' },
          ),
        ).resolves.toMatchObject({ status: 'failed', declineCode: 'payment_intent_authentication_failure' });
        const insufficient = await awaitingAuthentication(
          'pm_card_authenticationRequiredChargeDeclinedInsufficientFunds',
        );
        await expect(
          authenticateSandboxPayment(
            { db: database.db, sink },
            { ...insufficient.result, outcome: 'complete' },
          ),
        ).resolves.toMatchObject({ status: 'failed', declineCode: 'insufficient_funds' });
        expect(sink.events.map((event) => event.type)).toEqual(['payment.failed', 'payment.failed']);
      });

      it('cancels a payment nobody authenticated; a later answer and a wrong secret change nothing', async () => {
        const { result } = await awaitingAuthentication();
        const canceled = {
          status: 'failed',
          paymentId: result.paymentId,
          declineCode: 'canceled',
          message: 'The payment was canceled.',
        };
        await expect(
          processor.cancelPayment({ paymentId: result.paymentId, idempotencyKey: 'k1' }),
        ).resolves.toEqual(canceled);
        await expect(
          processor.cancelPayment({ paymentId: result.paymentId, idempotencyKey: 'k2' }),
        ).resolves.toEqual(canceled);
        await expect(
          authenticateSandboxPayment({ db: database.db, sink }, { ...result, outcome: 'complete' }),
        ).resolves.toEqual(canceled);
        await expect(
          authenticateSandboxPayment(
            { db: database.db, sink },
            {
              paymentId: result.paymentId,
              clientSecret: `${result.paymentId}_secret_${'0'.repeat(32)}`,
              outcome: 'complete',
            },
          ),
        ).rejects.toMatchObject({ code: 'resource_missing' });
        await expect(
          processor.cancelPayment({ paymentId: 'pi_sbx_unknown', idempotencyKey: 'k3' }),
        ).rejects.toMatchObject({
          code: 'resource_missing',
        });
        expect(sink.events).toEqual([]);
      });
    });

    it('fails an unknown PaymentMethod like Stripe: resource_missing, no payment, no event', async () => {
      await expect(processor.pay(paymentInput({ confirmationTokenId: 'pm_card_bogus' }))).resolves.toEqual({
        status: 'failed',
        paymentId: null,
        declineCode: 'resource_missing',
        message: "No such PaymentMethod: 'pm_card_bogus'",
      });
      await expect(processor.pay(paymentInput({ confirmationTokenId: 'ctoken_123' }))).resolves.toMatchObject(
        {
          declineCode: 'resource_missing',
          message: "No such ConfirmationToken: 'ctoken_123'",
        },
      );
      expect(await database.db.sandboxPayment.count()).toBe(0);
      expect(sink.events).toEqual([]);
    });

    it('refuses an unknown customer: a request error, not a decline', async () => {
      const attempt = processor.pay(paymentInput({ processorCustomerId: 'cus_unknown' }));
      await expect(attempt).rejects.toMatchObject({ code: 'resource_missing', failureClass: 'permanent' });
    });

    it('refuses amounts that are not positive integers', async () => {
      for (const amount of [0, -5, 10.5]) {
        await expect(processor.pay(paymentInput({ amount }))).rejects.toMatchObject({
          code: 'parameter_invalid_integer',
        });
      }
    });

    it('answers a retried request with its first answer and reports it under the same event id', async () => {
      const input = paymentInput({ confirmationTokenId: 'pm_card_chargeDeclinedInsufficientFunds' });
      const first = await processor.pay(input);
      await expect(processor.pay(input)).resolves.toEqual(first);
      expect(await database.db.sandboxPayment.count()).toBe(1);
      // Delivered once: the retry's report was a duplicate of the first.
      expect(sink.events).toHaveLength(1);
    });

    it('reports the outcome on retry when the first report could not be delivered', async () => {
      const input = paymentInput();
      sink.failNext();
      await expect(processor.pay(input)).rejects.toThrow(/sink unavailable/);
      expect(await database.db.sandboxPayment.count()).toBe(1);
      const retried = await processor.pay(input);
      expect(retried.status).toBe('succeeded');
      expect(sink.events).toEqual([expect.objectContaining({ type: 'payment.succeeded' })]);
    });

    it('charges once when the same request arrives concurrently', async () => {
      const input = paymentInput();
      const results = await Promise.all(Array.from({ length: 5 }, () => processor.pay(input)));
      expect(
        new Set(results.map((result) => (result.status === 'succeeded' ? result.paymentId : null))).size,
      ).toBe(1);
      expect(await database.db.sandboxPayment.count()).toBe(1);
      expect(sink.events).toHaveLength(1);
    });

    it('refuses the same key with other parameters', async () => {
      const input = paymentInput();
      await processor.pay(input);
      await expect(processor.pay({ ...input, amount: 9900 })).rejects.toMatchObject({
        code: 'idempotency_error',
        failureClass: 'permanent',
      });
      await expect(
        processor.pay({ ...input, confirmationTokenId: 'pm_card_chargeDeclined' }),
      ).rejects.toThrow(/was first used with other parameters/);
    });

    it('reports nothing when the metadata names no checkout', async () => {
      const result = await processor.pay(paymentInput({ metadata: { organization_id: randomUUID() } }));
      expect(result.status).toBe('succeeded');
      expect(sink.events).toEqual([]);
    });
  });

  describe('refund', () => {
    it('refunds part of a payment and reports refund.succeeded for the refund', async () => {
      const paymentId = await paid();
      sink.events.length = 0;
      const input = refundInput(paymentId, { amount: 1000 });
      const result = await processor.refund(input);
      expect(result).toEqual({ status: 'succeeded', processorRefundId: expect.stringMatching(/^re_sbx_/) });
      expect(sink.events).toEqual([
        {
          id: expect.stringMatching(/^evt_sbx_/),
          type: 'refund.succeeded',
          occurredAt: expect.any(String),
          refundId: input.metadata.refund_id,
          processorRefundId: result.status === 'succeeded' ? result.processorRefundId : null,
        },
      ]);
    });

    it('never refunds more than was paid', async () => {
      const paymentId = await paid({ amount: 2500 });
      await expect(processor.refund(refundInput(paymentId, { amount: 1500 }))).resolves.toMatchObject({
        status: 'succeeded',
      });
      await expect(processor.refund(refundInput(paymentId, { amount: 1001 }))).resolves.toEqual({
        status: 'failed',
        processorRefundId: null,
        reason: 'amount_too_large',
      });
      await expect(processor.refund(refundInput(paymentId, { amount: 1000 }))).resolves.toMatchObject({
        status: 'succeeded',
      });
      await expect(processor.refund(refundInput(paymentId, { amount: 1 }))).resolves.toEqual({
        status: 'failed',
        processorRefundId: null,
        reason: 'charge_already_refunded',
      });
      expect(await database.db.sandboxRefund.count()).toBe(2);
    });

    it('refunds whatever is left when no amount is given, as Stripe does', async () => {
      const paymentId = await paid({ amount: 2500 });
      await processor.refund(refundInput(paymentId, { amount: 600 }));
      const rest = refundInput(paymentId, { amount: null });
      await expect(processor.refund(rest)).resolves.toMatchObject({ status: 'succeeded' });
      await expect(processor.refund(rest)).resolves.toMatchObject({ status: 'succeeded' });
      const refunds = await database.db.sandboxRefund.findMany({
        where: { paymentId },
        orderBy: { amount: 'asc' },
      });
      expect(refunds.map((refund) => refund.amount)).toEqual([600, 1900]);
      await expect(processor.refund(refundInput(paymentId, { amount: null }))).resolves.toMatchObject({
        status: 'failed',
        reason: 'charge_already_refunded',
      });
    });

    it('lets concurrent refunds together take at most the payment', async () => {
      const paymentId = await paid({ amount: 2500 });
      const results = await Promise.all(
        Array.from({ length: 20 }, () => processor.refund(refundInput(paymentId, { amount: 500 }))),
      );
      expect(results.filter((result) => result.status === 'succeeded')).toHaveLength(5);
      const { _sum } = await database.db.sandboxRefund.aggregate({ _sum: { amount: true } });
      expect(_sum.amount).toBe(2500);
    });

    it('answers a retried refund with its first answer, once', async () => {
      const paymentId = await paid();
      const input = refundInput(paymentId);
      const first = await processor.refund(input);
      await expect(processor.refund(input)).resolves.toEqual(first);
      await expect(processor.refund({ ...input, amount: 500 })).rejects.toMatchObject({
        code: 'idempotency_error',
      });
      expect(await database.db.sandboxRefund.count()).toBe(1);
    });

    it('refuses refunds of unknown and declined payments', async () => {
      await expect(processor.refund(refundInput('pi_sbx_unknown'))).resolves.toEqual({
        status: 'failed',
        processorRefundId: null,
        reason: 'resource_missing',
      });
      const declined = await processor.pay(paymentInput({ confirmationTokenId: 'pm_card_chargeDeclined' }));
      await expect(processor.refund(refundInput(declined.paymentId!))).resolves.toEqual({
        status: 'failed',
        processorRefundId: null,
        reason: 'payment_intent_unexpected_state',
      });
    });

    it('keeps refunds of a pm_card_refundFail payment pending, then reports refund.failed, returning the amount', async () => {
      const paymentId = await paid({ amount: 2500, confirmationTokenId: 'pm_card_refundFail' });
      sink.events.length = 0;
      const input = refundInput(paymentId, { amount: 2500 });
      const result = await processor.refund(input);
      expect(result).toEqual({ status: 'pending', processorRefundId: expect.stringMatching(/^re_sbx_/) });
      expect(sink.events).toEqual([
        expect.objectContaining({
          type: 'refund.failed',
          refundId: input.metadata.refund_id,
          processorRefundId: result.status === 'pending' ? result.processorRefundId : null,
          reason: 'declined',
        }),
      ]);
      // The failed refund moved no money: the whole payment can still be refunded.
      await expect(processor.refund(refundInput(paymentId, { amount: 2500 }))).resolves.toMatchObject({
        status: 'pending',
      });
    });
  });
});
