import { afterEach, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { validateEvent } from '@polar-sh/sdk/webhooks';
import type { Caller } from '../../domain/access/rules.js';
import { subscriptionWorkflowId } from '../../domain/subscriptions/rules.js';
import { listTestClocks } from '../../domain/test-clocks/service.js';
import { insertEvents } from '../../domain/usage/repository.js';
import { AppError } from '../../domain/platform/errors.js';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { eventually } from '../../test/eventually.js';
import { useTestStack } from '../../test/stack.js';
import { startWebhookReceiver } from '../../test/webhook-receiver.js';

const WEBHOOK_SECRET = 'tollgate_whs_test-clock-life-secret';
const ADDRESS = { country: 'DE', city: 'Berlin', postalCode: '10117', line1: 'Unter den Linden 1' };

type TestClock = {
  id: string;
  name: string | null;
  frozen_time: string;
  status: 'ready' | 'advancing';
  customer_ids: string[];
  organization_id: string;
};

describe('test clocks (sandbox): a plan lives through the time a seller advances', () => {
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

  /** The clocks are our extension: the SDK has no calls for them. */
  function clockApi(token: string) {
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${env.stack.baseUrl}/v1/test-clocks/${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
    };
    const ok = async (method: string, path: string, body?: unknown) => {
      const answer = await call(method, path, body);
      if (answer.status >= 300)
        throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body as unknown as TestClock;
    };
    return {
      call,
      create: (frozenTime: string, name = 'Year one') => ok('POST', '', { name, frozen_time: frozenTime }),
      get: (id: string) => ok('GET', id),
      attach: (id: string, customerId: string) => ok('POST', `${id}/customers`, { customer_id: customerId }),
      /** Advances and waits until every subscription of the clock caught up. */
      async advanceTo(id: string, frozenTime: string) {
        const answer = await call('POST', `${id}/advance`, { frozen_time: frozenTime });
        expect(answer.status).toBe(202);
        return eventually(
          () => ok('GET', id),
          (clock) => clock.status === 'ready',
          60_000,
        );
      },
    };
  }

  async function buy(polar: Polar, productId: string, customerId: string, card = 'pm_card_visa') {
    const checkout = await polar.checkouts.create({ products: [productId], customerId });
    await new Polar({ serverURL: env.stack.baseUrl }).checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerName: 'Ada Lovelace',
        customerBillingAddress: ADDRESS,
        confirmationTokenId: card,
      },
    });
    return eventually(
      () => polar.checkouts.get({ id: checkout.id }),
      (value) => value.status === 'succeeded',
    );
  }

  const ordersOf = async (polar: Polar, productIds: string[]) =>
    (await polar.orders.list({ productId: productIds, limit: 100, sorting: ['created_at'] })).result.items;

  it('a whole life through the SDK: 3 renewals, upgrade invoiced, downgrade prorated, cancel, resume, cancel, end', async () => {
    const { polar, token, product } = await seller();
    const clocks = clockApi(token);
    const basic = await product('Basic', 1500);
    const pro = await product('Pro', 4000);
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    await polar.webhooks.createWebhookEndpoint({
      url: receiver.url,
      format: 'raw',
      secret: WEBHOOK_SECRET,
      events: [
        'subscription.created',
        'subscription.active',
        'subscription.updated',
        'subscription.canceled',
        'subscription.uncanceled',
        'subscription.revoked',
        'order.created',
        'order.paid',
      ],
    });

    // The 31st: renewals keep the anchor day where the month has one (28 Feb, 31 Mar, 30 Apr).
    const clock = await clocks.create('2026-01-31T10:00:00.000Z');
    expect(clock).toMatchObject({
      status: 'ready',
      customer_ids: [],
      frozen_time: '2026-01-31T10:00:00.000Z',
    });
    const customer = await polar.customers.create({ email: 'ada@example.test', name: 'Ada Lovelace' });
    expect((await clocks.attach(clock.id, customer.id)).customer_ids).toEqual([customer.id]);

    const checkout = await buy(polar, basic.id, customer.id);
    const id = checkout.subscriptionId!;
    const started = await polar.subscriptions.get({ id });
    // The plan lives in the clock's time, not today's.
    expect(started.startedAt).toEqual(new Date('2026-01-31T10:00:00.000Z'));
    expect(started.currentPeriodEnd).toEqual(new Date('2026-02-28T10:00:00.000Z'));
    expect((await clocks.get(clock.id)).status).toBe('ready');

    // Three renewals in one advance, each dated when it was due.
    await clocks.advanceTo(clock.id, '2026-04-30T12:00:00.000Z');
    let orders = await ordersOf(polar, [basic.id]);
    expect(
      orders.map((order) => [order.billingReason, order.totalAmount, order.status, order.createdAt]),
    ).toEqual([
      ['subscription_create', 1500, 'paid', new Date('2026-01-31T10:00:00.000Z')],
      ['subscription_cycle', 1500, 'paid', new Date('2026-02-28T10:00:00.000Z')],
      ['subscription_cycle', 1500, 'paid', new Date('2026-03-31T10:00:00.000Z')],
      ['subscription_cycle', 1500, 'paid', new Date('2026-04-30T10:00:00.000Z')],
    ]);
    expect(await polar.subscriptions.get({ id })).toMatchObject({
      status: 'active',
      currentPeriodStart: new Date('2026-04-30T10:00:00.000Z'),
      currentPeriodEnd: new Date('2026-05-31T10:00:00.000Z'),
    });

    // Upgrade half-way through the 31-day period, billed now: 4000/2 − 1500/2.
    await clocks.advanceTo(clock.id, '2026-05-15T22:00:00.000Z');
    const upgraded = await polar.subscriptions.update({
      id,
      subscriptionUpdate: { productId: pro.id, prorationBehavior: 'invoice' },
    });
    expect(upgraded).toMatchObject({ productId: pro.id, amount: 4000 });
    const invoiced = await eventually(
      () => ordersOf(polar, [pro.id]),
      (list) => list.length === 1 && list[0]!.status === 'paid',
    );
    expect(invoiced[0]).toMatchObject({
      billingReason: 'subscription_update',
      netAmount: 1250,
      createdAt: new Date('2026-05-15T22:00:00.000Z'),
    });
    expect(invoiced[0]!.items.map((item) => item.amount).sort((a, b) => a - b)).toEqual([-750, 2000]);

    // Downgrade with a quarter of the period left, onto the next renewal: 1500/4 − 4000/4.
    await clocks.advanceTo(clock.id, '2026-05-23T16:00:00.000Z');
    const preview = await fetch(`${env.stack.baseUrl}/v1/subscriptions/${id}/proration-preview`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ product_id: basic.id, proration_behavior: 'prorate' }),
    }).then((response) => response.json());
    expect(preview).toMatchObject({
      amount_due_now: 0,
      amount_carried_to_next_invoice: -625,
      new_amount: 1500,
    });
    await polar.subscriptions.update({
      id,
      subscriptionUpdate: { productId: basic.id, prorationBehavior: 'prorate' },
    });
    expect(await ordersOf(polar, [pro.id])).toHaveLength(1);

    // The renewal bills the Basic fee with both proration lines: 1500 + 375 − 1000.
    await clocks.advanceTo(clock.id, '2026-06-01T00:00:00.000Z');
    orders = await ordersOf(polar, [basic.id]);
    const renewal = orders.at(-1)!;
    expect(renewal).toMatchObject({
      billingReason: 'subscription_cycle',
      netAmount: 875,
      status: 'paid',
      createdAt: new Date('2026-05-31T10:00:00.000Z'),
    });
    expect(renewal.items.map((item) => item.amount).sort((a, b) => a - b)).toEqual([-1000, 375, 1500]);

    // Cancel, change of mind, cancel again: it ends at the end of the period, nothing more billed.
    const update = (cancelAtPeriodEnd: boolean) =>
      polar.subscriptions.update({ id, subscriptionUpdate: { cancelAtPeriodEnd } });
    expect(await update(true)).toMatchObject({
      cancelAtPeriodEnd: true,
      canceledAt: new Date('2026-06-01T00:00:00.000Z'),
      endsAt: new Date('2026-06-30T10:00:00.000Z'),
    });
    expect(await update(false)).toMatchObject({ cancelAtPeriodEnd: false, canceledAt: null, endsAt: null });
    await update(true);
    await clocks.advanceTo(clock.id, '2026-07-01T00:00:00.000Z');
    expect(await polar.subscriptions.get({ id })).toMatchObject({
      status: 'canceled',
      endedAt: new Date('2026-06-30T10:00:00.000Z'),
    });
    const all = await ordersOf(polar, [basic.id, pro.id]);
    expect(all.map((order) => order.netAmount)).toEqual([1500, 1500, 1500, 1500, 1250, 875]);
    expect(all.every((order) => order.status === 'paid')).toBe(true);

    // Every webhook passes the SDK's own check, and each kind arrived as often as it happened.
    const events = await eventually(
      async () =>
        receiver.received.map((request) => validateEvent(request.body, request.headers, WEBHOOK_SECRET)),
      (list) => list.filter((event) => event.type === 'subscription.revoked').length === 1,
      30_000,
    );
    const count = (type: string) => events.filter((event) => event.type === type).length;
    expect(count('subscription.created')).toBe(1);
    expect(count('order.created')).toBe(6);
    expect(count('order.paid')).toBe(6);
    expect(count('subscription.canceled')).toBe(2);
    expect(count('subscription.uncanceled')).toBe(1);
    expect(count('subscription.revoked')).toBe(1);
    const paid = events.filter((event) => event.type === 'order.paid').map((event) => event.data);
    expect(paid.map((order) => (order as { netAmount: number }).netAmount).sort((a, b) => a - b)).toEqual([
      875, 1250, 1500, 1500, 1500, 1500,
    ]);
  });

  it('bills a period’s usage at its renewal: sub-cent prices rounded once, credits taken off, a cap, nothing from before', async () => {
    const { organization, polar, token } = await seller();
    const clocks = clockApi(token);
    const countOf = (name: string) =>
      polar.meters.create({
        name,
        filter: {
          conjunction: 'and',
          clauses: [{ property: 'name', operator: 'eq', value: name.toLowerCase() }],
        },
        aggregation: { func: 'count' },
      });
    const calls = await countOf('Calls');
    const images = await countOf('Images');
    const plan = await polar.products.create({
      name: 'Usage plan',
      recurringInterval: 'month',
      prices: [
        { amountType: 'fixed', priceAmount: 1000, priceCurrency: 'usd' },
        // A third of a cent per call, at most $3.00 a month.
        {
          amountType: 'metered_unit',
          meterId: calls.id,
          priceCurrency: 'usd',
          unitAmount: '0.35',
          capAmount: 300,
        },
        { amountType: 'metered_unit', meterId: images.id, priceCurrency: 'usd', unitAmount: '2.5' },
      ],
    });
    const clock = await clocks.create('2026-03-01T00:00:00.000Z');
    const customer = await polar.customers.create({ email: 'ada@example.test', name: 'Ada' });
    await clocks.attach(clock.id, customer.id);
    const at = (iso: string) => new Date(iso);
    // Usage from before the plan is never billed.
    await polar.events.ingest({
      events: [{ name: 'calls', customerId: customer.id, timestamp: at('2026-02-20T00:00:00Z') }],
    });
    const { subscriptionId } = await buy(polar, plan.id, customer.id);
    const id = subscriptionId!;

    // As the meter_credit benefit writes it: 100 calls included this period. Written before the
    // usage, so the refresh that counts the last of it (awaited below) counts the credit too.
    await insertEvents(env.database.db.sql, [
      {
        organizationId: organization.id,
        name: 'meter.credited',
        source: 'system',
        timestamp: at('2026-03-01T00:00:00Z'),
        customerId: customer.id,
        externalCustomerId: null,
        externalId: null,
        metadata: { meter_id: calls.id, units: 100, rollover: false },
      },
    ]);
    const march = (index: number) => new Date(Date.UTC(2026, 2, 1, 1) + index * 60_000);
    await polar.events.ingest({
      events: Array.from({ length: 1000 }, (_, index) => ({
        name: 'calls',
        customerId: customer.id,
        timestamp: march(index),
      })),
    });
    await polar.events.ingest({
      events: [
        { name: 'calls', customerId: customer.id, timestamp: at('2026-03-31T23:59:59.999Z') },
        ...[1, 2, 3].map((day) => ({
          name: 'images',
          customerId: customer.id,
          timestamp: at(`2026-03-0${day}T12:00:00Z`),
        })),
        // The instant the period ends belongs to the next one.
        { name: 'calls', customerId: customer.id, timestamp: at('2026-04-01T00:00:00Z') },
      ],
    });
    // subscription.meters runs along the period: what its end would bill so far.
    const running = await eventually(
      () => polar.subscriptions.get({ id }),
      (subscription) =>
        subscription.meters.some((meter) => meter.meterId === images.id && meter.consumedUnits === 3),
    );
    const meterOf = (meters: typeof running.meters, meterId: string) =>
      meters.find((meter) => meter.meterId === meterId);
    // 1,002 calls since 1 March (the one at 1 April 00:00 included: the period is not over yet) less 100 credited.
    expect(meterOf(running.meters, calls.id)).toMatchObject({
      consumedUnits: 1002,
      creditedUnits: 100,
      amount: 300,
    });
    expect(meterOf(running.meters, images.id)).toMatchObject({
      consumedUnits: 3,
      creditedUnits: 0,
      amount: 8,
    });
    const state = await polar.customers.getState({ id: customer.id });
    expect(state.activeSubscriptions[0]!.meters).toHaveLength(2);

    await clocks.advanceTo(clock.id, '2026-04-01T01:00:00.000Z');
    const renewal = await eventually(
      () => ordersOf(polar, [plan.id]),
      (orders) =>
        orders.some((order) => order.billingReason === 'subscription_cycle' && order.status === 'paid'),
    ).then((orders) => orders.find((order) => order.billingReason === 'subscription_cycle')!);
    // April's fee in advance; March's usage in arrears: 1,001 calls − 100 credited = 901 × 0.35 ¢ =
    // 315.35 ¢, capped at 300 ¢; 3 images × 2.5 ¢ = 7.5 ¢ → 8 ¢ (rounding each image would say 9 ¢ or 6 ¢).
    expect(renewal.items.map((item) => [item.label, item.amount])).toEqual([
      ['Usage plan', 1000],
      ['Calls', 300],
      ['Images', 8],
    ]);
    expect(renewal.netAmount).toBe(1308);
    // The new period counts from its start: the call at 1 April 00:00, nothing else yet.
    const april = await eventually(
      () => polar.subscriptions.get({ id }),
      (subscription) => meterOf(subscription.meters, images.id)?.consumedUnits === 0,
    );
    expect(meterOf(april.meters, calls.id)).toMatchObject({ consumedUnits: 1, creditedUnits: 0, amount: 0 });
  });

  it('credits a meter_credit benefit at the grant and again at each renewal, rolling over what was left', async () => {
    const { polar, token } = await seller();
    const clocks = clockApi(token);
    const calls = await polar.meters.create({
      name: 'Calls',
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'calls' }] },
      aggregation: { func: 'count' },
    });
    const included = await polar.benefits.create({
      type: 'meter_credit',
      description: '100 calls a month',
      properties: { units: 100, rollover: true, meterId: calls.id },
    });
    const plan = await polar.products.create({
      name: 'Calls plan',
      recurringInterval: 'month',
      prices: [
        { amountType: 'fixed', priceAmount: 1000, priceCurrency: 'usd' },
        { amountType: 'metered_unit', meterId: calls.id, priceCurrency: 'usd', unitAmount: '0.35' },
      ],
    });
    await polar.products.updateBenefits({ id: plan.id, productBenefitsUpdate: { benefits: [included.id] } });
    const clock = await clocks.create('2026-03-01T00:00:00.000Z');
    const customer = await polar.customers.create({ email: 'ada@example.test', name: 'Ada' });
    await clocks.attach(clock.id, customer.id);
    await buy(polar, plan.id, customer.id);
    const callsOn = (month: string, count: number) =>
      polar.events.ingest({
        events: Array.from({ length: count }, (_, index) => ({
          name: 'calls',
          customerId: customer.id,
          timestamp: new Date(Date.parse(`2026-${month}-10T12:00:00Z`) + index * 1000),
        })),
      });
    const meterNow = (
      check: (meter: { consumedUnits: number; creditedUnits: number; balance: number }) => boolean,
    ) =>
      eventually(
        async () => (await polar.customerMeters.list({ customerId: customer.id })).result.items[0],
        (meter) => meter !== undefined && check(meter),
        30_000,
      );

    // March: 100 credited at the purchase (in clock time), 60 used.
    await callsOn('03', 60);
    await meterNow((meter) => meter.creditedUnits === 100 && meter.consumedUnits === 60);
    await clocks.advanceTo(clock.id, '2026-04-01T01:00:00.000Z');
    // April starts again: the 40 left roll over, then the month's 100.
    const april = await meterNow((meter) => meter.creditedUnits === 140 && meter.consumedUnits === 0);
    expect(april!.balance).toBe(140);
    const grant = (await polar.benefits.grants({ id: included.id })).result.items[0]!;
    expect(grant.isGranted).toBe(true);

    await callsOn('04', 200);
    await clocks.advanceTo(clock.id, '2026-05-01T01:00:00.000Z');
    const renewals = await eventually(
      () => ordersOf(polar, [plan.id]),
      (orders) => orders.filter((order) => order.billingReason === 'subscription_cycle').length === 2,
    );
    const usage = renewals
      .filter((order) => order.billingReason === 'subscription_cycle')
      .map((order) => order.items.find((item) => item.label === 'Calls')?.amount ?? 0);
    // March: 60 used of 100 credited, nothing billed. April: 200 used, 140 credited: 60 × 0.35 ¢ = 21 ¢.
    expect(usage).toEqual([0, 21]);
    // May: nothing left to roll over, 100 credited.
    const may = await meterNow((meter) => meter.creditedUnits === 100 && meter.consumedUnits === 0);
    expect(may!.balance).toBe(100);
  });

  it('bills the usage a plan change drops at the next renewal, and none after the change', async () => {
    const { polar, token, product } = await seller();
    const clocks = clockApi(token);
    const calls = await polar.meters.create({
      name: 'Calls',
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'calls' }] },
      aggregation: { func: 'count' },
    });
    const metered = await polar.products.create({
      name: 'Pay as you go',
      recurringInterval: 'month',
      prices: [
        { amountType: 'fixed', priceAmount: 1000, priceCurrency: 'usd' },
        { amountType: 'metered_unit', meterId: calls.id, priceCurrency: 'usd', unitAmount: '0.35' },
      ],
    });
    const flat = await product('Flat', 1000);
    const clock = await clocks.create('2026-03-01T00:00:00.000Z');
    const customer = await polar.customers.create({ email: 'ada@example.test', name: 'Ada' });
    await clocks.attach(clock.id, customer.id);
    const { subscriptionId } = await buy(polar, metered.id, customer.id);
    const callsOn = (day: string, count: number) =>
      polar.events.ingest({
        events: Array.from({ length: count }, (_, index) => ({
          name: 'calls',
          customerId: customer.id,
          timestamp: new Date(Date.parse(`2026-03-${day}T12:00:00Z`) + index * 1000),
        })),
      });
    await callsOn('05', 400);
    await clocks.advanceTo(clock.id, '2026-03-15T00:00:00.000Z');
    // The seller's confirmation shows it before the change.
    const preview = (await fetch(
      `${env.stack.baseUrl}/v1/subscriptions/${subscriptionId}/proration-preview`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ product_id: flat.id, proration_behavior: 'prorate' }),
      },
    ).then((response) => response.json())) as { lines: { label: string; amount: number }[] };
    expect(preview.lines).toContainEqual({ label: 'Calls, used before the change to Flat', amount: 140 });
    await polar.subscriptions.update({
      id: subscriptionId!,
      subscriptionUpdate: { productId: flat.id, prorationBehavior: 'prorate' },
    });
    // After the change the plan has no metered price: this usage is not billed.
    await callsOn('20', 100);
    await clocks.advanceTo(clock.id, '2026-04-01T01:00:00.000Z');
    const renewal = await eventually(
      () => ordersOf(polar, [flat.id]),
      (orders) => orders.some((order) => order.billingReason === 'subscription_cycle'),
    ).then((orders) => orders.find((order) => order.billingReason === 'subscription_cycle')!);
    const usageLines = renewal.items.filter((item) => item.label.startsWith('Calls'));
    // 400 calls × 0.35 ¢ = 140 ¢, named after the meter and the change.
    expect(usageLines.map((item) => [item.label, item.amount])).toEqual([
      ['Calls, used before the change to Flat', 140],
    ]);
  });

  it('runs dunning in clock time: a card declining renewals ends the plan unpaid after the last try', async () => {
    const { polar, token, product } = await seller();
    const clocks = clockApi(token);
    const plan = await product('Starter', 900);
    const clock = await clocks.create('2026-03-01T09:00:00.000Z');
    const customer = await polar.customers.create({ email: 'grace@example.test' });
    await clocks.attach(clock.id, customer.id);
    const { subscriptionId } = await buy(polar, plan.id, customer.id, 'pm_card_chargeCustomerFail');

    // The renewal on 1 April fails; tries on +2, +5, +7, +7 days fail too: unpaid on 22 April.
    await clocks.advanceTo(clock.id, '2026-04-10T00:00:00.000Z');
    expect(await polar.subscriptions.get({ id: subscriptionId! })).toMatchObject({ status: 'past_due' });
    // The seller sees each try, why it failed, and when the next one is due (our extension).
    const attempts = async () => {
      const response = await fetch(
        `${env.stack.baseUrl}/v1/subscriptions/${subscriptionId}/payment-attempts`,
        {
          headers: { authorization: `Bearer ${token}` },
        },
      );
      expect(response.status).toBe(200);
      return (await response.json()) as {
        items: {
          attempt: number;
          status: string;
          decline_code: string | null;
          message: string | null;
          created_at: string;
        }[];
        pagination: { total_count: number };
        next_attempt_at: string | null;
      };
    };
    const pastDue = await attempts();
    expect(pastDue.items.map((item) => [item.attempt, item.status, item.created_at])).toEqual([
      [3, 'failed', '2026-04-08T09:00:00.000Z'],
      [2, 'failed', '2026-04-03T09:00:00.000Z'],
      [1, 'failed', '2026-04-01T09:00:00.000Z'],
    ]);
    expect(pastDue.items[0]).toMatchObject({ decline_code: expect.any(String), message: expect.any(String) });
    expect(pastDue.next_attempt_at).toBe('2026-04-15T09:00:00.000Z');
    await clocks.advanceTo(clock.id, '2026-05-15T00:00:00.000Z');
    expect(await polar.subscriptions.get({ id: subscriptionId! })).toMatchObject({
      status: 'unpaid',
      endedAt: new Date('2026-04-22T09:00:00.000Z'),
    });
    const orders = await ordersOf(polar, [plan.id]);
    expect(orders.map((order) => [order.billingReason, order.status])).toEqual([
      ['subscription_create', 'paid'],
      ['subscription_cycle', 'pending'],
    ]);
    const stored = await env.database.db.subscription.findUniqueOrThrow({ where: { id: subscriptionId! } });
    expect(stored.failedAttempts).toBe(5);
    const ended = await attempts();
    expect(ended.pagination.total_count).toBe(5);
    expect(ended.next_attempt_at).toBeNull();
    // Each try is a payment too, in clock time, with the card it charged (docs/payments.md, "Payments").
    const renewal = orders.find((order) => order.billingReason === 'subscription_cycle')!;
    const listed = await fetch(
      `${env.stack.baseUrl}/v1/payments/?order_id=${renewal.id}&sorting=created_at`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    expect(listed.status).toBe(200);
    const payments = (await listed.json()) as {
      items: {
        status: string;
        amount: number;
        created_at: string;
        decline_reason: string | null;
        method_metadata?: unknown;
      }[];
    };
    expect(payments.items.map((payment) => [payment.status, payment.amount, payment.created_at])).toEqual(
      ended.items
        .slice()
        .reverse()
        .map((item) => ['failed', 900, item.created_at]),
    );
    expect(payments.items[0]).toMatchObject({
      decline_reason: expect.any(String),
      method_metadata: { last4: expect.any(String) },
    });
  });

  it('saves the card of a plan whose first period costs nothing, and renews on it', async () => {
    const { polar, token, product } = await seller();
    const clocks = clockApi(token);
    const plan = await product('Team', 2000);
    const firstMonthFree = await polar.discounts.create({
      type: 'percentage',
      duration: 'once',
      basisPoints: 10_000,
      name: 'First month on the house',
    });
    const clock = await clocks.create('2026-02-10T08:00:00.000Z');
    const customer = await polar.customers.create({ email: 'free-month@example.test' });
    await clocks.attach(clock.id, customer.id);
    const checkout = await polar.checkouts.create({
      products: [plan.id],
      customerId: customer.id,
      discountId: firstMonthFree.id,
    });
    expect(checkout).toMatchObject({
      totalAmount: 0,
      isPaymentRequired: false,
      isPaymentSetupRequired: true,
    });

    // Nothing to pay today, but a card to renew on is asked for.
    const client = new Polar({ serverURL: env.stack.baseUrl });
    const details = { customerName: 'Free Month', customerBillingAddress: ADDRESS };
    await expect(
      client.checkouts.clientConfirm({ clientSecret: checkout.clientSecret, checkoutConfirmStripe: details }),
    ).rejects.toMatchObject({ statusCode: 422, body: expect.stringContaining('confirmation_token_id') });
    await client.checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: { ...details, confirmationTokenId: 'pm_card_visa' },
    });
    const done = await eventually(
      () => polar.checkouts.get({ id: checkout.id }),
      (value) => value.status === 'succeeded',
    );
    const stored = await env.database.db.subscription.findUniqueOrThrow({
      where: { id: done.subscriptionId! },
    });
    expect(stored).toMatchObject({
      paymentMethodId: 'pm_card_visa',
      paymentMethod: { brand: 'visa', last4: '4242' },
      amount: 0,
    });
    // The card was set up, not charged.
    const charges = await env.database.db.sandboxPayment.findMany({
      where: { customer: stored.processorCustomerId! },
    });
    expect(charges.map((charge) => [charge.id.slice(0, 5), charge.amount])).toEqual([['seti_', 0]]);

    // The second month is charged in full to that card.
    await clocks.advanceTo(clock.id, '2026-03-11T00:00:00.000Z');
    const orders = await ordersOf(polar, [plan.id]);
    expect(orders.map((order) => [order.billingReason, order.totalAmount, order.status])).toEqual([
      ['subscription_create', 0, 'paid'],
      ['subscription_cycle', 2000, 'paid'],
    ]);
  });

  it('refuses what would make a clock lie: going back, leaping years, customers with a past, changes while advancing', async () => {
    const { polar, token, product, organization } = await seller();
    const clocks = clockApi(token);
    const clock = await clocks.create('2026-01-01T00:00:00.000Z');

    const back = await clocks.call('POST', `${clock.id}/advance`, { frozen_time: '2025-12-31T00:00:00Z' });
    expect(back.status).toBe(422);
    expect(back.body).toEqual({
      detail: [
        expect.objectContaining({
          loc: ['body', 'frozen_time'],
          msg: 'Advance the clock to a time after its current time, 2026-01-01T00:00:00.000Z.',
        }),
      ],
    });
    const leap = await clocks.call('POST', `${clock.id}/advance`, { frozen_time: '2028-01-02T00:00:00Z' });
    expect(leap.status).toBe(422);
    expect(JSON.stringify(leap.body)).toContain('at most two years at a time');
    const noOffset = await clocks.call('POST', `${clock.id}/advance`, { frozen_time: '2026-02-01T00:00:00' });
    expect(noOffset.status).toBe(422);
    expect((await clocks.get(clock.id)).frozen_time).toBe('2026-01-01T00:00:00.000Z');

    // A keyed advance whose answer was lost (its process died after the commit, so no answer was
    // stored for its key): the retry is that advance again, not a refusal to stand still.
    const keyed = async (key: string, frozenTime: string) => {
      const response = await fetch(`${env.stack.baseUrl}/v1/test-clocks/${clock.id}/advance`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'idempotency-key': key,
        },
        body: JSON.stringify({ frozen_time: frozenTime }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    expect((await keyed('advance-once', '2026-01-02T00:00:00Z')).status).toBe(202);
    await env.database.db.idempotencyKey.deleteMany({ where: { key: 'advance-once' } });
    const retried = await keyed('advance-once', '2026-01-02T00:00:00Z');
    expect(retried).toMatchObject({ status: 202, body: { frozen_time: '2026-01-02T00:00:00.000Z' } });
    // Another key to the same time is a new request, and refused as one.
    expect((await keyed('advance-again', '2026-01-02T00:00:00Z')).status).toBe(422);

    // A customer whose plans follow real time stays there.
    const plan = await product('Solo', 500);
    const regular = await polar.customers.create({ email: 'regular@example.test' });
    await buy(polar, plan.id, regular.id);
    const withPast = await clocks.call('POST', `${clock.id}/customers`, { customer_id: regular.id });
    expect(withPast.status).toBe(422);
    expect(JSON.stringify(withPast.body)).toContain('already has subscriptions');

    // Another organization's customer and clock are not found.
    const other = await seller();
    const stranger = await other.polar.customers.create({ email: 'stranger@example.test' });
    const foreignCustomer = await clocks.call('POST', `${clock.id}/customers`, { customer_id: stranger.id });
    expect(foreignCustomer.status).toBe(422);
    expect((await clockApi(other.token).call('GET', clock.id)).status).toBe(404);
    expect(
      (
        await clockApi(other.token).call('POST', `${clock.id}/advance`, {
          frozen_time: '2026-02-01T00:00:00Z',
        })
      ).status,
    ).toBe(404);

    // One clock per customer.
    const onClock = await polar.customers.create({ email: 'clocked@example.test' });
    await clocks.attach(clock.id, onClock.id);
    const second = await clocks.create('2026-01-01T00:00:00.000Z', 'Second');
    const twice = await clocks.call('POST', `${second.id}/customers`, { customer_id: onClock.id });
    expect(twice.status).toBe(422);
    expect(JSON.stringify(twice.body)).toContain('on another test clock');

    // While a subscription is behind its clock, changes to it wait for the clock.
    const { subscriptionId } = await buy(polar, plan.id, onClock.id);
    // Set behind only once its workflow waits for the clock: a workflow still starting would read
    // the row behind, live through the clock's time and report it caught up again.
    await eventually(
      () =>
        env.stack.temporal.workflow
          .getHandle(subscriptionWorkflowId(subscriptionId!))
          .query<string>('waitingFor')
          .catch(() => ''),
      (waitingFor) => waitingFor.startsWith('the test clock to be advanced'),
    );
    await env.database.db.subscription.update({
      where: { id: subscriptionId! },
      data: { clockCaughtUpTo: new Date('2025-12-01T00:00:00Z') },
    });
    expect((await clocks.get(clock.id)).status).toBe('advancing');
    const busy = await fetch(`${env.stack.baseUrl}/v1/subscriptions/${subscriptionId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ cancel_at_period_end: true }),
    });
    expect(busy.status).toBe(409);
    const advancing = await clocks.call('POST', `${clock.id}/advance`, {
      frozen_time: '2026-02-01T00:00:00Z',
    });
    expect(advancing.status).toBe(409);
    await env.database.db.subscription.update({
      where: { id: subscriptionId! },
      data: { clockCaughtUpTo: new Date('2026-01-02T00:00:00Z') },
    });

    // A clock whose customers have running plans is not deleted; once they ended, it is.
    expect((await clocks.call('DELETE', clock.id)).status).toBe(409);
    await polar.subscriptions.revoke({ id: subscriptionId! });
    expect((await clocks.call('DELETE', clock.id)).status).toBe(204);
    expect((await clocks.call('GET', clock.id)).status).toBe(404);
    const detached = await env.database.db.customer.findUniqueOrThrow({ where: { id: onClock.id } });
    expect(detached.testClockId).toBeNull();

    const listed = await clocks.call('GET', `?organization_id=${organization.id}`);
    expect(listed.body).toMatchObject({ items: [expect.objectContaining({ id: second.id })] });
  });

  it('exists only in sandbox mode: a live server refuses every call', async () => {
    const organization = await createOrganization(env.database.db);
    const caller: Caller = {
      kind: 'organization_access_token',
      tokenId: '00000000-0000-4000-8000-000000000001',
      organizationId: organization.id,
      createdById: null,
      scopes: [],
    };
    const live = { db: env.database.db, sandbox: false, workflows: env.stack.workflows.subscriptions };
    const refusal = await listTestClocks(live, caller, { page: 1, limit: 10 }).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ errorName: 'NotPermitted', status: 403 });
    expect((refusal as AppError).message).toContain('Test clocks exist only in sandbox mode');
    // The same server in sandbox mode answers.
    const sandbox = { ...live, sandbox: true };
    expect(await listTestClocks(sandbox, caller, { page: 1, limit: 10 })).toMatchObject({ items: [] });
  });
});
