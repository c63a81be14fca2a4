import { afterEach, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { validateEvent } from '@polar-sh/sdk/webhooks';
import { addCalendarMonths, subscriptionWorkflowId } from '../../domain/subscriptions/rules.js';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { eventually } from '../../test/eventually.js';
import { useTestStack } from '../../test/stack.js';
import { startWebhookReceiver } from '../../test/webhook-receiver.js';

const WEBHOOK_SECRET = 'tollgate_whs_subscription-flow-secret';
const DAY_MS = 24 * 60 * 60 * 1000;
const ADDRESS = { country: 'DE', city: 'Berlin', postalCode: '10117', line1: 'Unter den Linden 1' };

describe('buying a plan: recurring checkout → subscription + first order (sandbox, through @polar-sh/sdk)', () => {
  const env = useTestStack();
  const receivers: Awaited<ReturnType<typeof startWebhookReceiver>>[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((receiver) => receiver.stop()));
  });

  async function seller(options: { allowMultipleSubscriptions?: boolean } = {}) {
    const organization = await createOrganization(env.database.db);
    if (options.allowMultipleSubscriptions !== undefined) {
      await env.database.db.organization.update({
        where: { id: organization.id },
        data: { allowMultipleSubscriptions: options.allowMultipleSubscriptions },
      });
    }
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const plan = await polar.products.create({
      name: 'Pro plan',
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 1500, priceCurrency: 'usd' }],
    });
    return { organization, token, polar, plan };
  }

  const buyer = () => new Polar({ serverURL: env.stack.baseUrl });

  /** A raw PATCH of one subscription, for the answers the SDK does not type (400, 410, 501). */
  const patchOf = (token: string, id: string) => (body: unknown) =>
    fetch(`${env.stack.baseUrl}/v1/subscriptions/${id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  async function buy(
    polar: Polar,
    productId: string,
    email: string,
    extra: { discountId?: string; metadata?: Record<string, string> } = {},
  ) {
    const checkout = await polar.checkouts.create({ products: [productId], ...extra });
    await buyer().checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerEmail: email,
        customerName: 'Grace Hopper',
        customerBillingAddress: ADDRESS,
        confirmationTokenId: 'pm_card_visa',
      },
    });
    return eventually(
      () => polar.checkouts.get({ id: checkout.id }),
      (value) => value.status === 'succeeded',
    );
  }

  it('starts an active subscription with its first order, the saved card and the events, in order', async () => {
    const { polar, plan, token } = await seller();
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    await polar.webhooks.createWebhookEndpoint({
      url: receiver.url,
      format: 'raw',
      secret: WEBHOOK_SECRET,
      events: [
        'subscription.created',
        'subscription.active',
        'order.created',
        'order.paid',
        'customer.state_changed',
      ],
    });
    const discount = await polar.discounts.create({
      type: 'percentage',
      duration: 'repeating',
      durationInMonths: 3,
      basisPoints: 2000,
      name: 'Three months at 20% off',
    });

    const before = Date.now();
    const checkout = await buy(polar, plan.id, 'grace@example.test', {
      discountId: discount.id,
      metadata: { source: 'launch' },
    });
    expect(checkout.subscriptionId).not.toBeNull();

    const { result } = await polar.subscriptions.list({});
    expect(result.items).toHaveLength(1);
    const subscription = result.items[0]!;
    expect(subscription).toMatchObject({
      id: checkout.subscriptionId,
      status: 'active',
      amount: 1200,
      currency: 'usd',
      recurringInterval: 'month',
      cancelAtPeriodEnd: false,
      canceledAt: null,
      endsAt: null,
      endedAt: null,
      customerId: checkout.customerId,
      productId: plan.id,
      discountId: discount.id,
      checkoutId: checkout.id,
      metadata: { source: 'launch' },
    });
    expect(subscription.prices.map((price) => price.id)).toEqual([plan.prices[0]!.id]);
    expect(subscription.customer.email).toBe('grace@example.test');
    expect(subscription.discount?.id).toBe(discount.id);
    const startedAt = subscription.startedAt!;
    expect(startedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(subscription.currentPeriodStart).toEqual(startedAt);
    expect(subscription.currentPeriodEnd).toEqual(addCalendarMonths(startedAt, 1));
    expect(await polar.subscriptions.get({ id: subscription.id })).toEqual(subscription);

    // Its workflow runs from the checkout on, waiting for the end of the first period.
    const workflow = env.stack.temporal.workflow.getHandle(subscriptionWorkflowId(subscription.id));
    expect((await workflow.describe()).status.name).toBe('RUNNING');

    // Renewals will be charged to the card the buyer paid with.
    const stored = await env.database.db.subscription.findUniqueOrThrow({ where: { id: subscription.id } });
    expect(stored).toMatchObject({
      paymentProcessor: 'sandbox',
      paymentMethodId: 'pm_card_visa',
      paymentMethod: { brand: 'visa', last4: '4242' },
      processorCustomerId: expect.stringMatching(/^cus_sbx_/),
      periodBilled: 1200,
      periodUsed: 0,
    });

    const orders = (await polar.orders.list({ productId: plan.id })).result.items;
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({
      billingReason: 'subscription_create',
      subscriptionId: subscription.id,
      checkoutId: checkout.id,
      subtotalAmount: 1500,
      discountAmount: 300,
      netAmount: 1200,
      status: 'paid',
      subscription: { id: subscription.id, status: 'active', amount: 1200 },
    });
    // `subscription_id` filters orders (Polar's API has it; SDK 0.33.2 does not send it yet).
    const ordersOf = async (subscriptionId: string) => {
      const response = await fetch(`${env.stack.baseUrl}/v1/orders/?subscription_id=${subscriptionId}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { items: { id: string }[] }).items.map((item) => item.id);
    };
    expect(await ordersOf(subscription.id)).toEqual([orders[0]!.id]);
    expect(await ordersOf('00000000-0000-4000-8000-000000000000')).toEqual([]);

    const state = await polar.customers.getState({ id: checkout.customerId! });
    expect(state.activeSubscriptions).toEqual([
      expect.objectContaining({ id: subscription.id, status: 'active', amount: 1200, productId: plan.id }),
    ]);

    const wanted = ['subscription.created', 'subscription.active', 'order.created', 'order.paid'];
    const events = await eventually(
      async () =>
        receiver.received.map((request) => validateEvent(request.body, request.headers, WEBHOOK_SECRET)),
      (list) => wanted.every((type) => list.some((event) => event.type === type)) && list.length >= 5,
    );
    // Each resource's events arrive in the order they happened (the subscription's, the order's).
    const types = events.map((event) => event.type);
    const of = (prefix: string) => types.filter((type) => type?.startsWith(prefix));
    expect(of('subscription.')).toEqual(['subscription.created', 'subscription.active']);
    expect(of('order.')).toEqual(['order.created', 'order.paid']);
    const created = events.find((event) => event.type === 'subscription.created');
    expect(created?.data).toMatchObject({ id: subscription.id, status: 'active' });
    const states = events.filter((event) => event.type === 'customer.state_changed');
    expect(states.at(-1)?.data).toMatchObject({
      activeSubscriptions: [expect.objectContaining({ id: subscription.id })],
    });
  });

  it('lists with Polar filters: active, customer, product, discount, metadata, sorting', async () => {
    const { polar, plan } = await seller({ allowMultipleSubscriptions: true });
    const yearly = await polar.products.create({
      name: 'Team plan',
      recurringInterval: 'year',
      prices: [{ amountType: 'fixed', priceAmount: 20_000, priceCurrency: 'usd' }],
    });
    const a = await buy(polar, plan.id, 'a@example.test', { metadata: { tier: 'small' } });
    const b = await buy(polar, yearly.id, 'b@example.test', { metadata: { tier: 'large' } });
    await env.database.db.subscription.update({
      where: { id: b.subscriptionId! },
      data: { status: 'canceled', endedAt: new Date() },
    });
    const ids = async (query: Parameters<Polar['subscriptions']['list']>[0]) =>
      (await polar.subscriptions.list(query)).result.items.map((item) => item.id);

    expect(await ids({ active: true })).toEqual([a.subscriptionId]);
    expect(await ids({ active: false })).toEqual([b.subscriptionId]);
    expect(await ids({ productId: yearly.id })).toEqual([b.subscriptionId]);
    expect(await ids({ customerId: a.customerId! })).toEqual([a.subscriptionId]);
    expect(await ids({ metadata: { tier: 'large' } })).toEqual([b.subscriptionId]);
    expect(await ids({ sorting: ['amount'] })).toEqual([a.subscriptionId, b.subscriptionId]);
    expect(await ids({ sorting: ['-amount'] })).toEqual([b.subscriptionId, a.subscriptionId]);
    const ended = await polar.subscriptions.get({ id: b.subscriptionId! });
    // An ended plan's period ends when it ended (@polar-sh/sdk@0.48.1 requires a date).
    expect(ended).toMatchObject({ status: 'canceled', currentPeriodEnd: ended.endedAt });
  });

  it('exports the subscriptions as CSV in Polar columns, amounts in the currency unit', async () => {
    const { polar, plan, organization } = await seller();
    await buy(polar, plan.id, 'csv@example.test');
    const token = await createAccessToken(env.database.db, organization.id);
    const response = await fetch(`${env.stack.baseUrl}/v1/subscriptions/export`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = (await response.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe('Email,Created At,Active,Product,Price,Currency,Interval');
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^csv@example\.test,\d{4}-\d\d-\d\dT[\d:.]+Z,true,Pro plan,15\.00,USD,month$/),
    ]);
  });

  it('refuses a second plan to a customer who already pays for one when the seller allows one only', async () => {
    const { polar, plan } = await seller({ allowMultipleSubscriptions: false });
    await buy(polar, plan.id, 'once@example.test');
    const second = await polar.checkouts.create({ products: [plan.id] });
    await expect(
      buyer().checkouts.clientConfirm({
        clientSecret: second.clientSecret,
        checkoutConfirmStripe: {
          customerEmail: 'ONCE@example.test',
          customerBillingAddress: ADDRESS,
          confirmationTokenId: 'pm_card_visa',
        },
      }),
    ).rejects.toMatchObject({
      statusCode: 403,
      body: expect.stringContaining('You already have an active subscription.'),
    });
    expect((await polar.checkouts.get({ id: second.id })).status).toBe('open');
    expect((await polar.subscriptions.list({})).result.items).toHaveLength(1);

    // Another buyer may still subscribe.
    await buy(polar, plan.id, 'other@example.test');
    expect((await polar.subscriptions.list({})).result.items).toHaveLength(2);
  });

  it('lets only one of two plan checkouts of one buyer confirmed at the same instant through', async () => {
    const { polar, plan } = await seller({ allowMultipleSubscriptions: false });
    const checkouts = await Promise.all([
      polar.checkouts.create({ products: [plan.id] }),
      polar.checkouts.create({ products: [plan.id] }),
    ]);
    const answers = await Promise.allSettled(
      checkouts.map((checkout, index) =>
        buyer().checkouts.clientConfirm({
          clientSecret: checkout.clientSecret,
          checkoutConfirmStripe: {
            customerEmail: index === 0 ? 'race@example.test' : 'Race@Example.test',
            customerBillingAddress: ADDRESS,
            confirmationTokenId: 'pm_card_visa',
          },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = answers.find((answer) => answer.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ statusCode: 403 });
    await eventually(
      () => polar.subscriptions.list({}),
      (page) => page.result.items.length === 1,
    );
    // Nothing else is on its way: the refused checkout stays open, unpaid.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await polar.subscriptions.list({})).result.items).toHaveLength(1);
    const statuses = await Promise.all(checkouts.map(({ id }) => polar.checkouts.get({ id })));
    expect(statuses.map((checkout) => checkout.status).sort()).toEqual(['open', 'succeeded']);
  });

  it('lets a customer hold several plans when the seller allows it', async () => {
    const { polar, plan } = await seller({ allowMultipleSubscriptions: true });
    await buy(polar, plan.id, 'twice@example.test');
    await buy(polar, plan.id, 'twice@example.test');
    const { result } = await polar.subscriptions.list({});
    expect(result.items).toHaveLength(2);
    expect(new Set(result.items.map((item) => item.customerId)).size).toBe(1);
  });

  it('cancels at period end, resumes and revokes with Polar rules, status codes and events', async () => {
    const { polar, plan, token } = await seller();
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    await polar.webhooks.createWebhookEndpoint({
      url: receiver.url,
      format: 'raw',
      secret: WEBHOOK_SECRET,
      events: [
        'subscription.updated',
        'subscription.canceled',
        'subscription.uncanceled',
        'subscription.revoked',
      ],
    });
    const { subscriptionId } = await buy(polar, plan.id, 'changes@example.test');
    const id = subscriptionId!;
    const patch = patchOf(token, id);

    const canceled = await polar.subscriptions.update({
      id,
      subscriptionUpdate: {
        cancelAtPeriodEnd: true,
        customerCancellationReason: 'too_expensive',
        customerCancellationComment: 'Over budget this quarter',
      },
    });
    expect(canceled).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: true,
      endsAt: canceled.currentPeriodEnd,
      customerCancellationReason: 'too_expensive',
      customerCancellationComment: 'Over budget this quarter',
    });
    expect(canceled.canceledAt).not.toBeNull();
    await expect(
      polar.subscriptions.update({ id, subscriptionUpdate: { cancelAtPeriodEnd: true } }),
    ).rejects.toMatchObject({ statusCode: 403, error: 'AlreadyCanceledSubscription' });

    const resumed = await polar.subscriptions.update({
      id,
      subscriptionUpdate: { cancelAtPeriodEnd: false },
    });
    expect(resumed).toMatchObject({
      cancelAtPeriodEnd: false,
      canceledAt: null,
      endsAt: null,
      customerCancellationReason: null,
    });
    const notCancelling = await patch({ cancel_at_period_end: false });
    expect(notCancelling.status).toBe(400);

    // A discount from the next period on: one redemption taken, the current amount unchanged.
    const loyalty = await polar.discounts.create({
      type: 'percentage',
      duration: 'once',
      basisPoints: 5000,
      name: 'Stay with us',
      maxRedemptions: 1,
    });
    const discounted = await polar.subscriptions.update({
      id,
      subscriptionUpdate: { discountId: loyalty.id },
    });
    expect(discounted).toMatchObject({ discountId: loyalty.id, amount: 1500 });
    expect((await polar.discounts.get({ id: loyalty.id })).redemptionsCount).toBe(1);
    const again = await patch({ discount_id: loyalty.id });
    expect(again.status).toBe(422);
    expect(JSON.stringify(await again.json())).toContain('This discount is already applied.');
    expect(
      (await polar.subscriptions.update({ id, subscriptionUpdate: { discountId: null } })).discountId,
    ).toBeNull();
    const exhausted = await patch({ discount_id: loyalty.id });
    expect(exhausted.status).toBe(422);
    expect(JSON.stringify(await exhausted.json())).toContain('discount_id');
    expect((await patch({})).status).toBe(422);

    const revoked = await polar.subscriptions.revoke({ id });
    expect(revoked).toMatchObject({ status: 'canceled', currentPeriodEnd: revoked.endedAt });
    expect(revoked.endedAt).not.toBeNull();
    await expect(polar.subscriptions.revoke({ id })).rejects.toMatchObject({
      statusCode: 403,
      error: 'AlreadyCanceledSubscription',
    });
    expect((await patch({ cancel_at_period_end: false })).status).toBe(410);
    expect((await patch({ revoke: true })).status).toBe(403);

    // The workflow read the revoked row and ended.
    const workflow = env.stack.temporal.workflow.getHandle(subscriptionWorkflowId(id));
    expect(await workflow.result()).toBe('ended');

    const wanted = [
      'subscription.updated',
      'subscription.canceled',
      'subscription.updated',
      'subscription.uncanceled',
      // The discount set, then removed.
      'subscription.updated',
      'subscription.updated',
      // Revoking sets canceled_at again: Polar reports it as canceled, then revoked.
      'subscription.updated',
      'subscription.canceled',
      'subscription.revoked',
    ];
    const events = await eventually(
      async () =>
        receiver.received.map((request) => validateEvent(request.body, request.headers, WEBHOOK_SECRET)),
      (list) => list.length >= wanted.length,
    );
    expect(events.map((event) => event.type)).toEqual(wanted);
  });

  it('changes the plan: invoice bills the difference now, prorate carries it, an interval change restarts the period', async () => {
    const { polar, plan, token } = await seller();
    const premium = await polar.products.create({
      name: 'Premium plan',
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 4500, priceCurrency: 'usd' }],
    });
    const yearly = await polar.products.create({
      name: 'Pro yearly',
      recurringInterval: 'year',
      prices: [{ amountType: 'fixed', priceAmount: 15_000, priceCurrency: 'usd' }],
    });
    const { subscriptionId } = await buy(polar, plan.id, 'upgrade@example.test');
    const id = subscriptionId!;
    const db = env.database.db;
    // Half of the first period used: the period started 15 days ago and ends in 15.
    const now = Date.now();
    await db.subscription.update({
      where: { id },
      data: {
        billingAnchor: new Date(now - 15 * DAY_MS),
        currentPeriodStart: new Date(now - 15 * DAY_MS),
        currentPeriodEnd: new Date(now + 15 * DAY_MS),
        periodLedgerSince: new Date(now - 15 * DAY_MS),
      },
    });

    // The preview shows what the change would bill, and changes nothing.
    const previewResponse = await fetch(`${env.stack.baseUrl}/v1/subscriptions/${id}/proration-preview`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ product_id: premium.id, proration_behavior: 'invoice' }),
    });
    expect(previewResponse.status).toBe(200);
    const preview = (await previewResponse.json()) as {
      lines: { label: string; amount: number }[];
      amount_due_now: number;
      new_amount: number;
    };
    expect(preview.lines.map((line) => line.label)).toEqual([
      'Remaining time on Premium plan',
      'Unused time on Pro plan',
    ]);
    expect(preview.amount_due_now).toBe(preview.lines[0]!.amount + preview.lines[1]!.amount);
    expect(preview.new_amount).toBe(4500);
    expect(Math.abs(preview.amount_due_now - 1500)).toBeLessThanOrEqual(2);
    expect((await polar.subscriptions.get({ id })).productId).toBe(plan.id);

    const upgraded = await polar.subscriptions.update({
      id,
      subscriptionUpdate: { productId: premium.id, prorationBehavior: 'invoice' },
    });
    expect(upgraded).toMatchObject({ productId: premium.id, amount: 4500, status: 'active' });
    const update = await eventually(
      async () =>
        (
          await db.order.findMany({
            where: { subscriptionId: id, billingReason: 'subscription_update' },
            include: { items: true },
          })
        )[0],
      (order) => order?.status === 'paid',
    );
    // −7.50 unused of the old plan, +22.50 for the rest of the period on the new one: 15.00 now.
    const [debit, credit] = update!.items.map((item) => item.amount);
    expect(debit).toBeGreaterThanOrEqual(2249);
    expect(debit).toBeLessThanOrEqual(2250);
    expect(credit).toBeGreaterThanOrEqual(-750);
    expect(credit).toBeLessThanOrEqual(-749);
    expect(update!.totalAmount).toBe(debit! + credit!);
    expect(
      await db.sandboxPayment.count({
        where: { idempotencyKey: { startsWith: `subscription:${id}:change:` } },
      }),
    ).toBe(1);

    // Back down with prorate: the credit of the unused premium time waits for the next renewal,
    // as a line, and the ledger caps it at what was paid for and not used.
    await polar.subscriptions.update({
      id,
      subscriptionUpdate: { productId: plan.id, prorationBehavior: 'prorate' },
    });
    await polar.subscriptions.update({
      id,
      subscriptionUpdate: { productId: premium.id, prorationBehavior: 'prorate' },
    });
    await polar.subscriptions.update({
      id,
      subscriptionUpdate: { productId: plan.id, prorationBehavior: 'prorate' },
    });
    const pending = await db.subscriptionPendingItem.findMany({
      where: { subscriptionId: id, orderId: null },
    });
    const carried = pending.reduce((sum, item) => sum + item.amount, 0);
    // Switching back and forth gains nothing: what is carried is the premium paid and not used
    // (22.50) less the plan's rest (7.50), within rounding.
    expect(carried).toBeGreaterThanOrEqual(-1501);
    expect(carried).toBeLessThanOrEqual(-1499);
    expect(
      await db.order.count({ where: { subscriptionId: id, billingReason: 'subscription_update' } }),
    ).toBe(1);

    // Monthly to yearly: the period restarts now and the year is billed at once, less the credit.
    const moved = await polar.subscriptions.update({ id, subscriptionUpdate: { productId: yearly.id } });
    expect(moved).toMatchObject({ recurringInterval: 'year', amount: 15_000 });
    expect(moved.currentPeriodEnd).toEqual(addCalendarMonths(moved.currentPeriodStart, 12));
    expect(Math.abs(moved.currentPeriodStart.getTime() - Date.now())).toBeLessThan(60_000);
    const yearOrder = await eventually(
      async () =>
        (
          await db.order.findMany({
            where: { subscriptionId: id, billingReason: 'subscription_update' },
            orderBy: { createdAt: 'asc' },
          })
        )[1],
      (order) => order?.status === 'paid',
    );
    expect(yearOrder!.totalAmount).toBeLessThan(15_000);
    expect(yearOrder!.totalAmount).toBeGreaterThan(15_000 - 800);
  });

  it('refuses plan changes Polar refuses, saying why next to product_id', async () => {
    const { polar, plan, token } = await seller();
    const { subscriptionId } = await buy(polar, plan.id, 'refused@example.test');
    const id = subscriptionId!;
    const oneTime = await polar.products.create({
      name: 'Sticker',
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 300, priceCurrency: 'usd' }],
    });
    const chooseYourPrice = await polar.products.create({
      name: 'Supporter',
      recurringInterval: 'month',
      prices: [{ amountType: 'custom', priceCurrency: 'usd', minimumAmount: 500, presetAmount: 1000 }],
    });
    const retired = await polar.products.create({
      name: 'Old plan',
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 900, priceCurrency: 'usd' }],
    });
    await polar.products.update({ id: retired.id, productUpdate: { isArchived: true } });
    const patch = patchOf(token, id);
    const detailOf = async (response: Response) => {
      expect(response.status).toBe(422);
      const body = (await response.json()) as { detail: { loc: string[]; msg: string }[] };
      expect(body.detail[0]?.loc).toEqual(['body', 'product_id']);
      return body.detail[0]!.msg;
    };
    expect(await detailOf(await patch({ product_id: plan.id }))).toBe(
      'The subscription is already on this product.',
    );
    expect(await detailOf(await patch({ product_id: oneTime.id }))).toMatch(/sold once/);
    expect(await detailOf(await patch({ product_id: chooseYourPrice.id }))).toMatch(/pay-what-you-want/);
    expect(await detailOf(await patch({ product_id: retired.id }))).toBe('Product not found.');
    expect(await detailOf(await patch({ product_id: '00000000-0000-4000-8000-000000000000' }))).toBe(
      'Product not found.',
    );
    await polar.subscriptions.update({ id, subscriptionUpdate: { cancelAtPeriodEnd: true } });
    const cancelling = await patch({ product_id: chooseYourPrice.id });
    expect(cancelling.status).toBe(403);
    expect(await env.database.db.subscription.findUniqueOrThrow({ where: { id } })).toMatchObject({
      productId: plan.id,
    });
  });
});
