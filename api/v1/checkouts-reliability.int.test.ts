import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import Stripe from 'stripe';
import type { PaymentProcessor } from '../../domain/payments/processor.js';
import { createStripeClient, createStripeProcessor } from '../../integrations/stripe/processor.js';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { crashOnceAfterEachStep } from '../../test/crash.js';
import { useTestStack } from '../../test/stack.js';
import { createPaymentIntent, createStripeEvent } from '../../test/stripe-factories.js';
import { startStripeProxy, type StripeProxy } from '../../test/stripe-proxy.js';
import { eventually as eventuallyWithin } from '../../test/eventually.js';

/** Crash recovery waits out activity retries: more time than the default. */
const eventually = <T>(read: () => Promise<T>, done: (value: T) => boolean) =>
  eventuallyWithin(read, done, 30_000);

const ADDRESS = { country: 'US', state: 'NY', city: 'New York', postalCode: '10001', line1: '5 Ave' };

/** Every step that writes, in the order a successful checkout and a refund run them. */
const BOUNDARIES = ['chargeCheckout', 'fulfilCheckout', 'executeRefund', 'settleRefund'];

describe('checkout reliability: crashes at every step boundary', () => {
  const crashed: string[] = [];
  const env = useTestStack({
    workerInterceptors: { activity: [crashOnceAfterEachStep(BOUNDARIES, crashed)] },
  });

  it('ends with exactly one payment, one order, one refund and one set of events', async () => {
    const organization = await createOrganization(env.database.db);
    const polar = new Polar({
      accessToken: await createAccessToken(env.database.db, organization.id),
      serverURL: env.stack.baseUrl,
    });
    const product = await polar.products.create({
      name: 'Atlas',
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 4000, priceCurrency: 'usd' }],
    });
    const checkout = await polar.checkouts.create({ products: [product.id] });
    await new Polar({ serverURL: env.stack.baseUrl }).checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerEmail: 'crash@example.test',
        customerName: 'Cass Crash',
        customerBillingAddress: ADDRESS,
        confirmationTokenId: 'pm_card_visa',
      },
    });
    await eventually(
      () => polar.checkouts.get({ id: checkout.id }),
      (value) => value.status === 'succeeded',
    );
    const [order] = (await polar.orders.list({ checkoutId: checkout.id })).result.items;
    await polar.refunds.create({ orderId: order!.id, reason: 'other', amount: 1500 });
    await eventually(
      () => polar.orders.get({ id: order!.id }),
      (value) => value.status === 'partially_refunded',
    );

    // The refund's last step emails the buyer after its commit: it may still be running.
    await eventually(
      () => Promise.resolve([...crashed]),
      (steps) => steps.length === BOUNDARIES.length,
    );
    expect(crashed).toEqual(BOUNDARIES);
    const db = env.database.db;
    // Each step that emails ran twice (crashed after its commit), and each email went once.
    const emails = await eventually(
      () => db.emailMessage.findMany({ where: { toAddress: 'crash@example.test' } }),
      (found) => found.length === 2,
    );
    expect(emails.map((email) => email.subject).sort()).toEqual([
      'Receipt for Atlas',
      'Your refund for Atlas',
    ]);
    expect(await db.order.count({ where: { checkoutId: checkout.id } })).toBe(1);
    expect(
      await db.sandboxPayment.count({
        where: { idempotencyKey: { startsWith: `checkout:${checkout.id}:` } },
      }),
    ).toBe(1);
    expect(await db.sandboxRefund.count()).toBe(1);
    expect((await polar.orders.get({ id: order!.id })).refundedAmount).toBe(1500);
    const events = await db.outboxEvent.findMany({ where: { organizationId: organization.id } });
    const count = (type: string) => events.filter((event) => event.type === type).length;
    expect(count('order.created')).toBe(1);
    expect(count('order.paid')).toBe(1);
    expect(count('customer.created')).toBe(1);
    expect(count('refund.updated')).toBe(1);
    expect(count('order.refunded')).toBe(1);
    const succeeded = events.filter(
      (event) =>
        event.type === 'checkout.updated' &&
        (event.payload as { data: { status: string } }).data.status === 'succeeded',
    );
    expect(succeeded).toHaveLength(1);
  });
});

describe('checkout with the Stripe processor (stripe-mock) and signed Stripe events', () => {
  const WEBHOOK_SECRET = 'whsec_tollgate_stripe_flow';
  // The worker's processor talks to stripe-mock through a recording proxy started before the stack.
  let proxy: StripeProxy;
  let stripe: PaymentProcessor;
  beforeAll(async () => {
    proxy = await startStripeProxy();
    stripe = createStripeProcessor({
      stripe: createStripeClient({ secretKey: 'sk_test_tollgate', apiBase: proxy.url }),
    });
  });
  afterAll(async () => {
    await proxy?.stop();
  });
  const env = useTestStack({
    processor: {
      name: 'stripe',
      ensureCustomer: (input) => stripe.ensureCustomer(input),
      pay: (input) => stripe.pay(input),
      setUpOffSession: (input) => stripe.setUpOffSession(input),
      cancelPayment: (input) => stripe.cancelPayment(input),
      refund: (input) => stripe.refund(input),
      savedPaymentMethod: (input) => stripe.savedPaymentMethod(input),
      chargeOffSession: (input) => stripe.chargeOffSession(input),
      detachPaymentMethod: (input) => stripe.detachPaymentMethod(input),
      closeDispute: (input) => stripe.closeDispute(input),
    },
    stripeWebhook: { webhookSecret: WEBHOOK_SECRET },
  });

  const post = (payload: string, signature: string) =>
    fetch(`${env.stack.baseUrl}/v1/integrations/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: payload,
    });
  const sign = (payload: string, timestamp = Math.floor(Date.now() / 1000)) =>
    Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp });

  it('charges through Stripe, waits for 3-D Secure, and the payment_intent.succeeded webhook (once, whatever the duplicates) makes the order', async () => {
    const organization = await createOrganization(env.database.db);
    const polar = new Polar({
      accessToken: await createAccessToken(env.database.db, organization.id),
      serverURL: env.stack.baseUrl,
    });
    const product = await polar.products.create({
      name: 'Map',
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 1200, priceCurrency: 'usd' }],
    });
    const checkout = await polar.checkouts.create({ products: [product.id] });
    // The card asks for 3-D Secure: Stripe answers the PaymentIntent as requiring action.
    proxy.answerOnce(
      200,
      {
        id: 'pi_3QaBcD2eFgHiJ3ds',
        object: 'payment_intent',
        status: 'requires_action',
        client_secret: 'pi_3QaBcD2eFgHiJ3ds_secret_buyer',
        next_action: { type: 'use_stripe_sdk', use_stripe_sdk: {} },
      },
      '/v1/payment_intents',
    );
    const buyer = new Polar({ serverURL: env.stack.baseUrl });
    await buyer.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerEmail: 'stripe@example.test',
        customerBillingAddress: ADDRESS,
        confirmationTokenId: 'ctoken_1QaBcD2eFgHiJkLm',
      },
    });
    const waiting = await eventually(
      () => buyer.checkouts.clientGet({ clientSecret: checkout.clientSecret }),
      (value) => value.paymentProcessorMetadata.intent_status === 'requires_action',
    );
    expect(waiting.status).toBe('confirmed');
    expect(waiting.paymentProcessorMetadata.intent_client_secret).toBe('pi_3QaBcD2eFgHiJ3ds_secret_buyer');
    const charged = await env.database.db.checkout.findUniqueOrThrow({ where: { id: checkout.id } });
    expect(charged.paymentId).toBe('pi_3QaBcD2eFgHiJ3ds');

    const intent = createPaymentIntent({
      id: charged.paymentId!,
      amount: 1200,
      metadata: { checkout_id: checkout.id, organization_id: organization.id },
    });
    const payload = JSON.stringify(createStripeEvent('payment_intent.succeeded', intent));
    expect((await post(payload, 'v1=forged,t=1')).status).toBe(400);
    const tooOld = Math.floor(Date.now() / 1000) - 301;
    expect((await post(payload, sign(payload, tooOld))).status).toBe(400);
    const answers = await Promise.all([post(payload, sign(payload)), post(payload, sign(payload))]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);

    await eventually(
      () => polar.checkouts.get({ id: checkout.id }),
      (value) => value.status === 'succeeded',
    );
    expect((await post(payload, sign(payload))).status).toBe(200);
    const orders = await polar.orders.list({ checkoutId: checkout.id });
    expect(orders.result.items).toHaveLength(1);
    expect(orders.result.items[0]).toMatchObject({ status: 'paid', totalAmount: 1200 });

    // Refunds go to Stripe too (stripe-mock answers them as succeeded).
    await polar.refunds.create({ orderId: orders.result.items[0]!.id, reason: 'duplicate', amount: 1200 });
    await eventually(
      () => polar.orders.get({ id: orders.result.items[0]!.id }),
      (value) => value.status === 'refunded',
    );
    expect(await env.database.db.order.count({ where: { checkoutId: checkout.id } })).toBe(1);
    // The buyer authenticated in time: nothing was canceled.
    expect(proxy.requests.filter((request) => request.path.endsWith('/cancel'))).toEqual([]);
  });
});
