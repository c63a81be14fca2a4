// Stripe objects and events for tests, typed to the SDK's own types: a test states only the fields
// it is about; the rest are what Stripe sends for a card payment in test mode.
import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';
import type { ProcessorEvent, ProcessorEventSink } from '../domain/payments/processor.js';

const stripeId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

export function createPaymentIntent(overrides: Partial<Stripe.PaymentIntent> = {}): Stripe.PaymentIntent {
  return {
    id: stripeId('pi'),
    object: 'payment_intent',
    amount: 2500,
    amount_received: 2500,
    currency: 'usd',
    status: 'succeeded',
    created: 1_795_000_000,
    livemode: false,
    metadata: {},
    payment_method: stripeId('pm'),
    last_payment_error: null,
    ...overrides,
  } as Stripe.PaymentIntent;
}

export function createSetupIntent(overrides: Partial<Stripe.SetupIntent> = {}): Stripe.SetupIntent {
  return {
    id: stripeId('seti'),
    object: 'setup_intent',
    status: 'succeeded',
    usage: 'off_session',
    created: 1_795_000_000,
    livemode: false,
    metadata: {},
    customer: stripeId('cus'),
    payment_method: stripeId('pm'),
    last_setup_error: null,
    ...overrides,
  } as Stripe.SetupIntent;
}

export function createCardPaymentMethod(card: { brand: string; last4: string }): Stripe.PaymentMethod {
  return {
    id: stripeId('pm'),
    object: 'payment_method',
    type: 'card',
    card: { brand: card.brand, last4: card.last4, exp_month: 12, exp_year: 2030 },
  } as Stripe.PaymentMethod;
}

export function createRefund(overrides: Partial<Stripe.Refund> = {}): Stripe.Refund {
  return {
    id: stripeId('re'),
    object: 'refund',
    amount: 1000,
    currency: 'usd',
    status: 'succeeded',
    created: 1_795_000_000,
    metadata: {},
    payment_intent: stripeId('pi'),
    failure_reason: undefined,
    ...overrides,
  } as Stripe.Refund;
}

/** An event as Stripe posts it; `created` in Unix seconds. */
/** A Stripe dispute of a PaymentIntent's charge, as `charge.dispute.*` events carry it. */
export function createDispute(overrides: Partial<Stripe.Dispute> = {}): Stripe.Dispute {
  return {
    id: stripeId('dp'),
    object: 'dispute',
    amount: 2500,
    currency: 'usd',
    status: 'needs_response',
    reason: 'fraudulent',
    created: 1_795_000_000,
    livemode: false,
    metadata: {},
    charge: stripeId('ch'),
    payment_intent: stripeId('pi'),
    ...overrides,
  } as Stripe.Dispute;
}

export function createStripeEvent<T extends Stripe.Event['type']>(
  type: T,
  object: Extract<Stripe.Event, { type: T }>['data']['object'],
  overrides: Partial<Pick<Stripe.Event, 'id' | 'created'>> = {},
): Extract<Stripe.Event, { type: T }> {
  return {
    id: stripeId('evt'),
    object: 'event',
    api_version: '2025-09-30.clover',
    created: 1_795_000_000,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
    ...overrides,
  } as unknown as Extract<Stripe.Event, { type: T }>;
}

/** A sink that keeps what it is given; `failNext(n)` makes the next n deliveries throw. */
export function createRecordingSink(): ProcessorEventSink & {
  events: ProcessorEvent[];
  failNext(times?: number): void;
} {
  let failures = 0;
  const events: ProcessorEvent[] = [];
  return {
    events,
    failNext(times = 1) {
      failures = times;
    },
    async deliver(event) {
      if (failures > 0) {
        failures -= 1;
        throw new Error(`sink unavailable (test) for ${event.id}`);
      }
      events.push(event);
    },
  };
}
