// Meter cycles of their own (product `meter_interval`, Polar's 2026-10 shapes) through the API on a
// test clock. @polar-sh/sdk@0.48.1 has neither `meter_interval` nor `current_meter_period_*`: the
// SDK buys and lists, plain HTTP writes and reads those fields.
import { describe, expect, it } from '@jest/globals';
import { Polar } from 'polar-sdk-0481';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { eventually } from '../../test/eventually.js';
import { useTestStack } from '../../test/stack.js';

const ADDRESS = { country: 'DE', city: 'Berlin', postalCode: '10117', line1: 'Unter den Linden 1' } as const;

type Json = Record<string, unknown>;

describe('meter cycles of their own (meter_interval)', () => {
  const env = useTestStack();

  async function seller() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    const http = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${env.stack.baseUrl}/v1/${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : null) as Json };
    };
    return { token, http, polar: new Polar({ accessToken: token, serverURL: env.stack.baseUrl }) };
  }

  const fixed = { amount_type: 'fixed', price_amount: 12000, price_currency: 'usd' };

  it('refuses a meter_interval that does not divide the billing interval, on a one-time product, or unknown, at the field', async () => {
    const { http } = await seller();
    const refused = async (body: Json) => {
      const answer = await http('POST', 'products/', { name: 'Yearly API', prices: [fixed], ...body });
      expect(answer.status).toBe(422);
      return (answer.body.detail as { loc: unknown[]; msg: string }[]).map((issue) => issue.loc.join('.'));
    };
    expect(
      await refused({ recurring_interval: 'year', meter_interval: 'month', meter_interval_count: 5 }),
    ).toEqual(['body.meter_interval']);
    expect(await refused({ recurring_interval: 'month', meter_interval: 'year' })).toEqual([
      'body.meter_interval',
    ]);
    expect(await refused({ recurring_interval: 'month', meter_interval: 'week' })).toEqual([
      'body.meter_interval',
    ]);
    expect(await refused({ recurring_interval: null, meter_interval: 'day' })).toEqual([
      'body.meter_interval',
    ]);
    expect(await refused({ recurring_interval: 'year', meter_interval: 'fortnight' })).toEqual([
      'body.meter_interval',
    ]);
    expect(
      await refused({ recurring_interval: 'year', meter_interval: 'month', meter_interval_count: 0 }),
    ).toEqual(['body.meter_interval_count']);
    // Nothing was made.
    const listed = await http('GET', 'products/');
    expect((listed.body.items as unknown[]).length).toBe(0);
    // Once set it cannot change (Polar): the update has no such field.
    const made = await http('POST', 'products/', {
      name: 'Yearly API',
      recurring_interval: 'year',
      prices: [fixed],
    });
    expect(made.body).toMatchObject({ meter_interval: null, meter_interval_count: null });
    const update = await http('PATCH', `products/${made.body.id as string}`, { meter_interval: 'month' });
    expect(update.status).toBe(422);
  });

  it('bills a yearly plan’s usage monthly: current_meter_period_*, the estimate, and the meter-cycle order agree', async () => {
    const { http, polar } = await seller();
    const meter = await polar.meters.create({
      name: 'Calls',
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'calls' }] },
      aggregation: { func: 'count' },
    });
    const created = await http('POST', 'products/', {
      name: 'Yearly API',
      recurring_interval: 'year',
      meter_interval: 'month',
      prices: [
        fixed,
        { amount_type: 'metered_unit', meter_id: meter.id, price_currency: 'usd', unit_amount: '50' },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ meter_interval: 'month', meter_interval_count: 1 });
    const productId = created.body.id as string;

    const clock = await http('POST', 'test-clocks/', {
      name: 'Meters',
      frozen_time: '2026-01-31T09:00:00.000Z',
    });
    const customer = await polar.customers.create({ email: 'grace@example.test' });
    await http('POST', `test-clocks/${clock.body.id as string}/customers`, { customer_id: customer.id });
    const checkout = await polar.checkouts.create({ products: [productId], customerId: customer.id });
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
    const id = paid.subscriptionId!;
    const bought = await http('GET', `subscriptions/${id}`);
    expect(bought.body).toMatchObject({
      current_period_start: '2026-01-31T09:00:00.000Z',
      current_period_end: '2027-01-31T09:00:00.000Z',
      current_meter_period_start: '2026-01-31T09:00:00.000Z',
      current_meter_period_end: '2026-02-28T09:00:00.000Z',
    });

    await polar.events.ingest({
      events: [1, 2, 3, 4].map((day) => ({
        name: 'calls',
        customerId: customer.id,
        timestamp: new Date(Date.UTC(2026, 1, day, 12)),
      })),
    });
    const estimate = await eventually(
      () => http('GET', `subscriptions/${id}/upcoming-invoice`),
      (answer) => answer.body.total_amount === 200,
    );
    expect(estimate.body).toMatchObject({
      period_start: '2026-01-31T09:00:00.000Z',
      period_end: '2026-02-28T09:00:00.000Z',
      billed_at: '2026-02-28T09:00:00.000Z',
      ends_subscription: false,
      lines: [{ type: 'metered', label: 'Calls', amount: 200 }],
    });

    await http('POST', `test-clocks/${clock.body.id as string}/advance`, {
      frozen_time: '2026-03-05T00:00:00.000Z',
    });
    await eventually(
      () => http('GET', `test-clocks/${clock.body.id as string}`),
      (answer) => answer.body.status === 'ready',
      60_000,
    );
    const cycled = await http('GET', `subscriptions/${id}`);
    expect(cycled.body).toMatchObject({
      current_period_start: '2026-01-31T09:00:00.000Z',
      current_meter_period_start: '2026-02-28T09:00:00.000Z',
      current_meter_period_end: '2026-03-31T09:00:00.000Z',
    });
    // 0.48.1 reads billing reasons as an open enum.
    const orders = (await polar.orders.list({ productId, sorting: ['created_at'] })).result.items;
    expect(orders.map((order) => [order.billingReason, order.totalAmount, order.status])).toEqual([
      ['subscription_create', 12000, 'paid'],
      ['subscription_meter_cycle', estimate.body.total_amount, 'paid'],
    ]);
    expect(orders[1]!.items.map((item) => [item.label, item.amount])).toEqual([['Calls', 200]]);
    // The next estimate is March's cycle, empty so far.
    const next = await http('GET', `subscriptions/${id}/upcoming-invoice`);
    expect(next.body).toMatchObject({
      period_start: '2026-02-28T09:00:00.000Z',
      period_end: '2026-03-31T09:00:00.000Z',
      lines: [],
    });

    // A change to a plan without a cycle of its own takes its (none, as Polar takes the new
    // product's); February, billed already, is never measured again: the renewal counts from March.
    const plain = await http('POST', 'products/', {
      name: 'Yearly API, usage yearly',
      recurring_interval: 'year',
      prices: [
        fixed,
        { amount_type: 'metered_unit', meter_id: meter.id, price_currency: 'usd', unit_amount: '50' },
      ],
    });
    const changed = await http('PATCH', `subscriptions/${id}`, {
      product_id: plain.body.id,
      proration_behavior: 'prorate',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ current_meter_period_start: null, current_meter_period_end: null });
    const renewal = await http('GET', `subscriptions/${id}/upcoming-invoice`);
    expect(renewal.body).toMatchObject({
      period_start: '2026-02-28T09:00:00.000Z',
      period_end: '2027-01-31T09:00:00.000Z',
      billed_at: '2027-01-31T09:00:00.000Z',
    });
    expect(renewal.body.meters).toEqual([expect.objectContaining({ consumed_units: 0 })]);
  });
});
