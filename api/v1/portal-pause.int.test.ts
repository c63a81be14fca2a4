import { describe, expect, it } from '@jest/globals';
import { Polar } from 'polar-sdk-0481';
import { eventually } from '../../test/eventually.js';
import { buyInSandbox, createAccessToken, createOrganization } from '../../test/factories.js';
import { callV1 } from '../../test/http.js';
import { advanceTestClock } from '../../test/test-clocks.js';
import { useTestStack } from '../../test/stack.js';

// The buyer's pause and resume in the portal (docs/subscriptions.md, "Pause and resume"; Polar's
// CustomerSubscriptionPause / CustomerSubscriptionResume), the organization's
// `customer_portal_settings.subscription.pause` that allows them, and the product's
// `pause_keeps_benefits` (ours). Over HTTP: 0.48.1's portal union has no pause shape.

describe('portal: pause and resume (customer_portal_settings.subscription.pause)', () => {
  const env = useTestStack();

  async function newSeller() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const call = (method: string, path: string, body?: unknown) =>
      callV1(env.stack.baseUrl, token, method, path, body);
    return { organization, token, polar, seller: call };
  }

  it('refuses the buyer until the seller allows it, then pauses, un-pauses, pauses and resumes with a charge', async () => {
    const { organization, token, polar, seller } = await newSeller();
    const plan = await polar.products.create({
      name: 'Studio',
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 2000, priceCurrency: 'usd' }],
    });
    const clock = (await seller('POST', '/test-clocks/', {
      name: 'Pause',
      frozen_time: '2026-03-01T09:00:00.000Z',
    })) as unknown as { body: { id: string } };
    const customer = await polar.customers.create({
      email: `bea-${clock.body.id}@example.test`,
      name: 'Bea',
    });
    await seller('POST', `/test-clocks/${clock.body.id}/customers`, { customer_id: customer.id });
    const { subscriptionId, customerSessionToken } = await buyInSandbox(
      polar as never,
      env.stack.baseUrl,
      plan.id,
      customer.id,
    );
    const id = subscriptionId!;
    const portal = (body: unknown) =>
      callV1(env.stack.baseUrl, customerSessionToken!, 'PATCH', `/customer-portal/subscriptions/${id}`, body);

    // Off by default: Polar's 403, and nothing changes.
    const organizationRead = await seller('GET', `/organizations/${organization.id}`);
    expect(organizationRead.body).toMatchObject({
      customer_portal_settings: { subscription: { pause: false } },
    });
    for (const body of [{ pause_at_period_end: true }, { resume: true }]) {
      expect(await portal(body)).toMatchObject({
        status: 403,
        body: {
          error: 'PauseResumeNotAllowed',
          detail: 'Pausing or resuming a subscription is not allowed.',
        },
      });
    }
    expect((await polar.subscriptions.get({ id })).status).toBe('active');

    const allowed = await seller('PATCH', `/organizations/${organization.id}`, {
      customer_portal_settings: { subscription: { update_seats: false, update_plan: true, pause: true } },
    });
    expect(allowed).toMatchObject({
      status: 200,
      body: { customer_portal_settings: { subscription: { pause: true, update_plan: true } } },
    });

    // A resume date before the period's end is refused at its field; un-pausing what is not set, 409.
    expect(await portal({ pause_at_period_end: true, resumes_at: '2026-03-15T09:00:00Z' })).toMatchObject({
      status: 422,
    });
    expect(await portal({ pause_at_period_end: false })).toMatchObject({
      status: 409,
      body: { error: 'NoScheduledPause' },
    });
    expect(await portal({ resume: true })).toMatchObject({
      status: 409,
      body: { error: 'NotPausedSubscription' },
    });

    const scheduled = await portal({ pause_at_period_end: true, resumes_at: '2026-06-01T09:00:00Z' });
    expect(scheduled).toMatchObject({
      status: 200,
      body: { status: 'active', pause_at_period_end: true, resumes_at: '2026-06-01T09:00:00.000Z' },
    });
    expect(await portal({ pause_at_period_end: false })).toMatchObject({
      status: 200,
      body: { pause_at_period_end: false, resumes_at: null },
    });
    expect(await portal({ pause_at_period_end: true })).toMatchObject({
      status: 200,
      body: { pause_at_period_end: true, resumes_at: null },
    });

    await advanceTestClock(env.stack.baseUrl, token, clock.body.id, '2026-04-05T09:00:00.000Z');
    await eventually(
      async () => polar.subscriptions.get({ id }),
      (subscription) => subscription.status === 'paused',
      60_000,
    );
    // Paused: no renewal order.
    expect((await polar.orders.list({ productId: plan.id })).result.items).toHaveLength(1);

    const resumed = await portal({ resume: true });
    expect(resumed).toMatchObject({ status: 200, body: { status: 'active', paused_at: null } });
    const orders = await eventually(
      async () => (await polar.orders.list({ productId: plan.id })).result.items,
      (items) => items.length === 2,
      60_000,
    );
    expect(orders.map((order: { totalAmount: number }) => order.totalAmount)).toEqual([2000, 2000]);
    await eventually(
      async () => polar.subscriptions.get({ id }),
      (subscription) => subscription.currentPeriodStart.toISOString() === '2026-04-05T09:00:00.000Z',
      60_000,
    );
  });

  it("revokes a paused plan's benefits unless its product keeps them, and grants them again at the resume", async () => {
    const { token, polar, seller } = await newSeller();
    const clock = (await seller('POST', '/test-clocks/', {
      name: 'Benefits',
      frozen_time: '2026-03-01T09:00:00.000Z',
    })) as unknown as { body: { id: string } };
    const planWith = async (name: string, keeps: boolean) => {
      const created = await seller('POST', '/products/', {
        name,
        recurring_interval: 'month',
        prices: [{ amount_type: 'fixed', price_amount: 1000, price_currency: 'usd' }],
        pause_keeps_benefits: keeps,
      });
      const productId = (created.body as { id: string }).id;
      const benefit = await polar.benefits.create({
        type: 'custom',
        description: `${name} support`,
        properties: { note: 'Write to us' },
      });
      await polar.products.updateBenefits({
        id: productId,
        productBenefitsUpdate: { benefits: [benefit.id] },
      });
      const customer = await polar.customers.create({
        email: `${name.toLowerCase()}-${clock.body.id}@example.test`,
        name,
      });
      await seller('POST', `/test-clocks/${clock.body.id}/customers`, { customer_id: customer.id });
      const { subscriptionId } = await buyInSandbox(
        polar as never,
        env.stack.baseUrl,
        productId,
        customer.id,
      );
      const granted = async () =>
        (await polar.benefits.grants({ id: benefit.id })).result.items.some((grant) => grant.isGranted);
      await eventually(granted, (value) => value, 60_000);
      expect(
        await seller('PATCH', `/subscriptions/${subscriptionId}`, { pause_at_period_end: true }),
      ).toMatchObject({
        status: 200,
      });
      return { id: subscriptionId!, granted };
    };
    const revoked = await planWith('Revoked', false);
    const kept = await planWith('Kept', true);

    await advanceTestClock(env.stack.baseUrl, token, clock.body.id, '2026-04-05T09:00:00.000Z');
    for (const plan of [revoked, kept]) {
      await eventually(
        async () => (await env.database.db.subscription.findUniqueOrThrow({ where: { id: plan.id } })).status,
        (status) => status === 'paused',
        60_000,
      );
    }
    await eventually(revoked.granted, (value) => !value, 60_000);
    expect(await kept.granted()).toBe(true);

    expect(await seller('PATCH', `/subscriptions/${revoked.id}`, { resume: true })).toMatchObject({
      status: 200,
    });
    await eventually(revoked.granted, (value) => value, 60_000);
    expect(await kept.granted()).toBe(true);
  });

  it("sets and shows the product's pause_keeps_benefits (ours), false by default", async () => {
    const { seller } = await newSeller();
    const created = await seller('POST', '/products/', {
      name: 'Keeps',
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 1000, price_currency: 'usd' }],
    });
    expect(created).toMatchObject({ status: 201, body: { pause_keeps_benefits: false } });
    const productId = (created.body as { id: string }).id;
    const updated = await seller('PATCH', `/products/${productId}`, { pause_keeps_benefits: true });
    expect(updated).toMatchObject({ status: 200, body: { pause_keeps_benefits: true } });
    const row = await env.database.db.product.findUniqueOrThrow({ where: { id: productId } });
    expect(row.pauseKeepsBenefits).toBe(true);
    const alsoOn = await seller('POST', '/products/', {
      name: 'Keeps too',
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 1000, price_currency: 'usd' }],
      pause_keeps_benefits: true,
    });
    expect(alsoOn).toMatchObject({ status: 201, body: { pause_keeps_benefits: true } });
    expect(await seller('PATCH', `/products/${productId}`, { pause_keeps_benefits: 'yes' })).toMatchObject({
      status: 422,
    });
  });
});
