import { afterEach, describe, expect, it } from '@jest/globals';
import { Polar } from 'polar-sdk-0481';
import { validateEvent } from 'polar-sdk-0481/webhooks.js';
import { eventually } from '../../test/eventually.js';
import { buyInSandbox, createAccessToken, createOrganization } from '../../test/factories.js';
import { callV1 } from '../../test/http.js';
import { useTestStack } from '../../test/stack.js';
import { startWebhookReceiver } from '../../test/webhook-receiver.js';

// Plan changes at the next period through @polar-sh/sdk@0.48.1 only (its response and webhook
// validation on), on a test clock (our extension, over HTTP): `proration_behavior: next_period`
// sets `pending_update`, `{pending_update: null}` clears it, the renewal applies it in its order.

describe('subscriptions: changes at the next period (0.48.1)', () => {
  const env = useTestStack();
  const receivers: Awaited<ReturnType<typeof startWebhookReceiver>>[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((receiver) => receiver.stop()));
  });

  async function seller() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const product = (name: string, amount: number) =>
      polar.products.create({
        name,
        recurringInterval: 'month',
        prices: [{ amountType: 'fixed', priceAmount: amount, priceCurrency: 'usd' }],
      });
    return { organization, token, polar, product };
  }

  /** A clock frozen at `at` with a customer on it, and a test-clock advance that waits until ready. */
  async function clockedCustomer(polar: Polar, token: string, at: string) {
    const call = async (method: string, path: string, body?: unknown) => {
      const answer = await callV1(env.stack.baseUrl, token, method, `/test-clocks/${path}`, body);
      if (answer.status >= 300)
        throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body as { id: string; status: string };
    };
    const clock = await call('POST', '', { name: 'Next period', frozen_time: at });
    const customer = await polar.customers.create({ email: `ada-${clock.id}@example.test`, name: 'Ada' });
    await call('POST', `${clock.id}/customers`, { customer_id: customer.id });
    const advanceTo = async (frozenTime: string) => {
      await call('POST', `${clock.id}/advance`, { frozen_time: frozenTime });
      await eventually(
        () => call('GET', clock.id),
        (value) => value.status === 'ready',
        60_000,
      );
    };
    return { customer, advanceTo };
  }

  it('schedules a plan change for the renewal, shows it, and bills the new plan in the one renewal order', async () => {
    const { polar, token, product } = await seller();
    const basic = await product('Basic', 1500);
    const pro = await product('Pro', 4000);
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    const endpoint = await polar.webhooks.createWebhookEndpoint({
      url: receiver.url,
      format: 'raw',
      events: ['subscription.updated'],
    });
    const { customer, advanceTo } = await clockedCustomer(polar, token, '2026-03-01T09:00:00.000Z');
    const checkout = await buyInSandbox(polar as never, env.stack.baseUrl, basic.id, customer.id);
    const id = checkout.subscriptionId!;
    await advanceTo('2026-03-12T09:00:00.000Z');

    const scheduled = await polar.subscriptions.update({
      id,
      subscriptionUpdate: { productId: pro.id, prorationBehavior: 'next_period' },
    });
    expect(scheduled.productId).toBe(basic.id);
    expect(scheduled.amount).toBe(1500);
    expect(scheduled.pendingUpdate).toMatchObject({
      productId: pro.id,
      seats: null,
      appliesAt: new Date('2026-04-01T09:00:00.000Z'),
      createdAt: new Date('2026-03-12T09:00:00.000Z'),
      modifiedAt: null,
    });
    expect(await polar.subscriptions.get({ id })).toEqual(scheduled);
    // Nothing billed at the change.
    expect((await polar.orders.list({ customerId: customer.id })).result.items).toHaveLength(1);

    await advanceTo('2026-04-01T10:00:00.000Z');
    const renewed = await polar.subscriptions.get({ id });
    expect(renewed).toMatchObject({ productId: pro.id, amount: 4000, pendingUpdate: null });
    expect(renewed.currentPeriodStart).toEqual(new Date('2026-04-01T09:00:00.000Z'));
    const orders = (await polar.orders.list({ customerId: customer.id, sorting: ['created_at'] })).result
      .items;
    expect(orders.map((order) => [order.billingReason, order.productId, order.subtotalAmount])).toEqual([
      ['subscription_create', basic.id, 1500],
      ['subscription_cycle', pro.id, 4000],
    ]);

    // subscription.updated when it was set and when it was applied (then the renewal's).
    const updates = await eventually(
      async () =>
        receiver.received.map((request) => validateEvent(request.body, request.headers, endpoint.secret)),
      (events) => events.length >= 3,
      30_000,
    );
    const seen = updates.map((event) =>
      event.type === 'subscription.updated'
        ? [event.data.productId, event.data.pendingUpdate?.productId ?? null]
        : [event.type],
    );
    expect(seen).toContainEqual([basic.id, pro.id]);
    expect(seen).toContainEqual([pro.id, null]);
  });

  it('clears the pending update ({pending_update: null}): the plan renews unchanged; a second clear is a 422', async () => {
    const { polar, token, product } = await seller();
    const basic = await product('Basic', 1500);
    const pro = await product('Pro', 4000);
    const { customer, advanceTo } = await clockedCustomer(polar, token, '2026-03-01T09:00:00.000Z');
    const checkout = await buyInSandbox(polar as never, env.stack.baseUrl, basic.id, customer.id);
    const id = checkout.subscriptionId!;
    await polar.subscriptions.update({
      id,
      subscriptionUpdate: { productId: pro.id, prorationBehavior: 'next_period' },
    });
    const cleared = await polar.subscriptions.update({ id, subscriptionUpdate: { pendingUpdate: null } });
    expect(cleared).toMatchObject({ productId: basic.id, pendingUpdate: null });
    const again = await callV1(env.stack.baseUrl, token, 'PATCH', `/subscriptions/${id}`, {
      pending_update: null,
    });
    expect(again.status).toBe(422);
    expect(JSON.stringify(again.body)).toContain('This subscription has no pending update to clear.');

    await advanceTo('2026-04-01T10:00:00.000Z');
    const orders = (await polar.orders.list({ customerId: customer.id, sorting: ['created_at'] })).result
      .items;
    expect(orders.map((order) => [order.billingReason, order.productId, order.subtotalAmount])).toEqual([
      ['subscription_create', basic.id, 1500],
      ['subscription_cycle', basic.id, 1500],
    ]);
  });

  it('refuses reset unless the organization turned it on; then restarts the period at the change, charged in full', async () => {
    const { polar, token, product, organization } = await seller();
    const basic = await product('Basic', 1500);
    const pro = await product('Pro', 4000);
    const { customer, advanceTo } = await clockedCustomer(polar, token, '2026-03-01T09:00:00.000Z');
    const checkout = await buyInSandbox(polar as never, env.stack.baseUrl, basic.id, customer.id);
    const id = checkout.subscriptionId!;
    await advanceTo('2026-03-16T21:00:00.000Z');
    const refused = await callV1(env.stack.baseUrl, token, 'PATCH', `/subscriptions/${id}`, {
      product_id: pro.id,
      proration_behavior: 'reset',
    });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain(
      "The 'reset' proration behavior is not enabled for this organization.",
    );

    const settings = {
      allow_multiple_subscriptions: false,
      allow_customer_updates: true,
      proration_behavior: 'reset',
    };
    const refusedDefault = await callV1(
      env.stack.baseUrl,
      token,
      'PATCH',
      `/organizations/${organization.id}`,
      {
        subscription_settings: settings,
      },
    );
    expect(refusedDefault.status).toBe(422);
    expect(JSON.stringify(refusedDefault.body)).toContain('reset_proration_behavior_enabled');

    const updated = await polar.organizations.update({
      id: organization.id,
      organizationUpdate: { featureSettings: { resetProrationBehaviorEnabled: true } },
    });
    const defaulted = await callV1(env.stack.baseUrl, token, 'PATCH', `/organizations/${organization.id}`, {
      subscription_settings: settings,
    });
    expect(defaulted.status).toBe(200);
    expect(updated.featureSettings?.resetProrationBehaviorEnabled).toBe(true);
    const reset = await polar.subscriptions.update({
      id,
      subscriptionUpdate: { productId: pro.id, prorationBehavior: 'reset' },
    });
    expect(reset).toMatchObject({ productId: pro.id, amount: 4000, pendingUpdate: null });
    expect(reset.currentPeriodStart).toEqual(new Date('2026-03-16T21:00:00.000Z'));
    expect(reset.currentPeriodEnd).toEqual(new Date('2026-04-16T21:00:00.000Z'));
    const orders = await eventually(
      async () =>
        (await polar.orders.list({ customerId: customer.id, sorting: ['created_at'] })).result.items,
      (items) => items.length === 2 && items[1]!.status === 'paid',
    );
    // The new plan's whole period, less Basic's unused half month (credited, not lost).
    expect(orders[1]).toMatchObject({ billingReason: 'subscription_update', productId: pro.id });
    expect(orders[1]!.subtotalAmount).toBe(4000 - 750);
  });

  it("the portal's plan change follows the organization's next_period default; the buyer clears it", async () => {
    const { polar, token, product, organization } = await seller();
    const basic = await product('Basic', 1500);
    const pro = await product('Pro', 4000);
    const { customer } = await clockedCustomer(polar, token, '2026-03-01T09:00:00.000Z');
    const checkout = await buyInSandbox(polar as never, env.stack.baseUrl, basic.id, customer.id);
    const id = checkout.subscriptionId!;
    // Set once bought: 0.33.2 (the test factory's checkout confirmation) knows only invoice and
    // prorate, and refuses the organization it reads in the checkout with another default.
    const defaulted = await callV1(env.stack.baseUrl, token, 'PATCH', `/organizations/${organization.id}`, {
      subscription_settings: {
        allow_multiple_subscriptions: false,
        allow_customer_updates: true,
        proration_behavior: 'next_period',
      },
    });
    expect(defaulted.status).toBe(200);
    const session = await polar.customerSessions.create({ customerId: customer.id });
    const security = { customerSession: session.token };
    const buyer = new Polar({ serverURL: env.stack.baseUrl });

    const changed = await buyer.customerPortal.subscriptions.update(security, {
      id,
      customerSubscriptionUpdate: { productId: pro.id },
    });
    expect(changed.productId).toBe(basic.id);
    expect(changed.pendingUpdate).toMatchObject({
      productId: pro.id,
      appliesAt: new Date('2026-04-01T09:00:00.000Z'),
    });
    expect((await polar.orders.list({ customerId: customer.id })).result.items).toHaveLength(1);

    const cleared = await buyer.customerPortal.subscriptions.update(security, {
      id,
      customerSubscriptionUpdate: { pendingUpdate: null },
    });
    expect(cleared).toMatchObject({ productId: basic.id, pendingUpdate: null });
    expect((await polar.subscriptions.get({ id })).pendingUpdate).toBeNull();
  });
});
