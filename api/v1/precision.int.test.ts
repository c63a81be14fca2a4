import { describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import {
  createAccessToken,
  createMeter,
  createOrder,
  createOrganization,
  createProduct,
} from '../../test/factories.js';
import { callV1, type V1Answer } from '../../test/http.js';
import { useTestStack } from '../../test/stack.js';

// Amounts travel in whole minor units and percentages in whole basis points: more precision than
// that (10.999 dollars, 12.345 %) is refused at the field that carries it, never rounded.

const WHOLE_MINOR_UNITS = /whole number of minor units.*refused, not rounded/;
const WHOLE_BASIS_POINTS = /whole number of basis points.*refused, not rounded/;

describe('amounts and percentages with more precision than allowed', () => {
  const env = useTestStack();

  async function seller() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    return { organization, token, polar };
  }

  /** The one issue of a 422, where it was found and what it says. */
  const refusal = (answer: V1Answer) => {
    expect(answer.status).toBe(422);
    expect(answer.body.detail).toHaveLength(1);
    return answer.body.detail![0]!;
  };

  const product = (price: Record<string, unknown>) => ({
    name: 'Precise plan',
    recurring_interval: 'month',
    prices: [price],
  });

  it('refuses a price in fractions of a cent at the price field, creating nothing', async () => {
    const { token, organization } = await seller();
    const meter = await createMeter(env.database.db, organization.id);
    const cases: [Record<string, unknown>, string][] = [
      [{ amount_type: 'fixed', price_amount: 1099.9, price_currency: 'usd' }, 'price_amount'],
      [{ amount_type: 'custom', price_currency: 'usd', minimum_amount: 50.5 }, 'minimum_amount'],
      [{ amount_type: 'custom', price_currency: 'usd', preset_amount: 999.99 }, 'preset_amount'],
      [
        {
          amount_type: 'metered_unit',
          price_currency: 'usd',
          meter_id: meter.id,
          unit_amount: '1',
          cap_amount: 100.5,
        },
        'cap_amount',
      ],
    ];
    for (const [price, field] of cases) {
      const issue = refusal(await callV1(env.stack.baseUrl, token, 'POST', '/products/', product(price)));
      expect(issue.loc).toEqual(['body', 'prices', 0, field]);
      expect(issue.msg).toMatch(WHOLE_MINOR_UNITS);
    }
    // A metered unit price may go below a cent, to twelve decimals of a cent and no further.
    const tooFine = await callV1(
      env.stack.baseUrl,
      token,
      'POST',
      '/products/',
      product({
        amount_type: 'metered_unit',
        price_currency: 'usd',
        meter_id: meter.id,
        unit_amount: '0.1234567890123',
      }),
    );
    expect(refusal(tooFine)).toMatchObject({
      loc: ['body', 'prices', 0, 'unit_amount'],
      msg: expect.stringMatching(/at most 12 decimals.*refused, not rounded/),
    });
    expect(await env.database.db.product.count({ where: { organizationId: organization.id } })).toBe(0);
  });

  it('refuses a percentage with more than two decimals and an amount in fractions of a cent on a discount', async () => {
    const { token, polar, organization } = await seller();
    const percentage = await callV1(env.stack.baseUrl, token, 'POST', '/discounts/', {
      name: 'Spring',
      type: 'percentage',
      duration: 'once',
      basis_points: 1234.5,
    });
    expect(refusal(percentage)).toMatchObject({
      loc: ['body', 'basis_points'],
      msg: expect.stringMatching(WHOLE_BASIS_POINTS),
    });
    const fixed = await callV1(env.stack.baseUrl, token, 'POST', '/discounts/', {
      name: 'Spring',
      type: 'fixed',
      duration: 'once',
      amount: 1099.9,
      currency: 'usd',
    });
    expect(refusal(fixed)).toMatchObject({
      loc: ['body', 'amount'],
      msg: expect.stringMatching(WHOLE_MINOR_UNITS),
    });
    expect(await env.database.db.discount.count({ where: { organizationId: organization.id } })).toBe(0);

    const discount = await polar.discounts.create({
      name: 'Summer',
      type: 'percentage',
      duration: 'once',
      basisPoints: 1000,
    });
    const update = await callV1(env.stack.baseUrl, token, 'PATCH', `/discounts/${discount.id}`, {
      basis_points: 1250.5,
    });
    expect(refusal(update)).toMatchObject({
      loc: ['body', 'basis_points'],
      msg: expect.stringMatching(WHOLE_BASIS_POINTS),
    });
    expect((await callV1(env.stack.baseUrl, token, 'GET', `/discounts/${discount.id}`)).body).toMatchObject({
      basis_points: 1000,
    });
  });

  it('refuses a refund in fractions of a cent, refunding nothing', async () => {
    const { token, polar } = await seller();
    const order = await createOrder(env.database.db, polar);
    const answer = await callV1(env.stack.baseUrl, token, 'POST', '/refunds/', {
      order_id: order.id,
      reason: 'customer_request',
      amount: 10.5,
    });
    expect(refusal(answer)).toMatchObject({
      loc: ['body', 'amount'],
      msg: expect.stringMatching(WHOLE_MINOR_UNITS),
    });
    expect(await env.database.db.refund.count({ where: { orderId: order.id } })).toBe(0);
  });

  it("refuses a buyer's pay-what-you-want amount in fractions of a cent, keeping the checkout's amount", async () => {
    const { polar } = await seller();
    const tip = await createProduct(polar, {
      name: 'Tip jar',
      prices: [{ amountType: 'custom', priceCurrency: 'usd', minimumAmount: 100, presetAmount: 500 }],
    });
    const checkout = await polar.checkouts.create({ products: [tip.id] });
    const response = await fetch(`${env.stack.baseUrl}/v1/checkouts/client/${checkout.clientSecret}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 1099.9 }),
    });
    const answer = { status: response.status, body: (await response.json()) as V1Answer['body'] };
    expect(refusal(answer)).toMatchObject({
      loc: ['body', 'amount'],
      msg: expect.stringMatching(WHOLE_MINOR_UNITS),
    });
    expect((await polar.checkouts.get({ id: checkout.id })).amount).toBe(500);
  });
});
