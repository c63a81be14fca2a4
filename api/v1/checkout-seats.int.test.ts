// Checkouts of seat-based prices through @polar-sh/sdk@0.48.1 (docs/prices.md, "Seat-based
// prices"): the seats asked for price the checkout by the tier engine, the default is the
// checkout's fewest (else the price's), seats outside either bound are refused on `seats` and change
// nothing, and a paid checkout's order and subscription carry the seats its renewals bill.
import { describe, expect, it } from '@jest/globals';
import { Polar } from 'polar-sdk-0481';
import { eventually } from '../../test/eventually.js';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';

describe('checkouts of seat-based prices', () => {
  const env = useTestStack({ withWorker: true });

  async function seller() {
    const organization = await createOrganization(env.database.db, { name: 'Seats Checkout' });
    const polar = new Polar({
      accessToken: await createAccessToken(env.database.db, organization.id),
      serverURL: env.stack.baseUrl,
    });
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
    return { polar, plan, fixed };
  }

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
});
