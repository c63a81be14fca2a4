import { describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { buyInSandbox, createAccessToken, createOrganization } from '../../test/factories.js';
import { eventually } from '../../test/eventually.js';
import { callV1 } from '../../test/http.js';
import { useTestStack } from '../../test/stack.js';

type Entry = {
  type: string;
  at: string;
  status: string | null;
  amount: number | null;
  reference: string | null;
  order_id: string | null;
  subscription_id: string | null;
  previous_reference: string | null;
  ends_at: string | null;
};

describe("a customer's timeline in the dashboard (our extension)", () => {
  const env = useTestStack();

  async function seller() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    return { token, polar: new Polar({ accessToken: token, serverURL: env.stack.baseUrl }) };
  }

  const timelineOf = async (token: string, customerId: string) => {
    const answer = await callV1(env.stack.baseUrl, token, 'GET', `/customers/${customerId}/timeline`);
    return { status: answer.status, items: (answer.body.items ?? []) as Entry[] };
  };

  it('tells what the customer bought, got back, subscribed to, canceled and was granted, newest first', async () => {
    const { token, polar } = await seller();
    const notes = await polar.benefits.create({
      type: 'custom',
      description: 'Setup call',
      properties: { note: 'Book it at calls.test' },
    });
    const lamp = await polar.products.create({
      name: 'Desk lamp',
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 4900, priceCurrency: 'usd' }],
    });
    await polar.products.updateBenefits({ id: lamp.id, productBenefitsUpdate: { benefits: [notes.id] } });
    const club = await polar.products.create({
      name: 'Lamp club',
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 900, priceCurrency: 'usd' }],
    });
    const customer = await polar.customers.create({ email: 'ada@example.test', name: 'Ada' });

    const bought = await buyInSandbox(polar, env.stack.baseUrl, lamp.id, customer.id);
    const [order] = (await polar.orders.list({ checkoutId: bought.id })).result.items;
    await polar.refunds.create({ orderId: order!.id, reason: 'customer_request', amount: 1000 });
    await buyInSandbox(polar, env.stack.baseUrl, club.id, customer.id);
    const [subscription] = (await polar.subscriptions.list({ customerId: customer.id })).result.items;
    await polar.subscriptions.update({
      id: subscription!.id,
      subscriptionUpdate: { cancelAtPeriodEnd: true },
    });

    const { status, items } = await eventually(
      () => timelineOf(token, customer.id),
      (timeline) =>
        timeline.items.some((entry) => entry.type === 'refund' && entry.status === 'succeeded') &&
        timeline.items.some((entry) => entry.type === 'benefit_granted'),
    );
    expect(status).toBe(200);
    const times = items.map((entry) => Date.parse(entry.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(items.at(-1)).toMatchObject({ type: 'customer_created' });
    expect(items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'order',
          order_id: order!.id,
          reference: 'Desk lamp',
          amount: 4900,
          status: 'partially_refunded',
        }),
        expect.objectContaining({ type: 'refund', order_id: order!.id, amount: 1000, status: 'succeeded' }),
        expect.objectContaining({
          type: 'subscription_started',
          subscription_id: subscription!.id,
          reference: 'Lamp club',
        }),
        expect.objectContaining({ type: 'subscription_canceled', subscription_id: subscription!.id }),
        expect.objectContaining({ type: 'benefit_granted', reference: 'Setup call' }),
      ]),
    );
  });

  it('names what was bought as it was then, after a plan switch and products renamed since', async () => {
    const { token, polar } = await seller();
    const plan = (name: string, interval: 'month' | 'year', amount: number) =>
      polar.products.create({
        name,
        recurringInterval: interval,
        prices: [{ amountType: 'fixed', priceAmount: amount, priceCurrency: 'usd' }],
      });
    const monthly = await plan('Pro plan (monthly)', 'month', 2000);
    const yearly = await plan('Pro plan (yearly)', 'year', 20000);
    const customer = await polar.customers.create({ email: 'switcher@example.test' });
    const bought = await buyInSandbox(polar, env.stack.baseUrl, monthly.id, customer.id);
    const [order] = (await polar.orders.list({ checkoutId: bought.id })).result.items;
    const [subscription] = (await polar.subscriptions.list({ customerId: customer.id })).result.items;
    await polar.subscriptions.update({
      id: subscription!.id,
      subscriptionUpdate: { productId: yearly.id, prorationBehavior: 'prorate' },
    });
    await polar.subscriptions.update({
      id: subscription!.id,
      subscriptionUpdate: { cancelAtPeriodEnd: true },
    });
    await polar.products.update({ id: monthly.id, productUpdate: { name: 'Starter (renamed)' } });
    await polar.products.update({ id: yearly.id, productUpdate: { name: 'Annual (renamed)' } });

    const { items } = await timelineOf(token, customer.id);
    const ofPlan = items.filter((entry) => entry.subscription_id === subscription!.id);
    expect(ofPlan.map((entry) => [entry.type, entry.reference, entry.previous_reference])).toEqual([
      ['subscription_canceled', 'Pro plan (yearly)', null],
      ['subscription_changed', 'Pro plan (yearly)', 'Pro plan (monthly)'],
      ['subscription_started', 'Pro plan (monthly)', null],
    ]);
    // Set to end at the period's end, not ended: the entry says when it ends.
    const canceled = await polar.subscriptions.get({ id: subscription!.id });
    expect(ofPlan[0]!.ends_at).toBe(canceled.endsAt!.toISOString());
    expect(items).toContainEqual(
      expect.objectContaining({ type: 'order', order_id: order!.id, reference: 'Pro plan (monthly)' }),
    );

    // The order itself says what was bought by the name of the day; `product` is the product now.
    const read = await callV1(env.stack.baseUrl, token, 'GET', `/orders/${order!.id}`);
    expect(read.body).toMatchObject({
      description: 'Pro plan (monthly)',
      product: { name: 'Starter (renamed)' },
    });
  });

  it('says "canceled" only for a plan ended at once, without an end date', async () => {
    const { token, polar } = await seller();
    const club = await polar.products.create({
      name: 'Lamp club',
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 900, priceCurrency: 'usd' }],
    });
    const customer = await polar.customers.create({ email: 'revoked@example.test' });
    await buyInSandbox(polar, env.stack.baseUrl, club.id, customer.id);
    const [subscription] = (await polar.subscriptions.list({ customerId: customer.id })).result.items;
    await polar.subscriptions.revoke({ id: subscription!.id });
    const { items } = await eventually(
      () => timelineOf(token, customer.id),
      (timeline) => timeline.items.some((entry) => entry.type === 'subscription_ended'),
    );
    expect(items.find((entry) => entry.type === 'subscription_canceled')).toMatchObject({
      reference: 'Lamp club',
      ends_at: null,
    });
  });

  it('starts with the first purchase for a buyer whose record that purchase made', async () => {
    const { token, polar } = await seller();
    const lamp = await polar.products.create({
      name: 'Desk lamp',
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 4900, priceCurrency: 'usd' }],
    });
    const checkout = await polar.checkouts.create({ products: [lamp.id] });
    await new Polar({ serverURL: env.stack.baseUrl }).checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerEmail: 'new-buyer@example.test',
        customerName: 'New Buyer',
        customerBillingAddress: { country: 'DE' },
        confirmationTokenId: 'pm_card_visa',
      },
    });
    const paid = await eventually(
      () => polar.checkouts.get({ id: checkout.id }),
      (value) => value.status === 'succeeded',
    );
    const { items } = await timelineOf(token, paid.customerId!);
    expect(items.map((entry) => entry.type)).toEqual(['order', 'customer_created']);
    expect(Date.parse(items[1]!.at)).toBeLessThanOrEqual(Date.parse(items[0]!.at));
  });

  it("is another organization's customer: not found; a bad id is a 422 at the id", async () => {
    const { polar } = await seller();
    const customer = await polar.customers.create({ email: 'grace@example.test' });
    const other = await seller();
    expect((await timelineOf(other.token, customer.id)).status).toBe(404);
    const bad = await callV1(env.stack.baseUrl, other.token, 'GET', '/customers/not-an-id/timeline');
    expect(bad.status).toBe(422);
    expect(bad.body.detail?.[0]?.loc).toEqual(['path', 'id']);
  });
});
