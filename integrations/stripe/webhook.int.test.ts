import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from '@jest/globals';
import Stripe from 'stripe';
import {
  createPaymentIntent,
  createRecordingSink,
  createRefund,
  createStripeEvent,
} from '../../test/stripe-factories.js';
import { useTestStack } from '../../test/stack.js';

const WEBHOOK_SECRET = 'whsec_test_tollgate_signing_secret';

/** Stripe's signed webhooks, posted to the app on a real socket as Stripe posts them. */
describe('POST /v1/integrations/stripe/webhook', () => {
  const sink = createRecordingSink();
  const env = useTestStack({ withWorker: false, stripeWebhook: { webhookSecret: WEBHOOK_SECRET, sink } });

  beforeEach(async () => {
    sink.events.length = 0;
    await env.database.reset();
  });

  function post(body: string, signature: string | null) {
    return fetch(`${env.stack.baseUrl}/v1/integrations/stripe/webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        ...(signature === null ? {} : { 'stripe-signature': signature }),
      },
      body,
    });
  }

  /** Signed as Stripe signs, `secondsAgo` before now. */
  function send(event: Stripe.Event, { secondsAgo = 0, secret = WEBHOOK_SECRET } = {}) {
    // Stripe's own formatting (two-space indented JSON): the signature covers these exact bytes.
    const payload = JSON.stringify(event, null, 2);
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret,
      timestamp: Math.floor(Date.now() / 1000) - secondsAgo,
    });
    return post(payload, signature);
  }

  const succeeded = (checkoutId = randomUUID()) =>
    createStripeEvent(
      'payment_intent.succeeded',
      createPaymentIntent({ metadata: { checkout_id: checkoutId, organization_id: randomUUID() } }),
    );

  it('verifies a signed event and delivers it as a processor event', async () => {
    const checkoutId = randomUUID();
    const event = succeeded(checkoutId);
    const response = await send(event);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, duplicate: false });
    expect(sink.events).toEqual([
      {
        id: event.id,
        type: 'payment.succeeded',
        occurredAt: new Date(event.created * 1000).toISOString(),
        checkoutId,
        paymentId: event.data.object.id,
        paymentMethod: null,
      },
    ]);
    const stored = await env.database.db.processorEvent.findMany();
    expect(stored).toEqual([expect.objectContaining({ processor: 'stripe', eventId: event.id })]);
    expect(stored[0]?.deliveredAt).toBeInstanceOf(Date);
  });

  it('answers a duplicate with 200 and delivers it only once', async () => {
    const event = succeeded();
    expect((await send(event)).status).toBe(200);
    const again = await send(event, { secondsAgo: 30 });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ received: true, duplicate: true });
    expect(sink.events).toHaveLength(1);
  });

  it('delivers events that arrive out of order in the order they arrive', async () => {
    const refundId = randomUUID();
    const refund = createRefund({ metadata: { refund_id: refundId } });
    const failed = createStripeEvent(
      'refund.failed',
      { ...refund, status: 'failed', failure_reason: 'expired_or_canceled_card' },
      { created: 1_795_000_200 },
    );
    const updated = createStripeEvent(
      'refund.updated',
      { ...refund, status: 'succeeded' },
      { created: 1_795_000_100 },
    );
    expect((await send(failed)).status).toBe(200);
    expect((await send(updated)).status).toBe(200);
    // Which one wins is the refund workflow's call; both reach it, in arrival order.
    expect(sink.events.map((event) => [event.id, event.type])).toEqual([
      [failed.id, 'refund.failed'],
      [updated.id, 'refund.succeeded'],
    ]);
  });

  it('answers 200 to event types it does not handle and delivers nothing', async () => {
    const event = createStripeEvent('customer.created', {
      id: 'cus_1',
      object: 'customer',
    } as Stripe.Customer);
    const response = await send(event);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, ignored: true });
    expect(sink.events).toEqual([]);
    expect(await env.database.db.processorEvent.count()).toBe(0);
  });

  it('refuses an event signed more than 300 seconds ago', async () => {
    const response = await send(succeeded(), { secondsAgo: 301 });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'WebhookVerificationFailed',
      detail: 'Webhook timestamp is more than 300 seconds old.',
    });
    expect(sink.events).toEqual([]);
  });

  it('accepts an event signed 290 seconds ago, inside the tolerance', async () => {
    expect((await send(succeeded(), { secondsAgo: 290 })).status).toBe(200);
  });

  it('refuses an event signed more than 300 seconds in the future', async () => {
    const response = await send(succeeded(), { secondsAgo: -301 });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      detail: 'Webhook timestamp is more than 300 seconds in the future.',
    });
  });

  it('refuses an event signed with another secret', async () => {
    const response = await send(succeeded(), { secret: 'whsec_someone_else' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'WebhookVerificationFailed',
      detail: 'No signature in the Stripe-Signature header matches the payload.',
    });
    expect(sink.events).toEqual([]);
  });

  it('refuses a payload altered after signing', async () => {
    const event = succeeded();
    const payload = JSON.stringify(event, null, 2);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const response = await post(payload.replace('"livemode": false', '"livemode": true'), signature);
    expect(response.status).toBe(400);
    expect(sink.events).toEqual([]);
  });

  it('refuses a request without a Stripe-Signature header or with a malformed one', async () => {
    const payload = JSON.stringify(succeeded());
    const missing = await post(payload, null);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      error: 'WebhookVerificationFailed',
      detail: 'Missing Stripe-Signature header.',
    });
    const malformed = await post(payload, 'v1=abc');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({
      detail: 'Malformed Stripe-Signature header: no timestamp.',
    });
    expect(sink.events).toEqual([]);
  });

  it('answers 500 when the sink fails, keeps the event, and delivers it when Stripe re-sends it', async () => {
    const event = succeeded();
    sink.failNext();
    const first = await send(event);
    expect(first.status).toBe(500);
    expect(await env.database.db.processorEvent.count({ where: { deliveredAt: null } })).toBe(1);
    const retry = await send(event, { secondsAgo: 0 });
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual({ received: true, duplicate: false });
    expect(sink.events.map((delivered) => delivered.id)).toEqual([event.id]);
  });

  it('serves POST only: other methods fall through to the /v1 API, which wants a token', async () => {
    const get = await fetch(`${env.stack.baseUrl}/v1/integrations/stripe/webhook`);
    expect(get.status).toBe(401);
  });
});
