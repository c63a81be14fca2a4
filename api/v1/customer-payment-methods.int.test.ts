import { describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { buyInSandbox, createAccessToken, createOrganization } from '../../test/factories.js';
import { eventually } from '../../test/eventually.js';
import { useTestStack } from '../../test/stack.js';

describe('saved cards in the customer portal (through @polar-sh/sdk)', () => {
  const env = useTestStack();

  async function seller() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const plan = await polar.products.create({
      name: 'Pro',
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 1500, priceCurrency: 'usd' }],
    });
    return { organization, token, polar, plan };
  }

  const portal = () => new Polar({ serverURL: env.stack.baseUrl }).customerPortal;

  /** Our extensions, which the SDK has no calls for. */
  function raw(sessionToken: string) {
    return async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${env.stack.baseUrl}/v1/customer-portal/${path}`, {
        method,
        headers: { authorization: `Bearer ${sessionToken}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
    };
  }

  async function subscriber(card = 'pm_card_visa') {
    const world = await seller();
    const customer = await world.polar.customers.create({ email: 'ada@example.test', name: 'Ada' });
    const checkout = await buyInSandbox(world.polar, env.stack.baseUrl, world.plan.id, customer.id, card);
    const session = await world.polar.customerSessions.create({ customerId: customer.id });
    return {
      ...world,
      customer,
      subscriptionId: checkout.subscriptionId!,
      session,
      security: { customerSession: session.token },
      call: raw(session.token),
    };
  }

  const cardOfSubscription = async (id: string) =>
    (await env.database.db.subscription.findUniqueOrThrow({ where: { id } })).paymentMethodId;

  it('lists the card a subscription saved; adds, makes default and deletes cards; plans follow the default', async () => {
    const { security, subscriptionId, call } = await subscriber();
    const listed = (await portal().customers.getPaymentMethods(security, {})).result;
    expect(listed.pagination.totalCount).toBe(1);
    const now = new Date();
    expect(listed.items[0]).toMatchObject({
      type: 'card',
      default: true,
      card: {
        brand: 'visa',
        last4: '4242',
        expMonth: now.getUTCMonth() + 1,
        expYear: now.getUTCFullYear() + 4,
      },
    });
    const visaId = listed.items[0]!.id;

    const added = await portal().customers.addPaymentMethod(security, {
      confirmationTokenId: 'pm_card_mastercard',
      setDefault: false,
      returnUrl: 'https://seller.example/billing',
    });
    expect(added).toMatchObject({
      type: 'card',
      default: false,
      card: { brand: 'mastercard', last4: '4444' },
    });
    const both = (await portal().customers.getPaymentMethods(security, {})).result.items;
    expect(both.map((card) => [card.id, card.default])).toEqual([
      [visaId, true],
      [added.id, false],
    ]);
    expect(await cardOfSubscription(subscriptionId)).toBe('pm_card_visa');

    // Our extension: the new card becomes the default, and the plan renews on it.
    const madeDefault = await call('PATCH', `customers/me/payment-methods/${added.id}`, { default: true });
    expect(madeDefault).toMatchObject({ status: 200, body: { id: added.id, default: true } });
    expect(await cardOfSubscription(subscriptionId)).toBe('pm_card_mastercard');
    expect(await call('PATCH', `customers/me/payment-methods/${added.id}`, { default: false })).toMatchObject(
      {
        status: 422,
      },
    );

    await portal().customers.deletePaymentMethod(security, { id: visaId });
    const left = (await portal().customers.getPaymentMethods(security, {})).result.items;
    expect(left.map((card) => card.id)).toEqual([added.id]);

    // The only card of a plan that renews stays (Polar lets it go, and the renewal then fails).
    const refused = await call('DELETE', `customers/me/payment-methods/${added.id}`);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      detail: [
        {
          loc: ['path', 'id'],
          msg: 'Your subscription renews on this card. Add another card first, then delete this one.',
          type: 'value_error',
        },
      ],
    });
    expect((await portal().customers.getPaymentMethods(security, {})).result.items).toHaveLength(1);
  });

  /** What the sandbox's card form does before it confirms: a token of the test card and the expiry typed. */
  async function cardToken(body: unknown) {
    const response = await fetch(`${env.stack.baseUrl}/api/sandbox/confirmation-tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('keeps the expiry the buyer typed on cards saved at checkout and in the portal, for the buyer and the seller', async () => {
    const paidWith = await cardToken({
      payment_method: 'pm_card_visa',
      card: { exp_month: 8, exp_year: 2031 },
    });
    expect(paidWith.status).toBe(201);
    expect(paidWith.body).toEqual({
      id: expect.stringMatching(/^ctoken_sbx_/),
      payment_method: 'pm_card_visa',
      card: { exp_month: 8, exp_year: 2031 },
    });
    const { security, polar, customer } = await subscriber(paidWith.body.id as string);
    const addedWith = await cardToken({
      payment_method: 'pm_card_mastercard',
      card: { exp_month: 11, exp_year: 2029 },
    });
    await portal().customers.addPaymentMethod(security, {
      confirmationTokenId: addedWith.body.id as string,
      setDefault: false,
      returnUrl: 'https://seller.example/billing',
    });

    const portalCards = (await portal().customers.getPaymentMethods(security, {})).result.items;
    expect(portalCards.map((card) => ('card' in card ? card.card : null))).toEqual([
      { brand: 'visa', last4: '4242', expMonth: 8, expYear: 2031, wallet: null },
      { brand: 'mastercard', last4: '4444', expMonth: 11, expYear: 2029, wallet: null },
    ]);

    // The seller's API, in Polar's shape (`customers:list_payment_methods`).
    const sellerToken = await createAccessToken(env.database.db, customer.organizationId);
    const listed = await fetch(`${env.stack.baseUrl}/v1/customers/${customer.id}/payment-methods`, {
      headers: { authorization: `Bearer ${sellerToken}` },
    });
    expect(listed.status).toBe(200);
    const page = (await listed.json()) as { items: Record<string, unknown>[]; pagination: unknown };
    expect(page.pagination).toEqual({ total_count: 2, max_page: 1 });
    expect(page.items).toEqual([
      {
        id: portalCards[0]!.id,
        created_at: expect.any(String),
        modified_at: expect.any(String),
        processor: 'stripe',
        customer_id: customer.id,
        type: 'card',
        method_metadata: { brand: 'visa', last4: '4242', exp_month: 8, exp_year: 2031, wallet: null },
        is_default: true,
      },
      expect.objectContaining({
        method_metadata: { brand: 'mastercard', last4: '4444', exp_month: 11, exp_year: 2029, wallet: null },
        is_default: false,
      }),
    ]);

    // Another organization's token does not find the customer; anonymous callers are refused.
    const other = await createOrganization(env.database.db);
    const foreign = await fetch(`${env.stack.baseUrl}/v1/customers/${customer.id}/payment-methods`, {
      headers: { authorization: `Bearer ${await createAccessToken(env.database.db, other.id)}` },
    });
    expect(foreign.status).toBe(404);
    expect((await fetch(`${env.stack.baseUrl}/v1/customers/${customer.id}/payment-methods`)).status).toBe(
      401,
    );
    expect(await polar.customers.get({ id: customer.id })).toMatchObject({ id: customer.id });
  });

  it('refuses a card token for a number that is no test card, or a date in the past, next to the field', async () => {
    const unknown = await cardToken({
      payment_method: 'pm_card_nonsense',
      card: { exp_month: 8, exp_year: 2031 },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail).toEqual([
      expect.objectContaining({
        loc: ['body', 'payment_method'],
        msg: expect.stringContaining('pm_card_visa'),
      }),
    ]);
    const past = await cardToken({ payment_method: 'pm_card_visa', card: { exp_month: 1, exp_year: 2020 } });
    expect(past.status).toBe(422);
    expect(past.body.detail).toEqual([
      { loc: ['body', 'card'], msg: "Your card's expiration year is in the past.", type: 'value_error' },
    ]);
    const month = await cardToken({
      payment_method: 'pm_card_visa',
      card: { exp_month: 13, exp_year: 2031 },
    });
    expect(month.status).toBe(422);
    expect(month.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'card', 'exp_month'], msg: 'A month from 1 to 12.' }),
    ]);
  });

  it('deleting the default card moves its plans to the next card, which becomes the default', async () => {
    const { security, subscriptionId } = await subscriber();
    const [visa] = (await portal().customers.getPaymentMethods(security, {})).result.items;
    const amex = await portal().customers.addPaymentMethod(security, {
      confirmationTokenId: 'pm_card_amex',
      setDefault: false,
      returnUrl: 'https://seller.example/billing',
    });
    await portal().customers.deletePaymentMethod(security, { id: visa!.id });
    const [left] = (await portal().customers.getPaymentMethods(security, {})).result.items;
    expect(left).toMatchObject({ id: amex.id, default: true, card: { brand: 'amex' } });
    expect(await cardOfSubscription(subscriptionId)).toBe('pm_card_amex');
  });

  it('refuses declined cards and cards that ask the bank, at the field, and saves nothing', async () => {
    const { security, call } = await subscriber();
    const declined = await call('POST', 'customers/me/payment-methods', {
      confirmation_token_id: 'pm_card_chargeDeclined',
      set_default: true,
      return_url: 'https://seller.example/billing',
    });
    expect(declined).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ['body', 'confirmation_token_id'],
            msg: 'Your card was declined. Try another card.',
            type: 'value_error',
          },
        ],
      },
    });
    const authenticating = await call('POST', 'customers/me/payment-methods', {
      confirmation_token_id: 'pm_card_authenticationRequiredOnSetup',
      set_default: true,
      return_url: 'https://seller.example/billing',
    });
    // The bank's step comes first (api/v1/customer-portal-card-confirm.int.test.ts): nothing is kept yet.
    expect(authenticating).toMatchObject({ status: 201, body: { status: 'requires_action' } });
    const cards = (await portal().customers.getPaymentMethods(security, {})).result.items;
    expect(cards.map((card) => ('card' in card ? card.card.brand : card.type))).toEqual(['visa']);
  });

  it("answers 404 for another customer's card and 401 to an organization token; one-time buyers have none", async () => {
    const ada = await subscriber();
    const [adasCard] = (await portal().customers.getPaymentMethods(ada.security, {})).result.items;
    const grace = await ada.polar.customers.create({ email: 'grace@example.test' });
    const graceSession = await ada.polar.customerSessions.create({ customerId: grace.id });
    const asGrace = raw(graceSession.token);
    expect((await asGrace('GET', 'customers/me/payment-methods')).body).toMatchObject({
      items: [],
      pagination: { total_count: 0 },
    });
    expect((await asGrace('DELETE', `customers/me/payment-methods/${adasCard!.id}`)).status).toBe(404);
    expect(
      (await asGrace('PATCH', `customers/me/payment-methods/${adasCard!.id}`, { default: true })).status,
    ).toBe(404);
    const asSeller = raw(ada.token);
    expect((await asSeller('GET', 'customers/me/payment-methods')).status).toBe(401);
    expect((await ada.call('DELETE', 'customers/me/payment-methods/not-a-uuid')).status).toBe(422);
  });

  it('dunning: "retry now" tries the card at once (once an hour); a new default card pays the renewal', async () => {
    const { polar, token, plan } = await seller();
    const clockCall = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${env.stack.baseUrl}/v1/test-clocks/${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await response.json()) as { id: string; status: string };
    };
    const clock = await clockCall('POST', '', { name: 'Dunning', frozen_time: '2026-03-01T09:00:00.000Z' });
    const customer = await polar.customers.create({ email: 'lin@example.test' });
    await clockCall('POST', `${clock.id}/customers`, { customer_id: customer.id });
    const { subscriptionId } = await buyInSandbox(
      polar,
      env.stack.baseUrl,
      plan.id,
      customer.id,
      'pm_card_chargeCustomerFail',
    );
    const session = await polar.customerSessions.create({ customerId: customer.id });
    const call = raw(session.token);
    const security = { customerSession: session.token };

    await clockCall('POST', `${clock.id}/advance`, { frozen_time: '2026-04-01T12:00:00.000Z' });
    await eventually(
      () => clockCall('GET', clock.id),
      (value) => value.status === 'ready',
      60_000,
    );
    const pastDue = await env.database.db.subscription.findUniqueOrThrow({ where: { id: subscriptionId! } });
    expect(pastDue).toMatchObject({ status: 'past_due', failedAttempts: 1 });

    const retried = await call('POST', `subscriptions/${subscriptionId}/retry-payment`);
    expect(retried).toMatchObject({ status: 202, body: { id: subscriptionId, status: 'past_due' } });
    await eventually(
      () => env.database.db.subscription.findUniqueOrThrow({ where: { id: subscriptionId! } }),
      (row) => row.failedAttempts === 2,
    );
    const tooSoon = await call('POST', `subscriptions/${subscriptionId}/retry-payment`);
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.body).toMatchObject({
      detail: 'We tried your card at 12:00 UTC. Try again after 13:00 UTC, or use another card.',
    });

    await portal().customers.addPaymentMethod(security, {
      confirmationTokenId: 'pm_card_visa',
      setDefault: true,
      returnUrl: 'https://seller.example/billing',
    });
    await eventually(
      () => polar.subscriptions.get({ id: subscriptionId! }),
      (subscription) => subscription.status === 'active',
    );
    const orders = (await polar.orders.list({ productId: plan.id, limit: 10 })).result.items;
    expect(orders.map((order) => order.status).sort()).toEqual(['paid', 'paid']);
    expect((await call('POST', `subscriptions/${subscriptionId}/retry-payment`)).status).toBe(409);
  });
});
