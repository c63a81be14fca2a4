import { describe, expect, it } from '@jest/globals';
import { Polar } from 'polar-sdk-0481';
import { buyInSandbox, createAccessToken, createOrganization } from '../../test/factories.js';
import { eventually } from '../../test/eventually.js';
import { useTestStack } from '../../test/stack.js';

const ADDRESS = { country: 'DE', city: 'Berlin', postalCode: '10117', line1: 'Unter den Linden 1' } as const;

describe('every-N intervals through @polar-sh/sdk@0.48.1 on a test clock', () => {
  const env = useTestStack();

  async function seller() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    return { token, polar: new Polar({ accessToken: token, serverURL: env.stack.baseUrl }) };
  }

  /** The clocks are our extension: the SDK has no calls for them. */
  function clockApi(token: string) {
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${env.stack.baseUrl}/v1/test-clocks/${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      expect(response.status).toBeLessThan(300);
      const text = await response.text();
      return (text ? JSON.parse(text) : null) as { id: string; status: string };
    };
    return {
      create: (frozenTime: string) => call('POST', '', { name: 'Quarters', frozen_time: frozenTime }),
      attach: (id: string, customerId: string) =>
        call('POST', `${id}/customers`, { customer_id: customerId }),
      async advanceTo(id: string, frozenTime: string) {
        await call('POST', `${id}/advance`, { frozen_time: frozenTime });
        return eventually(
          () => call('GET', id),
          (clock) => clock.status === 'ready',
          60_000,
        );
      },
    };
  }

  it('creates an every-3-months product and renews it every 3 months from the anchor as the clock advances', async () => {
    const { token, polar } = await seller();
    const product = await polar.products.create({
      name: 'Quarterly',
      recurringInterval: 'month',
      recurringIntervalCount: 3,
      prices: [{ amountType: 'fixed', priceAmount: 6000, priceCurrency: 'usd' }],
    });
    expect(product).toMatchObject({ recurringInterval: 'month', recurringIntervalCount: 3 });
    // Once set, the count cannot change.
    await expect(
      polar.products.update({ id: product.id, productUpdate: { recurringIntervalCount: 1 } }),
    ).rejects.toMatchObject({ statusCode: 422 });

    const clocks = clockApi(token);
    const clock = await clocks.create('2026-01-31T09:00:00.000Z');
    const customer = await polar.customers.create({ email: 'grace@example.test' });
    await clocks.attach(clock.id, customer.id);
    const checkout = await polar.checkouts.create({ products: [product.id], customerId: customer.id });
    await new Polar({ serverURL: env.stack.baseUrl }).checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerName: 'Grace Hopper',
        customerBillingAddress: ADDRESS,
        confirmationTokenId: 'pm_card_visa',
      },
    });
    const paid = await eventually(
      () => polar.checkouts.get({ id: checkout.id }),
      (value) => value.status === 'succeeded',
    );
    const subscriptionId = paid.subscriptionId!;
    const bought = await polar.subscriptions.get({ id: subscriptionId });
    expect(bought).toMatchObject({ recurringInterval: 'month', recurringIntervalCount: 3 });
    expect(bought.currentPeriodEnd.toISOString()).toBe('2026-04-30T09:00:00.000Z');

    // A year and a bit: renewals on 30 April, 31 July, 31 October, 31 January.
    await clocks.advanceTo(clock.id, '2027-02-15T00:00:00.000Z');
    const renewed = await polar.subscriptions.get({ id: subscriptionId });
    expect(renewed.currentPeriodStart.toISOString()).toBe('2027-01-31T09:00:00.000Z');
    expect(renewed.currentPeriodEnd.toISOString()).toBe('2027-04-30T09:00:00.000Z');
    const orders = (await polar.orders.list({ productId: product.id, sorting: ['created_at'] })).result.items;
    expect(orders.map((order) => [order.billingReason, order.totalAmount])).toEqual([
      ['subscription_create', 6000],
      ['subscription_cycle', 6000],
      ['subscription_cycle', 6000],
      ['subscription_cycle', 6000],
      ['subscription_cycle', 6000],
    ]);
  });

  it('refuses a count on a one-time product and a count of 0', async () => {
    const { polar } = await seller();
    const prices = [{ amountType: 'fixed' as const, priceAmount: 500, priceCurrency: 'usd' as const }];
    await expect(
      polar.products.create({
        name: 'Quarterly',
        recurringInterval: 'month',
        recurringIntervalCount: 0,
        prices,
      }),
    ).rejects.toMatchObject({ statusCode: 422 });
    const response = await fetch(`${env.stack.baseUrl}/v1/products/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${(await seller()).token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Ebook',
        recurring_interval: null,
        recurring_interval_count: 2,
        prices: [{ amount_type: 'fixed', price_amount: 500, price_currency: 'usd' }],
      }),
    });
    expect(response.status).toBe(422);
  });
  it('counts an every-3-months and an every-2-years plan in MRR at a twelfth of what they bill in a year', async () => {
    const { token, polar } = await seller();
    const plan = (
      name: string,
      recurringInterval: 'month' | 'year',
      recurringIntervalCount: number,
      amount: number,
    ) =>
      polar.products.create({
        name,
        recurringInterval,
        recurringIntervalCount,
        prices: [{ amountType: 'fixed', priceAmount: amount, priceCurrency: 'usd' }],
      });
    const quarterly = await plan('Quarterly', 'month', 3, 6000);
    const biennial = await plan('Biennial', 'year', 2, 24_000);
    for (const [product, email] of [
      [quarterly, 'quarter@example.test'],
      [biennial, 'biennial@example.test'],
    ] as const) {
      const customer = await polar.customers.create({ email });
      await buyInSandbox(polar as never, env.stack.baseUrl, product.id, customer.id);
    }
    const today = new Date().toISOString().slice(0, 10);
    const response = await fetch(
      `${env.stack.baseUrl}/v1/metrics/?start_date=${today}&end_date=${today}&interval=day&timezone=UTC`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    const { totals } = (await response.json()) as { totals: Record<string, number> };
    // (4 × 60.00 + 240.00 / 2) / 12 = 30.00: not 60.00 + 20.00, as if each period were a month or a year.
    expect(totals).toMatchObject({ active_subscriptions: 2, monthly_recurring_revenue: 3000 });
  });
});
