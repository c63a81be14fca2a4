import { afterEach, describe, expect, it } from '@jest/globals';
import { Polar } from 'polar-sdk-0481';
import { validateEvent } from 'polar-sdk-0481/webhooks.js';
import { eventually } from '../../test/eventually.js';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { callV1 } from '../../test/http.js';
import { useTestStack } from '../../test/stack.js';
import { startWebhookReceiver } from '../../test/webhook-receiver.js';

// Issue 34's lifecycle as a seller lives it through @polar-sh/sdk@0.48.1 only: every call the SDK
// has goes through it (each answer parsed by its own strict schemas, each webhook checked by its
// validateEvent). Over plain HTTP only what 0.48.1 cannot send: the test clocks (our extension)
// and the pause (Polar's dated versions' SubscriptionPause/Resume, absent from 0.48.1), whose
// fields (`paused_at`, `resumes_at`, `past_due_at`) 0.48.1 also does not read, so they are read raw.

const ADDRESS = { country: 'DE', city: 'Berlin', postalCode: '10117', line1: 'Unter den Linden 1' } as const;
const at = (iso: string) => new Date(iso);

type RawSubscription = {
  status: string;
  pause_at_period_end: boolean;
  paused_at: string | null;
  resumes_at: string | null;
  past_due_at: string | null;
};

describe('a subscription lifecycle through @polar-sh/sdk@0.48.1 on a test clock', () => {
  const env = useTestStack();
  const receivers: Awaited<ReturnType<typeof startWebhookReceiver>>[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((receiver) => receiver.stop()));
  });

  /** A seller, a customer on a clock frozen at `frozenTime`, and what the SDK cannot do for them. */
  async function sellerOnClock(frozenTime: string) {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const raw = async (method: string, path: string, body?: unknown) => {
      const answer = await callV1(env.stack.baseUrl, token, method, path, body);
      if (answer.status >= 300)
        throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body;
    };
    const clock = (await raw('POST', '/test-clocks', { name: 'Lifecycle', frozen_time: frozenTime })) as {
      id: string;
    };
    const customer = await polar.customers.create({
      email: `ada-${clock.id}@example.test`,
      name: 'Ada Lovelace',
    });
    await raw('POST', `/test-clocks/${clock.id}/customers`, { customer_id: customer.id });
    return {
      polar,
      customer,
      raw,
      rawSubscription: async (id: string) =>
        (await raw('GET', `/subscriptions/${id}`)) as unknown as RawSubscription,
      /** Moves the clock and waits until every subscription on it caught up. */
      async advanceTo(frozenTime: string) {
        await raw('POST', `/test-clocks/${clock.id}/advance`, { frozen_time: frozenTime });
        await eventually(
          async () => (await raw('GET', `/test-clocks/${clock.id}`)) as { status: string },
          (value) => value.status === 'ready',
          60_000,
        );
      },
      monthly: (name: string, amount: number, extra: { trialIntervalCount?: number; count?: number } = {}) =>
        polar.products.create({
          name,
          recurringInterval: 'month',
          ...(extra.count ? { recurringIntervalCount: extra.count } : {}),
          ...(extra.trialIntervalCount
            ? { trialInterval: 'day', trialIntervalCount: extra.trialIntervalCount }
            : {}),
          prices: [{ amountType: 'fixed', priceAmount: amount, priceCurrency: 'usd' }],
        }),
      /** The buyer's hosted checkout, through the SDK's client calls. */
      async buy(productId: string, card = 'pm_card_visa') {
        const checkout = await polar.checkouts.create({ products: [productId], customerId: customer.id });
        await new Polar({ serverURL: env.stack.baseUrl }).checkouts.clientConfirm({
          clientSecret: checkout.clientSecret,
          checkoutConfirmStripe: {
            customerName: 'Ada Lovelace',
            customerBillingAddress: ADDRESS,
            confirmationTokenId: card,
          },
        });
        const paid = await eventually(
          () => polar.checkouts.get({ id: checkout.id }),
          (value) => value.status === 'succeeded',
        );
        return paid.subscriptionId!;
      },
      async orders() {
        const page = await polar.orders.list({
          customerId: customer.id,
          limit: 100,
          sorting: ['created_at'],
        });
        return page.result.items.map((order) => [
          order.billingReason,
          order.productId,
          order.totalAmount,
          order.status,
          order.createdAt.toISOString(),
        ]);
      },
    };
  }

  type HookType =
    'subscription.created' | 'subscription.active' | 'subscription.updated' | 'subscription.past_due';
  async function receiverFor(polar: Polar, events: HookType[]) {
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    const endpoint = await polar.webhooks.createWebhookEndpoint({ url: receiver.url, format: 'raw', events });
    return {
      events: () =>
        receiver.received.map((request) => validateEvent(request.body, request.headers, endpoint.secret)),
    };
  }

  it('trial → converted: nothing charged during the trial, the first period charged at its end', async () => {
    const seller = await sellerOnClock('2026-11-28T10:00:00.000Z');
    const hooks = await receiverFor(seller.polar, [
      'subscription.created',
      'subscription.active',
      'subscription.updated',
    ]);
    const plan = await seller.monthly('Pro', 2000, { trialIntervalCount: 14 });
    expect(plan).toMatchObject({ trialInterval: 'day', trialIntervalCount: 14 });
    const id = await seller.buy(plan.id);
    expect(await seller.polar.subscriptions.get({ id })).toMatchObject({
      status: 'trialing',
      amount: 2000,
      trialStart: at('2026-11-28T10:00:00.000Z'),
      trialEnd: at('2026-12-12T10:00:00.000Z'),
      currentPeriodEnd: at('2026-12-12T10:00:00.000Z'),
    });
    expect(await seller.orders()).toEqual([
      ['subscription_create', plan.id, 0, 'paid', '2026-11-28T10:00:00.000Z'],
    ]);

    await seller.advanceTo('2026-12-12T11:00:00.000Z');
    expect(await seller.polar.subscriptions.get({ id })).toMatchObject({
      status: 'active',
      currentPeriodStart: at('2026-12-12T10:00:00.000Z'),
      currentPeriodEnd: at('2027-01-12T10:00:00.000Z'),
    });
    expect(await seller.orders()).toEqual([
      ['subscription_create', plan.id, 0, 'paid', '2026-11-28T10:00:00.000Z'],
      ['subscription_cycle', plan.id, 2000, 'paid', '2026-12-12T10:00:00.000Z'],
    ]);
    // The trial's transitions, each valid for 0.48.1: created and active while trialing, then the
    // conversion as subscription.updated (no second .active: trialing is in the active group).
    const events = await eventually(
      async () => hooks.events(),
      (list) => list.some((event) => event.type === 'subscription.updated' && event.data.status === 'active'),
      30_000,
    );
    const seen = events.map((event) => [event.type, 'status' in event.data ? event.data.status : null]);
    expect(seen).toContainEqual(['subscription.created', 'trialing']);
    expect(seen.filter(([type]) => type === 'subscription.active')).toEqual([
      ['subscription.active', 'trialing'],
    ]);
  });

  it('trial → cancelled during the trial: it ends at the trial end and nothing is charged', async () => {
    const seller = await sellerOnClock('2026-11-28T10:00:00.000Z');
    const plan = await seller.monthly('Pro', 2000, { trialIntervalCount: 14 });
    const id = await seller.buy(plan.id);
    await seller.advanceTo('2026-12-01T10:00:00.000Z');
    const canceling = await seller.polar.subscriptions.update({
      id,
      subscriptionUpdate: { cancelAtPeriodEnd: true },
    });
    expect(canceling).toMatchObject({
      status: 'trialing',
      cancelAtPeriodEnd: true,
      endsAt: at('2026-12-12T10:00:00.000Z'),
    });

    await seller.advanceTo('2026-12-20T10:00:00.000Z');
    expect(await seller.polar.subscriptions.get({ id })).toMatchObject({
      status: 'canceled',
      endedAt: at('2026-12-12T10:00:00.000Z'),
    });
    // Only the trial's $0 order: an ending trial bills no fee.
    expect(await seller.orders()).toEqual([
      ['subscription_create', plan.id, 0, 'paid', '2026-11-28T10:00:00.000Z'],
    ]);
  });

  it('trial → first charge declined → past_due with past_due_at and a valid subscription.past_due webhook', async () => {
    const seller = await sellerOnClock('2026-11-28T10:00:00.000Z');
    const hooks = await receiverFor(seller.polar, ['subscription.past_due']);
    const plan = await seller.monthly('Pro', 2000, { trialIntervalCount: 14 });
    // The sandbox's 0341 card: saved at the checkout, declined when charged off-session.
    const id = await seller.buy(plan.id, 'pm_card_chargeCustomerFail');
    await seller.advanceTo('2026-12-12T11:00:00.000Z');

    expect(await seller.polar.subscriptions.get({ id })).toMatchObject({ status: 'past_due' });
    expect(await seller.rawSubscription(id)).toMatchObject({
      status: 'past_due',
      past_due_at: '2026-12-12T10:00:00.000Z',
    });
    expect(await seller.orders()).toEqual([
      ['subscription_create', plan.id, 0, 'paid', '2026-11-28T10:00:00.000Z'],
      ['subscription_cycle', plan.id, 2000, 'pending', '2026-12-12T10:00:00.000Z'],
    ]);
    const events = await eventually(
      async () => hooks.events(),
      (list) => list.length >= 1,
      30_000,
    );
    expect(events.map((event) => [event.type, 'id' in event.data ? event.data.id : null])).toEqual([
      ['subscription.past_due', id],
    ]);
  });

  it('pause at the period end → paused (no charge) → resumed at resumes_at, a new period charged then', async () => {
    const seller = await sellerOnClock('2026-03-01T09:00:00.000Z');
    const hooks = await receiverFor(seller.polar, ['subscription.updated']);
    const plan = await seller.monthly('Basic', 1500);
    const id = await seller.buy(plan.id);
    await seller.advanceTo('2026-03-10T09:00:00.000Z');
    // 0.48.1 has no SubscriptionPause: the dated versions' body, sent raw.
    await seller.raw('PATCH', `/subscriptions/${id}`, {
      pause_at_period_end: true,
      resumes_at: '2026-05-15T09:00:00.000Z',
    });
    expect(await seller.rawSubscription(id)).toMatchObject({
      status: 'active',
      pause_at_period_end: true,
      resumes_at: '2026-05-15T09:00:00.000Z',
    });

    await seller.advanceTo('2026-04-20T09:00:00.000Z');
    // 0.48.1's status is an open enum: it reads `paused` as is.
    expect(await seller.polar.subscriptions.get({ id })).toMatchObject({ status: 'paused' });
    expect(await seller.rawSubscription(id)).toMatchObject({
      status: 'paused',
      paused_at: '2026-04-01T09:00:00.000Z',
    });
    expect(await seller.orders()).toHaveLength(1);

    await seller.advanceTo('2026-05-20T09:00:00.000Z');
    expect(await seller.polar.subscriptions.get({ id })).toMatchObject({
      status: 'active',
      currentPeriodStart: at('2026-05-15T09:00:00.000Z'),
      currentPeriodEnd: at('2026-06-15T09:00:00.000Z'),
    });
    expect(await seller.rawSubscription(id)).toMatchObject({ paused_at: null, resumes_at: null });
    expect(await seller.orders()).toEqual([
      ['subscription_create', plan.id, 1500, 'paid', '2026-03-01T09:00:00.000Z'],
      ['subscription_cycle', plan.id, 1500, 'paid', '2026-05-15T09:00:00.000Z'],
    ]);
    // 0.48.1 knows no subscription.paused/.resumed; its subscribers see both as subscription.updated.
    const events = await eventually(
      async () => hooks.events(),
      (list) => list.filter((event) => event.type === 'subscription.updated').length >= 3,
      30_000,
    );
    const statuses: string[] = events.map((event) =>
      'status' in event.data ? event.data.status : event.type,
    );
    expect(statuses).toContain('paused');
    expect(statuses.indexOf('paused')).toBeLessThan(statuses.lastIndexOf('active'));
  });

  it('pause at the period end, then resumed by hand: the new period starts (and is charged) at the resume', async () => {
    const seller = await sellerOnClock('2026-03-01T09:00:00.000Z');
    const plan = await seller.monthly('Basic', 1500);
    const id = await seller.buy(plan.id);
    await seller.raw('PATCH', `/subscriptions/${id}`, { pause_at_period_end: true });
    await seller.advanceTo('2026-04-10T12:00:00.000Z');
    expect(await seller.rawSubscription(id)).toMatchObject({ status: 'paused', resumes_at: null });

    await seller.raw('PATCH', `/subscriptions/${id}`, { resume: true });
    const resumed = await eventually(
      () => seller.polar.subscriptions.get({ id }),
      (value) => value.currentPeriodStart.toISOString() === '2026-04-10T12:00:00.000Z',
      30_000,
    );
    expect(resumed).toMatchObject({ status: 'active', currentPeriodEnd: at('2026-05-10T12:00:00.000Z') });
    // The new period starts with its order, which is charged a step later.
    const orders = await eventually(
      () => seller.orders(),
      (list) => list.every((order) => order[3] === 'paid'),
      30_000,
    );
    expect(orders).toEqual([
      ['subscription_create', plan.id, 1500, 'paid', '2026-03-01T09:00:00.000Z'],
      ['subscription_cycle', plan.id, 1500, 'paid', '2026-04-10T12:00:00.000Z'],
    ]);
  });

  it('a next-period plan change is applied at the renewal in one order; one cancelled before it changes nothing', async () => {
    const seller = await sellerOnClock('2026-03-01T09:00:00.000Z');
    const hooks = await receiverFor(seller.polar, ['subscription.updated']);
    const basic = await seller.monthly('Basic', 1500);
    const pro = await seller.monthly('Pro', 4000);
    const id = await seller.buy(basic.id);
    await seller.advanceTo('2026-03-12T09:00:00.000Z');
    const scheduled = await seller.polar.subscriptions.update({
      id,
      subscriptionUpdate: { productId: pro.id, prorationBehavior: 'next_period' },
    });
    expect(scheduled).toMatchObject({
      productId: basic.id,
      amount: 1500,
      pendingUpdate: { productId: pro.id, appliesAt: at('2026-04-01T09:00:00.000Z') },
    });
    await seller.advanceTo('2026-04-02T09:00:00.000Z');
    expect(await seller.polar.subscriptions.get({ id })).toMatchObject({
      productId: pro.id,
      amount: 4000,
      pendingUpdate: null,
    });

    // A second change, to Basic at the next period, cancelled before its renewal.
    await seller.polar.subscriptions.update({
      id,
      subscriptionUpdate: { productId: basic.id, prorationBehavior: 'next_period' },
    });
    const cleared = await seller.polar.subscriptions.update({
      id,
      subscriptionUpdate: { pendingUpdate: null },
    });
    expect(cleared).toMatchObject({ productId: pro.id, pendingUpdate: null });
    await seller.advanceTo('2026-05-02T09:00:00.000Z');
    expect(await seller.polar.subscriptions.get({ id })).toMatchObject({ productId: pro.id, amount: 4000 });
    expect(await seller.orders()).toEqual([
      ['subscription_create', basic.id, 1500, 'paid', '2026-03-01T09:00:00.000Z'],
      ['subscription_cycle', pro.id, 4000, 'paid', '2026-04-01T09:00:00.000Z'],
      ['subscription_cycle', pro.id, 4000, 'paid', '2026-05-01T09:00:00.000Z'],
    ]);
    const updates = await eventually(
      async () => hooks.events(),
      (list) => list.length >= 5,
      30_000,
    );
    const pending = updates.map((event) =>
      event.type === 'subscription.updated' ? (event.data.pendingUpdate?.productId ?? null) : event.type,
    );
    // Set (Pro pending), applied, set again (Basic pending), cleared: each a valid subscription.updated.
    expect(pending).toContain(pro.id);
    expect(pending).toContain(basic.id);
    expect(pending.filter((value) => value === null).length).toBeGreaterThanOrEqual(2);
  });

  it('an every-3-months plan over two years: 8 orders, each on its quarter from the anchor', async () => {
    const seller = await sellerOnClock('2026-01-31T09:00:00.000Z');
    const plan = await seller.monthly('Quarterly', 6000, { count: 3 });
    expect(plan).toMatchObject({ recurringInterval: 'month', recurringIntervalCount: 3 });
    const id = await seller.buy(plan.id);
    await seller.advanceTo('2028-01-30T09:00:00.000Z');
    const starts = [
      '2026-01-31',
      '2026-04-30',
      '2026-07-31',
      '2026-10-31',
      '2027-01-31',
      '2027-04-30',
      '2027-07-31',
      '2027-10-31',
    ];
    expect(await seller.orders()).toEqual(
      starts.map((day, index) => [
        index === 0 ? 'subscription_create' : 'subscription_cycle',
        plan.id,
        6000,
        'paid',
        `${day}T09:00:00.000Z`,
      ]),
    );
    expect(await seller.polar.subscriptions.get({ id })).toMatchObject({
      status: 'active',
      recurringIntervalCount: 3,
      currentPeriodStart: at('2027-10-31T09:00:00.000Z'),
      currentPeriodEnd: at('2028-01-31T09:00:00.000Z'),
    });
  });
});
