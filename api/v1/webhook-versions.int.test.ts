import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { Polar as PolarCurrent } from 'polar-sdk-0481';
import { validateEvent as validateUnversionedEvent } from 'polar-sdk-0481/webhooks.js';
import { webhooks as webhooks202604 } from 'polar-sdk-101/2026-04';
import { webhooks as webhooks202610 } from 'polar-sdk-101/2026-10';
import { webhooks as webhooks202701 } from 'polar-sdk-101/2027-01';
import { CHECKOUT_SIGNALS, checkoutWorkflowId } from '../../domain/checkouts/rules.js';
import { API_VERSIONS, CURRENT_API_VERSION, type ApiVersion } from '../../domain/platform/api-versions.js';
import { SENT_WEBHOOK_EVENT_TYPES } from '../../domain/webhook-outbox/schemas.js';
import {
  buyInSandbox,
  createAccessToken,
  createBenefit,
  createCustomer,
  createDiscount,
  createOrganization,
  createProduct,
} from '../../test/factories.js';
import { requireTestEnv } from '../../test/env.js';
import { eventually } from '../../test/eventually.js';
import { projectRoot } from '../../scripts/lib/paths.js';
import { useTestStack } from '../../test/stack.js';
import { buyOnNewClock } from '../../test/test-clocks.js';
import { startWebhookReceiver, type ReceivedWebhook } from '../../test/webhook-receiver.js';

const SECRET = 'tollgate_whs_every-event-in-every-version';

/** Polar's TypeScript SDK 1.0.1: one `validateEvent` per dated version, each knowing its own types. */
const VALIDATE_IN_VERSION: Record<ApiVersion, typeof webhooks202610.validateEvent> = {
  '2026-04': webhooks202604.validateEvent,
  '2026-10': webhooks202610.validateEvent,
  '2027-01': webhooks202701.validateEvent,
};

/** Sent by Tollgate as by Polar, but newer than 0.48.1's list: its validateEvent refuses them. */
const UNKNOWN_TO_0481 = [
  'discount.created',
  'discount.updated',
  'discount.deleted',
  'subscription.cycled',
  'subscription.paused',
  'subscription.resumed',
];

const PYTHON_VALIDATOR = path.join(projectRoot, 'test', 'polar-python', 'validate-webhooks.py');

/**
 * Polar's Python SDK 1.0.2 loads each body into the version's models (1.0.1's TypeScript parses
 * none): a missing field, a wrong type or an unknown enum value is refused. A missing venv fails.
 */
function refusedByPythonSdk(version: ApiVersion, requests: ReceivedWebhook[]) {
  const python = requireTestEnv('polarPython');
  return new Promise<{ validated: number; refused: { type: string; error: string }[] }>((resolve, reject) => {
    const child = execFile(
      python,
      [PYTHON_VALIDATOR],
      { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout) =>
        error ? reject(error) : resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as never),
    );
    child.stdin!.end(JSON.stringify({ version, secret: SECRET, requests }));
  });
}

/**
 * polar-sdk 1.0.2 types a customer state's subscription `status` with the literal of another
 * `Status` (a grant's `granted`/`disabled`) in every version, so it refuses every
 * `customer.state_changed` that holds a subscription, as Polar's own server sends it (`active`).
 * Only that refusal is let through: anything else it refuses fails the test.
 */
const isPythonSdkStatusBug = (refusal: { type: string; error: string }) =>
  refusal.type === 'customer.state_changed' &&
  /CustomerStateSubscription'> \/ allowed_values=frozenset\(\{'(granted|disabled)', '(granted|disabled)'\}\), input_value='(active|trialing)'$/.test(
    refusal.error,
  );

type Envelope = { type: string; api_version: string; data: unknown };

/** Every object of a JSON value, however deep, for shape checks the SDK's types make. */
function objectsIn(value: unknown): Record<string, unknown>[] {
  if (Array.isArray(value)) return value.flatMap(objectsIn);
  if (typeof value !== 'object' || value === null) return [];
  return [value as Record<string, unknown>, ...Object.values(value).flatMap(objectsIn)];
}

describe('webhooks in every API version (issue 33: 1.0.1 validateEvent per version, 0.48.1 unversioned)', () => {
  const env = useTestStack();
  const receivers: Awaited<ReturnType<typeof startWebhookReceiver>>[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((receiver) => receiver.stop()));
  });

  /** The test clocks are Tollgate's extension: the SDK has no calls for them. */
  function clockApi(token: string) {
    const call = async (method: string, path: string, body: unknown) => {
      const response = await fetch(`${env.stack.baseUrl}/v1/test-clocks/${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (response.status >= 300)
        throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as { id: string; status: string };
    };
    return {
      create: (frozenTime: string) => call('POST', '', { name: 'Webhook versions', frozen_time: frozenTime }),
      attach: (id: string, customerId: string) =>
        call('POST', `${id}/customers`, { customer_id: customerId }),
      async advanceTo(id: string, frozenTime: string) {
        await call('POST', `${id}/advance`, { frozen_time: frozenTime });
        await eventually(
          async () => {
            const response = await fetch(`${env.stack.baseUrl}/v1/test-clocks/${id}`, {
              headers: { authorization: `Bearer ${token}` },
            });
            return ((await response.json()) as { status: string }).status;
          },
          (status) => status === 'ready',
          60_000,
        );
      },
    };
  }

  /** Makes the seller's organization go through every change that has an event Tollgate sends. */
  async function fireEveryEvent(
    polar: Polar,
    token: string,
    organizationId: string,
    received: () => ReceivedWebhook[],
  ) {
    await polar.organizations.update({ id: organizationId, organizationUpdate: { name: 'Acme Versions' } });

    const benefit = await createBenefit(polar);
    const plan = await createProduct(polar, {
      name: 'Versioned plan',
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 1500, priceCurrency: 'usd' }],
    });
    await polar.products.updateBenefits({ id: plan.id, productBenefitsUpdate: { benefits: [benefit.id] } });
    // Dated versions have no free price type: this product's payloads carry one in the unversioned
    // API only.
    await createProduct(polar, { name: 'Free sample', prices: [{ amountType: 'free' }] });

    const discount = await createDiscount(polar);
    await polar.discounts.update({ id: discount.id, discountUpdate: { name: 'Eleven off' } });
    await polar.discounts.delete({ id: discount.id });

    const leaving = await createCustomer(polar);
    await polar.customers.update({ id: leaving.id, customerUpdate: { name: 'Leaves soon' } });
    await polar.customers.delete({ id: leaving.id });

    // An abandoned checkout expires once its time is up; the workflow looks again when woken.
    const abandoned = await polar.checkouts.create({ products: [plan.id] });
    await env.database.db.checkout.update({
      where: { id: abandoned.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await env.stack.temporal.workflow
      .getHandle(checkoutWorkflowId(abandoned.id))
      .signal(CHECKOUT_SIGNALS.confirmed, { attempt: 0 });

    // A plan bought on a test clock renews when the clock is advanced past its period.
    const clocks = clockApi(token);
    const clock = await clocks.create(new Date().toISOString());
    const buyer = await createCustomer(polar, { name: 'Ada Lovelace' });
    await clocks.attach(clock.id, buyer.id);
    const paid = await buyInSandbox(polar, env.stack.baseUrl, plan.id, buyer.id);
    const subscriptionId = paid.subscriptionId!;
    // A second plan on the clock whose card declines renewals: the advance makes it past due.
    const decliner = await createCustomer(polar, { name: 'Grace Hopper' });
    await clocks.attach(clock.id, decliner.id);
    await buyInSandbox(polar, env.stack.baseUrl, plan.id, decliner.id, 'pm_card_chargeCustomerFail');
    // A third set to pause at its period's end: the advance pauses it, and it is resumed by hand.
    const pauser = await createCustomer(polar, { name: 'Katherine Johnson' });
    await clocks.attach(clock.id, pauser.id);
    const pausing = (await buyInSandbox(polar, env.stack.baseUrl, plan.id, pauser.id)).subscriptionId!;
    const updateSubscription = async (id: string, body: object) => {
      const response = await fetch(`${env.stack.baseUrl}/v1/subscriptions/${id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (response.status !== 200)
        throw new Error(`PATCH ${id}: ${response.status} ${await response.text()}`);
      return (await response.json()) as { status: string };
    };
    await updateSubscription(pausing, { pause_at_period_end: true });
    // An edit before the grant is made is part of the grant; one after it updates the grant.
    await eventually(
      async () => received().map((request) => (JSON.parse(request.body) as Envelope).type),
      (types) => types.includes('benefit_grant.created'),
    );
    await polar.benefits.update({
      id: benefit.id,
      requestBody: { type: 'custom', description: 'Priority support', properties: { note: 'Write to us' } },
    });
    await polar.subscriptions.update({ id: subscriptionId, subscriptionUpdate: { cancelAtPeriodEnd: true } });
    await polar.subscriptions.update({
      id: subscriptionId,
      subscriptionUpdate: { cancelAtPeriodEnd: false },
    });
    await clocks.advanceTo(clock.id, new Date(Date.now() + 32 * 24 * 3600_000).toISOString());
    await eventually(
      async () => {
        const response = await fetch(`${env.stack.baseUrl}/v1/subscriptions/${pausing}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        return ((await response.json()) as { status: string }).status;
      },
      (status) => status === 'paused',
    );
    await updateSubscription(pausing, { resume: true });

    // Seats: a one-time team licence bought with two seats, one given and taken back (0.48.1: the
    // older SDK predates seat prices).
    const current = new PolarCurrent({ accessToken: token, serverURL: env.stack.baseUrl });
    const team = await current.products.create({
      name: 'Team licence',
      prices: [
        {
          amountType: 'seat_based',
          priceCurrency: 'usd',
          seatTiers: { tiers: [{ minSeats: 1, maxSeats: null, pricePerSeat: 900 }] },
        },
      ],
    });
    const teamBuyer = await buyOnNewClock(current, env.stack.baseUrl, token, team.id, { seats: 2 });
    const [teamOrder] = (await current.orders.list({ customerId: teamBuyer.customer.id })).result.items;
    const seat = await current.customerSeats.assignSeat({
      orderId: teamOrder!.id,
      email: 'seat-holder@example.test',
      immediateClaim: true,
    });
    await current.customerSeats.revokeSeat({ seatId: seat.id });

    const [order] = (await polar.orders.list({ productId: plan.id, sorting: ['created_at'] })).result.items;
    await polar.refunds.create({
      orderId: order!.id,
      reason: 'customer_request',
      amount: order!.totalAmount,
    });
    await polar.subscriptions.revoke({ id: subscriptionId });
  }

  it('sends all 38 event types to an endpoint of each version, each accepted by that version’s validateEvent', async () => {
    const organization = await createOrganization(env.database.db, { name: 'Acme' });
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });

    const endpointOf = new Map<ApiVersion, Awaited<ReturnType<typeof startWebhookReceiver>>>();
    for (const version of API_VERSIONS) {
      const receiver = await startWebhookReceiver();
      receivers.push(receiver);
      endpointOf.set(version, receiver);
      const response = await fetch(`${env.stack.baseUrl}/v1/webhooks/endpoints`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          url: receiver.url,
          format: 'raw',
          secret: SECRET,
          events: SENT_WEBHOOK_EVENT_TYPES,
          api_version: version,
        }),
      });
      expect(response.status).toBe(201);
    }

    await fireEveryEvent(polar, token, organization.id, () => endpointOf.get(CURRENT_API_VERSION)!.received);

    const typesOf = (received: ReceivedWebhook[]) =>
      new Set(received.map((request) => (JSON.parse(request.body) as Envelope).type));
    for (const version of API_VERSIONS) {
      // A copy: deliveries still arriving must not change the list while it is checked.
      const received = await eventually(
        async () => [...endpointOf.get(version)!.received],
        (list) => SENT_WEBHOOK_EVENT_TYPES.every((type) => typesOf(list).has(type)),
        60_000,
      ).catch(() => {
        const missing = SENT_WEBHOOK_EVENT_TYPES.filter(
          (type) => !typesOf(endpointOf.get(version)!.received).has(type),
        );
        throw new Error(`${version}: no ${missing.join(', ')} arrived`);
      });

      for (const request of received) {
        const event = await VALIDATE_IN_VERSION[version](request.body, request.headers, SECRET);
        expect(event.api_version).toBe(version);
        expect(request.headers['webhook-api-version']).toBe(version);
        // 1.0.1 checks the signature and the type at run time; its types have no free price.
        const freePrices = objectsIn(event.data).filter((value) => value.amount_type === 'free');
        expect({ type: event.type, freePrices }).toEqual({ type: event.type, freePrices: [] });
      }
      const python = await refusedByPythonSdk(version, received);
      expect(python.validated).toBe(received.length);
      expect(python.refused.filter((refusal) => !isPythonSdkStatusBug(refusal))).toEqual([]);
      // What an endpoint made without a version reads (0.33.2 and 0.48.1 name none) is the current
      // version's body: 0.48.1 validates its every shape, and refuses the types it does not know.
      if (version === CURRENT_API_VERSION) {
        for (const request of received) {
          const { type } = JSON.parse(request.body) as Envelope;
          const validate = () => validateUnversionedEvent(request.body, request.headers, SECRET);
          if (UNKNOWN_TO_0481.includes(type)) expect(validate).toThrow(`Unknown event type: ${type}`);
          else expect(validate().type).toBe(type);
        }
      }
    }
  }, 240_000);
});
