// The fields Polar's dated versions require that Tollgate answers with real values (docs/api-versions.md,
// "What differs between versions"): a customer's first ingested event and billing name, a product's
// `is_deletable`, and a free price as the dated versions show it. Read over HTTP with and without a
// Polar-Version, since the unversioned SDKs drop fields they do not know.
import { describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { createAccessToken, createOrder, createOrganization, createProduct } from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';

type Json = Record<string, unknown>;

describe('fields of the dated versions', () => {
  const env = useTestStack({ withWorker: false });

  async function seller() {
    const organization = await createOrganization(env.database.db, { name: 'Dated Fields' });
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
    return { polar, call };
  }

  describe('customer first_user_event_at', () => {
    it('is null until an event is ingested, then the earliest event, a backdated one included', async () => {
      const { call } = await seller();
      const created = await call('POST', '/customers/', {
        email: 'first@example.test',
        external_id: 'first',
      });
      expect(created.body.first_user_event_at).toBeNull();
      const id = created.body.id as string;
      const now = Date.now();
      const earliest = new Date(now - 3_600_000).toISOString();
      expect(
        (
          await call('POST', '/events/ingest', {
            events: [
              { name: 'call', customer_id: id, timestamp: new Date(now - 60_000).toISOString() },
              { name: 'call', external_customer_id: 'first', timestamp: earliest },
            ],
          })
        ).status,
      ).toBe(200);
      expect((await call('GET', `/customers/${id}`, undefined, '2026-10')).body.first_user_event_at).toBe(
        earliest,
      );
      // A later event moves nothing.
      await call('POST', '/events/ingest', { events: [{ name: 'call', customer_id: id }] });
      expect((await call('GET', `/customers/${id}`)).body.first_user_event_at).toBe(earliest);
    });

    it('takes the events sent for an external id before any customer had it', async () => {
      const { call } = await seller();
      const sent = new Date(Date.now() - 7_200_000).toISOString();
      await call('POST', '/events/ingest', {
        events: [{ name: 'call', external_customer_id: 'early-bird', timestamp: sent }],
      });
      const created = await call('POST', '/customers/', {
        email: 'early@example.test',
        external_id: 'early-bird',
      });
      expect(created.body.first_user_event_at).toBe(sent);

      const later = await call('POST', '/customers/', { email: 'later@example.test' });
      expect(later.body.first_user_event_at).toBeNull();
      await call('POST', '/events/ingest', {
        events: [{ name: 'call', external_customer_id: 'later-id', timestamp: sent }],
      });
      const updated = await call('PATCH', `/customers/${later.body.id as string}`, {
        external_id: 'later-id',
      });
      expect(updated.body.first_user_event_at).toBe(sent);
    });
  });

  it("a customer's billing name is theirs to set in the portal, and the seller reads it", async () => {
    const { polar, call } = await seller();
    const customer = await polar.customers.create({ email: 'billing@example.test' });
    expect((await call('GET', `/customers/${customer.id}`)).body.billing_name).toBeNull();
    const { token } = await polar.customerSessions.create({ customerId: customer.id });
    const portal = (method: string, body?: unknown) =>
      fetch(`${env.stack.baseUrl}/v1/customer-portal/customers/me`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          'polar-version': '2026-10',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (answer) => ({ status: answer.status, body: (await answer.json()) as Json }));
    expect((await portal('GET')).body.billing_name).toBeNull();
    const updated = await portal('PATCH', { billing_name: 'Lovelace Analytics Ltd' });
    expect(updated).toMatchObject({ status: 200, body: { billing_name: 'Lovelace Analytics Ltd' } });
    expect((await call('GET', `/customers/${customer.id}`)).body.billing_name).toBe('Lovelace Analytics Ltd');
    // The seller's update does not take it (Polar's CustomerUpdate has no billing_name).
    expect((await call('PATCH', `/customers/${customer.id}`, { billing_name: 'Other' })).status).toBe(422);
  });

  it('a product is deletable until it has an order', async () => {
    const { polar, call } = await seller();
    const product = await createProduct(polar);
    expect((await call('GET', `/products/${product.id}`)).body.is_deletable).toBe(true);
    const order = await createOrder(env.database.db, polar);
    expect((await call('GET', `/products/${order.productId}`)).body.is_deletable).toBe(false);
  });

  /** The product read's 200 answer in a document, with the components it names, as text. */
  async function productAnswerSchema(documentPath: string): Promise<string> {
    const document = (await (await fetch(`${env.stack.baseUrl}${documentPath}`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, unknown> };
    };
    const answer = JSON.stringify(document.paths['/v1/products/{id}']!.get!.responses['200']);
    const named = [...answer.matchAll(/#\/components\/schemas\/([^"]+)/g)].map(([, name]) => name!);
    return answer + JSON.stringify(named.map((name) => document.components.schemas[name]));
  }

  it('a free price reads as free unversioned, and as a fixed price of 0 in every dated version', async () => {
    const { polar, call } = await seller();
    const product = await polar.products.create({
      name: 'Community',
      recurringInterval: 'month',
      prices: [{ amountType: 'free' }],
    });
    const unversioned = await call('GET', `/products/${product.id}`);
    expect((unversioned.body.prices as Json[])[0]).toMatchObject({ amount_type: 'free' });
    expect((unversioned.body.prices as Json[])[0]).not.toHaveProperty('price_amount');
    for (const version of ['2026-04', '2026-10', '2027-01']) {
      const answer = await call('GET', `/products/${product.id}`, undefined, version);
      expect((answer.body.prices as Json[])[0]).toMatchObject({
        id: product.prices[0]!.id,
        amount_type: 'fixed',
        price_currency: 'usd',
        price_amount: 0,
      });
      // The version's document answers no free price (a product create may still send one).
      expect(await productAnswerSchema(`/${version}/openapi.json`)).not.toContain('"const":"free"');
    }
    expect(await productAnswerSchema('/v1/openapi.json')).toContain('"const":"free"');
  });
});
