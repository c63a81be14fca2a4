import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { Polar as Polar0332 } from '@polar-sh/sdk';
import { Polar } from 'polar-sdk-0481';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';

// The calls Polar's Better Auth plugin (@polar-sh/better-auth 1.8.4) makes, through the SDK it
// runs on (@polar-sh/sdk 0.48.1) with its response validation on: e2e/better-auth-demo.e2e.test.ts
// runs the plugin itself. Regression: 0.48.1 names the seller's customer id of a customer session
// `external_customer_id` and may send `return_url`; both were a 422, which broke the plugin's
// portal, state, orders, subscriptions and meters endpoints.
describe("the Better Auth plugin's calls through @polar-sh/sdk@0.48.1", () => {
  const env = useTestStack();
  let polar: Polar;
  let token: string;
  const externalId = `user-${randomUUID()}`;
  const email = `ba-${randomUUID().slice(0, 8)}@example.test`;
  let customerId = '';

  beforeAll(async () => {
    const organization = await createOrganization(env.database.db);
    token = await createAccessToken(env.database.db, organization.id);
    polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
  });

  it('sign-up: customers.list by email, create, then update with the external id', async () => {
    expect((await polar.customers.list({ email })).result.items).toEqual([]);
    customerId = (await polar.customers.create({ email, name: 'Ada' })).id;
    const [found] = (await polar.customers.list({ email })).result.items;
    expect(found?.id).toBe(customerId);
    const updated = await polar.customers.update({ id: customerId, customerUpdate: { externalId } });
    expect(updated.externalId).toBe(externalId);
    expect((await polar.customers.getStateExternal({ externalId })).id).toBe(customerId);
  });

  describe('customerSessions.create', () => {
    it("by external_customer_id, with the seller's return_url kept and answered", async () => {
      const session = await polar.customerSessions.create({
        externalCustomerId: externalId,
        returnUrl: 'https://app.example.test/account',
      });
      expect(session).toMatchObject({ customerId, returnUrl: 'https://app.example.test/account' });
      expect(session.customerPortalUrl).toContain(`${env.stack.baseUrl}/portal/`);
      // The portal reads it back with the session's token, to link back to the seller's app.
      const portal = new Polar({ serverURL: env.stack.baseUrl }).customerPortal;
      const introspected = await portal.customerSession.introspect({ customerSession: session.token });
      expect(introspected).toEqual({
        expiresAt: session.expiresAt,
        returnUrl: 'https://app.example.test/account',
      });
    });

    it('by customer_id without a return_url: null', async () => {
      const session = await polar.customerSessions.create({ customerId });
      expect(session.returnUrl).toBeNull();
      const portal = new Polar({ serverURL: env.stack.baseUrl }).customerPortal;
      expect(await portal.customerSession.introspect({ customerSession: session.token })).toMatchObject({
        returnUrl: null,
      });
    });

    it('introspect refuses an organization token, no token and an ended session', async () => {
      const portal = new Polar({ serverURL: env.stack.baseUrl }).customerPortal;
      await expect(portal.customerSession.introspect({ customerSession: token })).rejects.toMatchObject({
        statusCode: 401,
      });
      await expect(portal.customerSession.introspect({ customerSession: '' })).rejects.toMatchObject({
        statusCode: 401,
      });
      const session = await polar.customerSessions.create({ customerId });
      const ended = await fetch(`${env.stack.baseUrl}/v1/customer-portal/customer-session`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${session.token}` },
      });
      expect(ended.status).toBe(204);
      await expect(
        portal.customerSession.introspect({ customerSession: session.token }),
      ).rejects.toMatchObject({
        statusCode: 401,
      });
    });

    it("by 0.33.2's customer_external_id, still", async () => {
      const old = new Polar0332({ accessToken: token, serverURL: env.stack.baseUrl });
      const session = await old.customerSessions.create({ customerExternalId: externalId });
      expect(session.customerId).toBe(customerId);
    });

    it('refuses an unknown external id on its field, a bad return_url, and members', async () => {
      await expect(
        polar.customerSessions.create({ externalCustomerId: `nobody-${randomUUID()}` }),
      ).rejects.toMatchObject({
        statusCode: 422,
        detail: [{ loc: ['body', 'external_customer_id'], msg: 'Customer does not exist.' }],
      });
      await expect(
        polar.customerSessions.create({ externalCustomerId: externalId, returnUrl: 'javascript:alert(1)' }),
      ).rejects.toMatchObject({ statusCode: 422 });
      await expect(
        polar.customerSessions.create({ externalCustomerId: externalId, memberId: randomUUID() }),
      ).rejects.toMatchObject({
        statusCode: 422,
        detail: [{ loc: ['body', 'member_id'], type: 'feature_not_available' }],
      });
      // Nothing of the refusals was kept: the sessions of the tests above (one of them ended).
      expect(await env.database.db.customerSession.count({ where: { customerId } })).toBe(3);
    });
  });

  it("the portal plugin's lists and the usage plugin's meters, with the session's token", async () => {
    const { token: customerSession } = await polar.customerSessions.create({
      externalCustomerId: externalId,
    });
    const portal = new Polar({ serverURL: env.stack.baseUrl }).customerPortal;
    expect((await portal.orders.list({ customerSession }, {})).result.items).toEqual([]);
    expect((await portal.subscriptions.list({ customerSession }, {})).result.items).toEqual([]);
    expect((await portal.benefitGrants.list({ customerSession }, {})).result.items).toEqual([]);
    expect((await portal.customerMeters.list({ customerSession }, {})).result.items).toEqual([]);
  });

  // Regression: a checkout for an existing customer's external id (all the plugin sends) opened
  // empty, as if for a stranger; Polar links it to the customer.
  it("checkout: external_customer_id of an existing customer names them; an unknown one doesn't", async () => {
    const productId = (
      await polar.products.create({
        name: 'Pro',
        recurringInterval: 'month',
        prices: [{ amountType: 'fixed', priceAmount: 1500, priceCurrency: 'usd' }],
      })
    ).id;
    const known = await polar.checkouts.create({ products: [productId], externalCustomerId: externalId });
    expect(known).toMatchObject({
      customerId,
      customerEmail: email,
      customerName: 'Ada',
      externalCustomerId: externalId,
    });
    const unknown = await polar.checkouts.create({ products: [productId], externalCustomerId: 'nobody-yet' });
    expect(unknown).toMatchObject({
      customerId: null,
      customerEmail: null,
      externalCustomerId: 'nobody-yet',
    });
  });

  it('usage: events.ingest by external_customer_id', async () => {
    const answer = await polar.events.ingest({
      events: [{ name: 'api_call', externalCustomerId: externalId, metadata: { source: 'demo' } }],
    });
    expect(answer.inserted).toBe(1);
    const event = await env.database.db.event.findFirstOrThrow({ where: { externalCustomerId: externalId } });
    expect(event.customerId).toBe(customerId);
  });

  it('subscriptions.list by a metadata referenceId', async () => {
    const page = await polar.subscriptions.list({ metadata: { referenceId: 'org-1' } });
    expect(page.result.items).toEqual([]);
  });
});
