// Seat changes on a subscription through @polar-sh/sdk@0.48.1 (docs/prices.md, "Seat changes"):
// the seller's SubscriptionUpdateSeats and the portal's CustomerSubscriptionUpdateSeats bill the
// time left at the new seats' fee and credit it at the old one's, by the proration behavior asked
// for; `next_period` waits on the pending update for the renewal, which bills the new seats in its
// one order. Refusals name the seats field and change nothing.
import { describe, expect, it } from '@jest/globals';
import { Polar } from 'polar-sdk-0481';
import { eventually } from '../../test/eventually.js';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { callV1 } from '../../test/http.js';
import { useTestStack } from '../../test/stack.js';
import { buyOnNewClock } from '../../test/test-clocks.js';

describe('seat changes on a subscription', () => {
  const env = useTestStack({ withWorker: true });

  async function seller() {
    const organization = await createOrganization(env.database.db, { name: 'Seat Changes' });
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    // Volume: 1–10 seats at $10, 11–50 at $8, monthly.
    const plan = await polar.products.create({
      name: 'Team plan',
      recurringInterval: 'month',
      prices: [
        {
          amountType: 'seat_based',
          priceCurrency: 'usd',
          seatTiers: {
            tiers: [
              { minSeats: 1, maxSeats: 10, pricePerSeat: 1000 },
              { minSeats: 11, maxSeats: 50, pricePerSeat: 800 },
            ],
          },
        },
      ],
    });
    const call = (method: string, path: string, body?: unknown) =>
      callV1(env.stack.baseUrl, token, method, path, body);
    return { organization, token, polar, plan, call };
  }

  const buyOnClock = (polar: Polar, token: string, productId: string, seats: number | null) =>
    buyOnNewClock(polar, env.stack.baseUrl, token, productId, seats === null ? {} : { seats });

  const ordersOf = async (polar: Polar, customerId: string) =>
    (await polar.orders.list({ customerId, sorting: ['created_at'] })).result.items;

  it('bills more seats at once with invoice: the time left at the new fee less the old, in one order', async () => {
    const { polar, token, plan } = await seller();
    const { customer, subscriptionId, advanceTo } = await buyOnClock(polar, token, plan.id, 3);
    // Half of March's 31 days are left.
    await advanceTo('2026-03-16T21:00:00.000Z');
    const changed = await polar.subscriptions.update({
      id: subscriptionId,
      subscriptionUpdate: { seats: 5, prorationBehavior: 'invoice' },
    });
    expect(changed).toMatchObject({ seats: 5, amount: 5000, productId: plan.id });
    const orders = await eventually(
      () => ordersOf(polar, customer.id),
      (items) => items.length === 2,
    );
    const update = orders.find((order) => order.billingReason === 'subscription_update')!;
    expect(update.items.map((item) => [item.label, item.amount])).toEqual([
      ['Remaining time on Team plan (5 seats)', 2500],
      ['Unused time on Team plan (3 seats)', -1500],
    ]);
    expect(update).toMatchObject({ seats: 5, subtotalAmount: 1000 });

    // The renewal bills the five seats.
    await advanceTo('2026-04-01T10:00:00.000Z');
    const renewal = (
      await eventually(
        () => ordersOf(polar, customer.id),
        (items) => items.some((order) => order.billingReason === 'subscription_cycle'),
        60_000,
      )
    ).find((order) => order.billingReason === 'subscription_cycle')!;
    expect(renewal.items.map((item) => [item.label, item.amount])).toEqual([['Team plan (5 seats)', 5000]]);
  });

  it('refuses seats the plan cannot hold on `seats`, and seats on a plan not sold by the seat', async () => {
    const { polar, token, plan, call } = await seller();
    const { subscriptionId } = await buyOnClock(polar, token, plan.id, 3);
    const refusal = (msg: string) => ({
      status: 422,
      body: { detail: [expect.objectContaining({ loc: ['body', 'seats'], msg })] },
    });
    expect(await call('PATCH', `/subscriptions/${subscriptionId}`, { seats: 51 })).toMatchObject(
      refusal('Maximum 50 seats allowed.'),
    );
    expect(await call('PATCH', `/subscriptions/${subscriptionId}`, { seats: 0 })).toMatchObject(
      refusal('A plan holds at least 1 seat.'),
    );
    const flat = await polar.products.create({
      name: 'Flat',
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 2000, priceCurrency: 'usd' }],
    });
    const onFlat = await buyOnClock(polar, token, flat.id, null);
    expect(await call('PATCH', `/subscriptions/${onFlat.subscriptionId}`, { seats: 2 })).toMatchObject(
      refusal("This subscription's plan is not sold by the seat: it has no seats to change."),
    );
    expect(await polar.subscriptions.get({ id: subscriptionId })).toMatchObject({ seats: 3, amount: 3000 });

    await polar.subscriptions.update({ id: subscriptionId, subscriptionUpdate: { cancelAtPeriodEnd: true } });
    expect(await call('PATCH', `/subscriptions/${subscriptionId}`, { seats: 4 })).toMatchObject({
      status: 403,
      body: { error: 'AlreadyCanceledSubscription' },
    });
  });

  it('with prorate moves to the rate of the new total and leaves the lines for the renewal', async () => {
    const { polar, token, plan } = await seller();
    const { customer, subscriptionId, advanceTo } = await buyOnClock(polar, token, plan.id, 10);
    await advanceTo('2026-03-16T21:00:00.000Z');
    // Twelve seats reach the $8 tier: every seat at $8.
    const changed = await polar.subscriptions.update({
      id: subscriptionId,
      subscriptionUpdate: { seats: 12, prorationBehavior: 'prorate' },
    });
    expect(changed).toMatchObject({ seats: 12, amount: 9600 });
    expect(await ordersOf(polar, customer.id)).toHaveLength(1);
    await advanceTo('2026-04-01T10:00:00.000Z');
    const renewal = (
      await eventually(
        () => ordersOf(polar, customer.id),
        (items) => items.length === 2,
        60_000,
      )
    )[1]!;
    expect(renewal.items.map((item) => [item.label, item.amount])).toEqual([
      ['Team plan (12 seats)', 9600],
      ['Remaining time on Team plan (12 seats)', 4800],
      ['Unused time on Team plan (10 seats)', -5000],
    ]);
  });

  it('with next_period waits on the pending update, which the renewal applies in its one order', async () => {
    const { polar, token, plan, call } = await seller();
    const { customer, subscriptionId, advanceTo } = await buyOnClock(polar, token, plan.id, 12);
    const scheduled = await polar.subscriptions.update({
      id: subscriptionId,
      subscriptionUpdate: { seats: 4, prorationBehavior: 'next_period' },
    });
    expect(scheduled).toMatchObject({
      seats: 12,
      amount: 9600,
      pendingUpdate: { productId: plan.id, seats: 4, appliesAt: new Date('2026-04-01T09:00:00.000Z') },
    });
    // Out of range is refused now, not at the renewal.
    expect(
      await call('PATCH', `/subscriptions/${subscriptionId}`, {
        seats: 60,
        proration_behavior: 'next_period',
      }),
    ).toMatchObject({ status: 422 });

    await advanceTo('2026-04-01T10:00:00.000Z');
    const orders = await eventually(
      () => ordersOf(polar, customer.id),
      (items) => items.length === 2,
      60_000,
    );
    expect(orders[1]!.items.map((item) => [item.label, item.amount])).toEqual([
      ['Team plan (4 seats)', 4000],
    ]);
    expect(await polar.subscriptions.get({ id: subscriptionId })).toMatchObject({
      seats: 4,
      amount: 4000,
      pendingUpdate: null,
    });
  });

  it('lets the buyer change seats in the portal once the seller allows it', async () => {
    const { organization, polar, token, plan, call } = await seller();
    const { subscriptionId, customerSessionToken } = await buyOnClock(polar, token, plan.id, 2);
    const buyer = new Polar({ serverURL: env.stack.baseUrl });
    const security = { customerSession: customerSessionToken };
    await expect(
      buyer.customerPortal.subscriptions.update(security, {
        id: subscriptionId,
        customerSubscriptionUpdate: { seats: 3 },
      }),
    ).rejects.toMatchObject({ statusCode: 403 });
    expect((await polar.subscriptions.get({ id: subscriptionId })).seats).toBe(2);

    const allowed = await call('PATCH', `/organizations/${organization.id}`, {
      customer_portal_settings: { subscription: { update_seats: true, update_plan: false } },
    });
    expect(allowed).toMatchObject({
      status: 200,
      body: { customer_portal_settings: { subscription: { update_seats: true } } },
    });
    const changed = await buyer.customerPortal.subscriptions.update(security, {
      id: subscriptionId,
      customerSubscriptionUpdate: { seats: 3, prorationBehavior: 'prorate' },
    });
    expect(changed).toMatchObject({ seats: 3, amount: 3000 });
  });

  it('bills a grandfathered plan’s seats at the price it pays, not the product’s new one', async () => {
    const { polar, token, plan } = await seller();
    const { customer, subscriptionId, advanceTo } = await buyOnClock(polar, token, plan.id, 3);
    // The seller raises the price to $12 a seat: the plan keeps paying $10.
    await polar.products.update({
      id: plan.id,
      productUpdate: {
        prices: [
          {
            amountType: 'seat_based',
            priceCurrency: 'usd',
            seatTiers: { tiers: [{ minSeats: 1, pricePerSeat: 1200 }] },
          },
        ],
      },
    });
    await advanceTo('2026-03-16T21:00:00.000Z');
    const changed = await polar.subscriptions.update({
      id: subscriptionId,
      subscriptionUpdate: { seats: 4, prorationBehavior: 'invoice' },
    });
    expect(changed).toMatchObject({ seats: 4, amount: 4000 });
    const update = (
      await eventually(
        () => ordersOf(polar, customer.id),
        (items) => items.length === 2,
      )
    ).find((order) => order.billingReason === 'subscription_update')!;
    expect(update.items.map((item) => [item.label, item.amount])).toEqual([
      ['Remaining time on Team plan (4 seats)', 2000],
      ['Unused time on Team plan (3 seats)', -1500],
    ]);
  });

  it('changes seats during a trial without billing the trial', async () => {
    const { polar, token } = await seller();
    const trialPlan = await polar.products.create({
      name: 'Trial team',
      recurringInterval: 'month',
      trialInterval: 'day',
      trialIntervalCount: 14,
      prices: [
        {
          amountType: 'seat_based',
          priceCurrency: 'usd',
          seatTiers: { tiers: [{ minSeats: 1, pricePerSeat: 1000 }] },
        },
      ],
    });
    const { customer, subscriptionId, advanceTo } = await buyOnClock(polar, token, trialPlan.id, 10);
    expect((await polar.subscriptions.get({ id: subscriptionId })).status).toBe('trialing');
    await advanceTo('2026-03-08T09:00:00.000Z');
    const changed = await polar.subscriptions.update({
      id: subscriptionId,
      subscriptionUpdate: { seats: 8, prorationBehavior: 'invoice' },
    });
    expect(changed).toMatchObject({ status: 'trialing', seats: 8, amount: 8000 });
    // The trial's end charges the eight seats' first period, and nothing else was billed.
    await advanceTo('2026-03-15T10:00:00.000Z');
    const orders = await eventually(
      () => ordersOf(polar, customer.id),
      (items) => items.some((order) => order.billingReason === 'subscription_cycle'),
      60_000,
    );
    expect(orders.filter((order) => order.billingReason === 'subscription_update')).toEqual([]);
    const first = orders.find((order) => order.billingReason === 'subscription_cycle')!;
    expect(first.items.map((item) => [item.label, item.amount])).toEqual([['Trial team (8 seats)', 8000]]);
  });
});
