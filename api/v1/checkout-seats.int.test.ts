// Checkouts of seat-based prices through @polar-sh/sdk@0.48.1 (docs/prices.md, "Seat-based
// prices"): the seats asked for price the checkout by the tier engine, the default is the
// checkout's fewest (else the price's), seats outside either bound are refused on `seats` and change
// nothing, and a paid checkout's order and subscription carry the seats its renewals bill.
import { describe, expect, it } from '@jest/globals';
import { Polar } from 'polar-sdk-0481';
import { eventually } from '../../test/eventually.js';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { callV1 } from '../../test/http.js';
import { useTestStack } from '../../test/stack.js';
import { buyOnNewClock } from '../../test/test-clocks.js';

describe('checkouts of seat-based prices', () => {
  const env = useTestStack({ withWorker: true });

  async function seller() {
    const organization = await createOrganization(env.database.db, { name: 'Seats Checkout' });
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    // Volume: 1–10 seats at $10, 11–50 at $8; one-time and monthly.
    const seatTiers = {
      tiers: [
        { minSeats: 1, maxSeats: 10, pricePerSeat: 1000 },
        { minSeats: 11, maxSeats: 50, pricePerSeat: 800 },
      ],
    };
    const plan = await polar.products.create({
      name: 'Team plan',
      recurringInterval: 'month',
      prices: [{ amountType: 'seat_based', priceCurrency: 'usd', seatTiers }],
    });
    const fixed = await polar.products.create({
      name: 'E-book',
      prices: [{ amountType: 'fixed', priceAmount: 1500, priceCurrency: 'usd' }],
    });
    return { polar, token, plan, fixed };
  }

  const buySeatsOnClock = (polar: Polar, token: string, productId: string, seats: number) =>
    buyOnNewClock(polar, env.stack.baseUrl, token, productId, { seats });

  it('prices the seats asked for by their tier, and defaults to the fewest', async () => {
    const { polar, plan } = await seller();
    const twelve = await polar.checkouts.create({ products: [plan.id], seats: 12 });
    expect(twelve).toMatchObject({ seats: 12, amount: 12 * 800, netAmount: 12 * 800 });
    const fewest = await polar.checkouts.create({ products: [plan.id] });
    expect(fewest).toMatchObject({ seats: 1, amount: 1000 });
    const narrowed = await polar.checkouts.create({ products: [plan.id], minSeats: 5, maxSeats: 20 });
    expect(narrowed).toMatchObject({ seats: 5, minSeats: 5, maxSeats: 20, amount: 5000 });

    // The buyer changes the seats on the checkout: re-priced from scratch.
    const changed = await new Polar({ serverURL: env.stack.baseUrl }).checkouts.clientUpdate({
      clientSecret: narrowed.clientSecret,
      checkoutUpdatePublic: { seats: 11 },
    });
    expect(changed).toMatchObject({ seats: 11, amount: 11 * 800 });
  });

  it('refuses seats outside the price’s table or the checkout’s bounds, and seats for another price', async () => {
    const { polar, plan, fixed } = await seller();
    const refusal = (msg: string, field = 'seats') => ({
      statusCode: 422,
      detail: [expect.objectContaining({ loc: ['body', field], msg })],
    });
    await expect(polar.checkouts.create({ products: [plan.id], seats: 51 })).rejects.toMatchObject(
      refusal('Maximum 50 seats allowed.'),
    );
    await expect(polar.checkouts.create({ products: [plan.id], maxSeats: 60 })).rejects.toMatchObject(
      refusal('Maximum 50 seats allowed.', 'max_seats'),
    );
    await expect(polar.checkouts.create({ products: [fixed.id], seats: 2 })).rejects.toMatchObject(
      refusal('Seats can only be set for seat-based pricing.'),
    );
    const bounded = await polar.checkouts.create({ products: [plan.id], minSeats: 5, maxSeats: 20 });
    await expect(
      new Polar({ serverURL: env.stack.baseUrl }).checkouts.clientUpdate({
        clientSecret: bounded.clientSecret,
        checkoutUpdatePublic: { seats: 21 },
      }),
    ).rejects.toMatchObject(refusal('Maximum 20 seats allowed.'));
    expect(await polar.checkouts.get({ id: bounded.id })).toMatchObject({ seats: 5, amount: 5000 });
  });

  it('keeps the checkout’s seat bounds for its seat product when the buyer switches to another and back', async () => {
    const { polar, plan } = await seller();
    const flat = await polar.products.create({
      name: 'Flat plan',
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 4900, priceCurrency: 'usd' }],
    });
    const checkout = await polar.checkouts.create({
      products: [plan.id, flat.id],
      minSeats: 5,
      maxSeats: 20,
    });
    const buyer = new Polar({ serverURL: env.stack.baseUrl }).checkouts;
    const switched = await buyer.clientUpdate({
      clientSecret: checkout.clientSecret,
      checkoutUpdatePublic: { productId: flat.id },
    });
    expect(switched).toMatchObject({ productId: flat.id, seats: null, amount: 4900 });
    const back = await buyer.clientUpdate({
      clientSecret: checkout.clientSecret,
      checkoutUpdatePublic: { productId: plan.id },
    });
    expect(back).toMatchObject({ productId: plan.id, seats: 5, minSeats: 5, maxSeats: 20, amount: 5000 });
  });

  it('gives the paid checkout’s order and plan its seats, and the plan bills them', async () => {
    const { polar, plan } = await seller();
    const checkout = await polar.checkouts.create({ products: [plan.id], seats: 3 });
    await new Polar({ serverURL: env.stack.baseUrl }).checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerName: 'Ada Lovelace',
        customerEmail: 'ada-seats@example.test',
        customerBillingAddress: {
          country: 'DE',
          city: 'Berlin',
          postalCode: '10117',
          line1: 'Unter den Linden 1',
        },
        confirmationTokenId: 'pm_card_visa',
      },
    });
    await eventually(
      () => polar.checkouts.get({ id: checkout.id }),
      (value) => value.status === 'succeeded',
    );
    const { result } = await polar.orders.list({ productId: plan.id });
    const [order] = result.items;
    expect(order).toMatchObject({ seats: 3, subtotalAmount: 3000, billingReason: 'subscription_create' });
    expect(order!.items.map((item) => item.label)).toEqual(['Team plan (3 seats)']);
    const subscription = await polar.subscriptions.get({ id: order!.subscriptionId! });
    expect(subscription).toMatchObject({ seats: 3, amount: 3000 });
  });

  it('renews a seat plan for its seats, the renewal line naming them', async () => {
    const { polar, token, plan } = await seller();
    const { subscriptionId, advanceTo } = await buySeatsOnClock(polar, token, plan.id, 12);
    await advanceTo('2026-04-01T10:00:00.000Z');
    const orders = await eventually(
      async () => (await polar.orders.list({ productId: plan.id })).result.items,
      (items) => items.length === 2,
      60_000,
    );
    const renewal = orders.find((order) => order.billingReason === 'subscription_cycle')!;
    expect(renewal).toMatchObject({ subscriptionId, seats: 12, subtotalAmount: 12 * 800 });
    expect(renewal.items.map((item) => item.label)).toEqual(['Team plan (12 seats)']);
  });

  it('moves a plan’s seats across a plan change: none on a flat plan, the fewest onto a seat plan', async () => {
    const { polar, token, plan } = await seller();
    const flat = await polar.products.create({
      name: 'Flat plan',
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 4900, priceCurrency: 'usd' }],
    });
    const { subscriptionId } = await buySeatsOnClock(polar, token, plan.id, 3);
    const onFlat = await polar.subscriptions.update({
      id: subscriptionId,
      subscriptionUpdate: { productId: flat.id, prorationBehavior: 'prorate' },
    });
    expect(onFlat).toMatchObject({ productId: flat.id, seats: null, amount: 4900 });
    const large = await polar.products.create({
      name: 'Large team',
      recurringInterval: 'month',
      prices: [
        {
          amountType: 'seat_based',
          priceCurrency: 'usd',
          seatTiers: { tiers: [{ minSeats: 5, pricePerSeat: 700 }] },
        },
      ],
    });
    const onLarge = await polar.subscriptions.update({
      id: subscriptionId,
      subscriptionUpdate: { productId: large.id, prorationBehavior: 'prorate' },
    });
    expect(onLarge).toMatchObject({ productId: large.id, seats: 5, amount: 5 * 700 });
    // Back onto the small plan: the team keeps its 5 seats.
    const back = await polar.subscriptions.update({
      id: subscriptionId,
      subscriptionUpdate: { productId: plan.id, prorationBehavior: 'prorate' },
    });
    expect(back).toMatchObject({ productId: plan.id, seats: 5, amount: 5 * 1000 });
    // 5 seats do not fit a plan of 10 or more: refused at product_id, naming what to do.
    const tenOrMore = await polar.products.create({
      name: 'Ten or more',
      recurringInterval: 'month',
      prices: [
        {
          amountType: 'seat_based',
          priceCurrency: 'usd',
          seatTiers: { tiers: [{ minSeats: 10, pricePerSeat: 600 }] },
        },
      ],
    });
    const refused = await callV1(env.stack.baseUrl, token, 'PATCH', `/subscriptions/${subscriptionId}`, {
      product_id: tenOrMore.id,
      proration_behavior: 'prorate',
    });
    expect(refused).toMatchObject({
      status: 422,
      body: {
        detail: [
          expect.objectContaining({
            loc: ['body', 'product_id'],
            msg: 'Minimum 10 seats required. The subscription has 5: change its seats first.',
          }),
        ],
      },
    });
    expect(await polar.subscriptions.get({ id: subscriptionId })).toMatchObject({
      productId: plan.id,
      seats: 5,
    });
  });

  it('opens checkouts locked to a link’s seats, and refuses a link whose products cannot take them', async () => {
    const { polar, token, plan, fixed } = await seller();
    const createLink = (body: Record<string, unknown>) =>
      callV1(env.stack.baseUrl, token, 'POST', '/checkout-links/', body);
    const link = await createLink({ products: [plan.id], seats: 5 });
    expect(link).toMatchObject({ status: 201, body: { seats: 5 } });
    const visited = await fetch(link.body.url as string, { redirect: 'manual' });
    expect(visited.status).toBe(303);
    const clientSecret = new URL(visited.headers.get('location')!).pathname.replace('/checkout/', '');
    const row = await env.database.db.checkout.findUniqueOrThrow({ where: { clientSecret } });
    expect(await polar.checkouts.get({ id: row.id })).toMatchObject({
      seats: 5,
      minSeats: 5,
      maxSeats: 5,
      amount: 5000,
    });
    await expect(
      new Polar({ serverURL: env.stack.baseUrl }).checkouts.clientUpdate({
        clientSecret,
        checkoutUpdatePublic: { seats: 6 },
      }),
    ).rejects.toMatchObject({ statusCode: 422 });

    const refusal = (msg: string) => ({
      status: 422,
      body: { detail: [expect.objectContaining({ loc: ['body', 'seats'], msg })] },
    });
    // Its products change only to products that take the seats.
    expect(
      await callV1(env.stack.baseUrl, token, 'PATCH', `/checkout-links/${link.body.id as string}`, {
        products: [fixed.id],
      }),
    ).toMatchObject(refusal('Seats can only be set when every product of the link is sold by the seat.'));
    expect(await createLink({ products: [plan.id, fixed.id], seats: 2 })).toMatchObject(
      refusal('Seats can only be set when every product of the link is sold by the seat.'),
    );
    expect(await createLink({ products: [plan.id], seats: 60 })).toMatchObject(
      refusal('Team plan: Maximum 50 seats allowed.'),
    );
    expect(
      await env.database.db.checkoutLink.count({
        where: { seats: { not: null }, organizationId: row.organizationId },
      }),
    ).toBe(1);
  });
});
