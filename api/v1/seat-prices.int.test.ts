// Seat-based prices over HTTP (docs/prices.md, "Seat-based prices"): created and read back by
// @polar-sh/sdk@0.48.1 with response validation on, refused in the seller's words on the tier at
// fault with nothing created, and shown in each dated version's shape (seat_tiers up to 2026-10,
// tiers with minimum_units and maximum_units from 2027-01). Polar's Python SDK reads them strictly
// in api/v1/python-sdk.int.test.ts.
import { describe, expect, it } from '@jest/globals';
import { Polar } from 'polar-sdk-0481';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';

type Json = Record<string, unknown>;

describe('seat-based prices', () => {
  const env = useTestStack({ withWorker: false });

  async function seller() {
    const organization = await createOrganization(env.database.db, { name: 'Seats Inc' });
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const call = async (method: string, path: string, body?: unknown, version?: string) => {
      const answer = await fetch(`${env.stack.baseUrl}/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(version ? { 'polar-version': version } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: answer.status, body: (await answer.json()) as Json };
    };
    return { organization, polar, call };
  }

  it('are created and read back by @polar-sh/sdk@0.48.1 with their tiers and seat bounds', async () => {
    const { polar } = await seller();
    const product = await polar.products.create({
      name: 'Team plan',
      recurringInterval: 'month',
      prices: [
        {
          amountType: 'seat_based',
          priceCurrency: 'usd',
          seatTiers: {
            seatTierType: 'graduated',
            tiers: [
              { minSeats: 3, maxSeats: 10, pricePerSeat: 1000 },
              { minSeats: 11, maxSeats: null, pricePerSeat: 800 },
            ],
          },
        },
      ],
    });
    const [price] = product.prices;
    expect(price).toMatchObject({
      amountType: 'seat_based',
      priceCurrency: 'usd',
      seatTiers: {
        seatTierType: 'graduated',
        tiers: [
          { minSeats: 3, maxSeats: 10, pricePerSeat: 1000 },
          { minSeats: 11, maxSeats: null, pricePerSeat: 800 },
        ],
        minimumSeats: 3,
        maximumSeats: null,
      },
    });
    const read = await polar.products.get({ id: product.id });
    expect(read.prices[0]).toMatchObject({ id: price!.id, amountType: 'seat_based' });
  });

  it('take a missing tier type as volume, and answer each dated version in its own shape', async () => {
    const { call } = await seller();
    const created = await call('POST', '/products/', {
      name: 'Seats',
      recurring_interval: 'year',
      prices: [
        {
          amount_type: 'seat_based',
          seat_tiers: {
            tiers: [
              { min_seats: 1, max_seats: 5, price_per_seat: 12000 },
              { min_seats: 6, max_seats: 50, price_per_seat: 10000 },
            ],
          },
        },
      ],
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const priceIn = async (version: string) =>
      ((await call('GET', `/products/${id}`, undefined, version)).body.prices as Json[])[0]!;

    const old = await priceIn('2026-10');
    expect(old.seat_tiers).toEqual({
      seat_tier_type: 'volume',
      tiers: [
        { min_seats: 1, max_seats: 5, price_per_seat: 12000 },
        { min_seats: 6, max_seats: 50, price_per_seat: 10000 },
      ],
      minimum_seats: 1,
      maximum_seats: 50,
    });
    expect(old).not.toHaveProperty('tiers');
    const current = await priceIn('2027-01');
    expect(current).toMatchObject({
      tiers: {
        type: 'volume',
        tiers: [
          { bound: 5, unit_amount: '12000' },
          { bound: 50, unit_amount: '10000' },
        ],
      },
      minimum_units: 1,
      maximum_units: 50,
    });
    expect(current).not.toHaveProperty('seat_tiers');
  });

  it('are created from the 2027-01 shape (tiers, minimum_units)', async () => {
    const { call } = await seller();
    const created = await call(
      'POST',
      '/products/',
      {
        name: 'Seats 2027',
        recurring_interval: 'month',
        prices: [
          {
            amount_type: 'seat_based',
            tiers: { type: 'graduated', tiers: [{ bound: 10, unit_amount: '900' }, { unit_amount: 700 }] },
            minimum_units: 2,
          },
        ],
      },
      '2027-01',
    );
    expect(created.status).toBe(201);
    expect((created.body.prices as Json[])[0]).toMatchObject({
      tiers: {
        type: 'graduated',
        tiers: [
          { bound: 10, unit_amount: '900' },
          { bound: null, unit_amount: '700' },
        ],
      },
      minimum_units: 2,
      maximum_units: null,
    });
  });

  it('are refused on the tier at fault, in words the seller can act on, and nothing is created', async () => {
    const { organization, call } = await seller();
    const refusals = [
      {
        price: {
          seat_tiers: {
            tiers: [
              { min_seats: 1, max_seats: 10, price_per_seat: 1000 },
              { min_seats: 12, price_per_seat: 800 },
            ],
          },
        },
        loc: ['body', 'prices', 0, 'seat_tiers', 'tiers', 1, 'min_seats'],
        msg: 'Tiers must follow on without a gap or an overlap: this one starts at 12, the one before ends at 10.',
      },
      {
        price: {
          seat_tiers: {
            tiers: [
              { min_seats: 1, price_per_seat: 1000 },
              { min_seats: 11, price_per_seat: 800 },
            ],
          },
        },
        loc: ['body', 'prices', 0, 'seat_tiers', 'tiers', 0],
        msg: 'Only the last tier can be unbounded.',
      },
      {
        price: { tiers: { type: 'volume', tiers: [{ unit_amount: '999.5' }] } },
        loc: ['body', 'prices', 0, 'tiers', 'tiers', 0, 'unit_amount'],
        msg: 'A price per seat must be a whole number of minor units (cents); fractions are refused, not rounded.',
      },
      {
        price: {},
        loc: ['body', 'prices', 0, 'seat_tiers'],
        msg: 'Give the price its tiers: the rate per seat and where it applies.',
      },
    ];
    for (const { price, loc, msg } of refusals) {
      const refused = await call('POST', '/products/', {
        name: 'Refused',
        recurring_interval: 'month',
        prices: [{ amount_type: 'seat_based', ...price }],
      });
      expect(refused.status).toBe(422);
      expect(refused.body.detail).toEqual([expect.objectContaining({ loc, msg })]);
    }
    const fractional = await call('POST', '/products/', {
      name: 'Refused',
      prices: [
        { amount_type: 'seat_based', seat_tiers: { tiers: [{ min_seats: 1, price_per_seat: 10.5 }] } },
      ],
    });
    expect(fractional.status).toBe(422);
    expect(await env.database.db.product.count({ where: { organizationId: organization.id } })).toBe(0);
  });
});
