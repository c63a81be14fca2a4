import { describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import type { PricePhaseWire } from '../../domain/subscriptions/schemas.js';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { eventually } from '../../test/eventually.js';
import { useTestStack } from '../../test/stack.js';

const ADDRESS = { country: 'DE', city: 'Berlin', postalCode: '10117', line1: 'Unter den Linden 1' };

// `price_schedule` (our extension of Polar's Subscription): what the plan costs period after
// period, said before the renewals happen, and what the renewals then charge.
describe('a subscription’s price schedule (x-tollgate)', () => {
  const env = useTestStack();

  async function seller() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const plan = await polar.products.create({
      name: 'Pro',
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 2000, priceCurrency: 'usd' }],
    });
    const call = async (method: string, path: string, body?: unknown, bearer = token) => {
      const response = await fetch(`${env.stack.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
      return (text ? JSON.parse(text) : null) as Record<string, unknown>;
    };
    return { organization, polar, plan, call };
  }

  /** A customer on a test clock at 31 January 2026 (renewals on the 28th, 31st, 30th …). */
  async function clockCustomer(context: Awaited<ReturnType<typeof seller>>, email: string) {
    const clock = await context.call('POST', '/v1/test-clocks/', {
      name: 'Year one',
      frozen_time: '2026-01-31T10:00:00.000Z',
    });
    const customer = await context.polar.customers.create({ email });
    await context.call('POST', `/v1/test-clocks/${String(clock.id)}/customers`, { customer_id: customer.id });
    const advanceTo = async (frozenTime: string) => {
      await context.call('POST', `/v1/test-clocks/${String(clock.id)}/advance`, { frozen_time: frozenTime });
      await eventually(
        () => context.call('GET', `/v1/test-clocks/${String(clock.id)}`),
        (answer) => answer.status === 'ready',
        60_000,
      );
    };
    return { customer, advanceTo };
  }

  async function buy(polar: Polar, productId: string, customerId: string, discountId: string) {
    const checkout = await polar.checkouts.create({ products: [productId], customerId, discountId });
    const confirmed = await new Polar({ serverURL: env.stack.baseUrl }).checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerName: 'Ada Lovelace',
        customerBillingAddress: ADDRESS,
        confirmationTokenId: 'pm_card_visa',
      },
    });
    const paid = await eventually(
      () => polar.checkouts.get({ id: checkout.id }),
      (value) => value.status === 'succeeded',
    );
    return { subscriptionId: paid.subscriptionId!, customerSessionToken: confirmed.customerSessionToken };
  }

  const scheduleOf = async (context: Awaited<ReturnType<typeof seller>>, id: string) =>
    (await context.call('GET', `/v1/subscriptions/${id}`)).price_schedule as PricePhaseWire[];

  it('says a repeating discount’s months and the full price after them, and the renewals charge exactly that', async () => {
    const context = await seller();
    const { polar, plan } = context;
    const discount = await polar.discounts.create({
      name: 'Three months at 20 % off',
      type: 'percentage',
      basisPoints: 2000,
      duration: 'repeating',
      durationInMonths: 3,
    });
    const { customer, advanceTo } = await clockCustomer(context, 'repeat@example.test');
    const { subscriptionId, customerSessionToken } = await buy(polar, plan.id, customer.id, discount.id);

    const atStart = await scheduleOf(context, subscriptionId);
    expect(atStart).toEqual([
      {
        amount: 1600,
        periods: 3,
        starts_at: '2026-01-31T10:00:00.000Z',
        ends_at: '2026-04-30T10:00:00.000Z',
      },
      { amount: 2000, periods: null, starts_at: '2026-04-30T10:00:00.000Z', ends_at: null },
    ]);
    // The SDK reads the subscription as ever (it leaves our field aside).
    expect(await polar.subscriptions.get({ id: subscriptionId })).toMatchObject({ amount: 1600 });
    // The buyer reads the same schedule in the portal, though not the discount itself.
    const portal = await context.call(
      'GET',
      `/v1/customer-portal/subscriptions/${subscriptionId}`,
      undefined,
      customerSessionToken,
    );
    expect(portal.price_schedule).toEqual(atStart);
    expect(portal).not.toHaveProperty('discount');

    // One renewal later: two discounted periods left, the current one included.
    await advanceTo('2026-03-01T00:00:00.000Z');
    expect(await scheduleOf(context, subscriptionId)).toEqual([
      {
        amount: 1600,
        periods: 2,
        starts_at: '2026-02-28T10:00:00.000Z',
        ends_at: '2026-04-30T10:00:00.000Z',
      },
      { amount: 2000, periods: null, starts_at: '2026-04-30T10:00:00.000Z', ends_at: null },
    ]);

    // The renewals charged what the schedule said at the start, period after period.
    await advanceTo('2026-06-01T00:00:00.000Z');
    const orders = (await polar.orders.list({ productId: plan.id, limit: 100, sorting: ['created_at'] }))
      .result.items;
    const said = atStart.flatMap((phase) => Array<number>(phase.periods ?? 2).fill(phase.amount));
    expect(orders.map((order) => order.netAmount)).toEqual(said);
    expect(said).toEqual([1600, 1600, 1600, 2000, 2000]);
    expect(await scheduleOf(context, subscriptionId)).toEqual([
      { amount: 2000, periods: null, starts_at: '2026-05-31T10:00:00.000Z', ends_at: null },
    ]);

    // Set to cancel: its current period only; ended: nothing more.
    await polar.subscriptions.update({ id: subscriptionId, subscriptionUpdate: { cancelAtPeriodEnd: true } });
    expect(await scheduleOf(context, subscriptionId)).toEqual([
      {
        amount: 2000,
        periods: 1,
        starts_at: '2026-05-31T10:00:00.000Z',
        ends_at: '2026-06-30T10:00:00.000Z',
      },
    ]);
    await polar.subscriptions.revoke({ id: subscriptionId });
    expect(await scheduleOf(context, subscriptionId)).toEqual([]);
  });

  it('says a once discount ends after the first period, in the API and in the buyer’s emails', async () => {
    const context = await seller();
    const { polar, plan } = context;
    const discount = await polar.discounts.create({
      name: 'First month 20 % off',
      type: 'percentage',
      basisPoints: 2000,
      duration: 'once',
    });
    const { customer, advanceTo } = await clockCustomer(context, 'once@example.test');
    const { subscriptionId } = await buy(polar, plan.id, customer.id, discount.id);
    expect(await scheduleOf(context, subscriptionId)).toEqual([
      {
        amount: 1600,
        periods: 1,
        starts_at: '2026-01-31T10:00:00.000Z',
        ends_at: '2026-02-28T10:00:00.000Z',
      },
      { amount: 2000, periods: null, starts_at: '2026-02-28T10:00:00.000Z', ends_at: null },
    ]);
    // A plan change keeps the discount for the rest of its period only, and its preview says so.
    const team = await polar.products.create({
      name: 'Team',
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 4500, priceCurrency: 'usd' }],
    });
    const preview = await context.call('POST', `/v1/subscriptions/${subscriptionId}/proration-preview`, {
      product_id: team.id,
      proration_behavior: 'prorate',
    });
    expect(preview).toMatchObject({
      new_amount: 3600,
      price_schedule: [
        {
          amount: 3600,
          periods: 1,
          starts_at: '2026-01-31T10:00:00.000Z',
          ends_at: '2026-02-28T10:00:00.000Z',
        },
        { amount: 4500, periods: null, starts_at: '2026-02-28T10:00:00.000Z', ends_at: null },
      ],
    });

    const started = await eventually(
      () =>
        env.database.db.emailMessage.findFirst({
          where: { idempotencyKey: `subscription:${subscriptionId}:started` },
        }),
      (email) => email !== null,
    );
    expect(started!.text).toContain('You pay $16.00 today, then $20.00 / month.');
    expect(started!.text).toContain('Your next payment, $20.00, is on February 28, 2026');
    expect(started!.text).not.toContain('every month');

    await advanceTo('2026-03-01T00:00:00.000Z');
    const renewal = (await polar.orders.list({ productId: plan.id, sorting: ['-created_at'] })).result
      .items[0]!;
    expect(renewal).toMatchObject({ billingReason: 'subscription_cycle', netAmount: 2000 });
    const receipt = await eventually(
      () =>
        env.database.db.emailMessage.findFirst({ where: { idempotencyKey: `order:${renewal.id}:receipt` } }),
      (email) => email !== null,
    );
    expect(receipt!.text).toContain('Your plan costs $20.00 / month.');
  });

  it('is documented as our extension of the Subscription', async () => {
    const document = (await (await fetch(`${env.stack.baseUrl}/v1/openapi.json`)).json()) as unknown;
    const found: unknown[] = [];
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (!node || typeof node !== 'object') return;
      const properties = (node as { properties?: Record<string, unknown> }).properties;
      if (properties?.price_schedule) found.push(properties.price_schedule);
      Object.values(node).forEach(visit);
    };
    visit(document);
    expect(found.length).toBeGreaterThan(0);
    for (const schema of found) {
      expect(schema).toMatchObject({ 'x-tollgate': true, type: 'array' });
      expect((schema as { description: string }).description).toMatch(/^Tollgate extension: /);
    }
  });
});
