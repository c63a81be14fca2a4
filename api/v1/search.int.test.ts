import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { searchResultsSchema, type SearchResults } from '../../domain/search/schemas.js';
import { signUpUser } from '../../test/auth-client.js';
import {
  addMember,
  createAccessToken,
  createCustomer,
  createOrder,
  createOrganization,
  createProduct,
} from '../../test/factories.js';
import { callV1 } from '../../test/http.js';
import { useTestStack } from '../../test/stack.js';

describe('GET /v1/search/', () => {
  const env = useTestStack({ withWorker: false });

  async function seller(scopes?: string[]) {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id, { scopes });
    return { organization, token, polar: new Polar({ accessToken: token, serverURL: env.stack.baseUrl }) };
  }

  const marker = () => `find${randomUUID().slice(0, 8)}`;

  async function searchWith(token: string, query: Record<string, string>) {
    const answer = await callV1(env.stack.baseUrl, token, 'GET', `/search/?${new URLSearchParams(query)}`);
    return answer;
  }

  async function found(token: string, query: Record<string, string>): Promise<SearchResults> {
    const answer = await searchWith(token, query);
    expect(answer.status).toBe(200);
    return searchResultsSchema.parse(answer.body);
  }

  const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);

  it('answers 401 without credentials', async () => {
    const response = await fetch(`${env.stack.baseUrl}/v1/search/?query=ada`);
    expect(response.status).toBe(401);
  });

  it('finds customers by part of their email or name, orders and products by id or name', async () => {
    const { token, polar } = await seller();
    const text = marker();
    const byEmail = await createCustomer(polar, { email: `${text}@example.test` });
    const byName = await createCustomer(polar, { name: `Ada ${text.toUpperCase()} Lovelace` });
    const product = await createProduct(polar, { name: `Field guide ${text}` });
    const order = await createOrder(env.database.db, polar);

    // Case-insensitive parts of an email and a name.
    const customers = await found(token, { query: text.toUpperCase() });
    expect(new Set(ids(customers.customers))).toEqual(new Set([byEmail.id, byName.id]));
    expect(ids(customers.products)).toEqual([product.id]);
    expect(customers.orders).toEqual([]);

    // An order by its whole id, with what the dashboard shows of it.
    const byId = await found(token, { query: order.id.toUpperCase() });
    expect(byId.orders).toEqual([
      {
        id: order.id,
        created_at: order.createdAt.toISOString(),
        status: 'paid',
        total_amount: order.totalAmount,
        currency: order.currency,
        customer_email: expect.stringMatching(/@example\.test$/),
        product_name: expect.any(String),
      },
    ]);
    // An order by the number its buyer's receipt and confirmation page show.
    expect(ids((await found(token, { query: order.id.slice(0, 8).toUpperCase() })).orders)).toEqual([
      order.id,
    ]);
    // The order's customer, by the email the order shows.
    const orderCustomer = await found(token, { query: byId.orders[0]!.customer_email });
    expect(ids(orderCustomer.orders)).toEqual([order.id]);
    expect(ids(orderCustomer.customers)).toEqual([order.customerId]);

    // A product by its id; a part of a product's id names nothing.
    expect(ids((await found(token, { query: product.id })).products)).toEqual([product.id]);
    expect(await found(token, { query: product.id.slice(0, 8) })).toEqual({
      customers: [],
      orders: [],
      products: [],
    });
    // LIKE's wildcards are searched as text.
    const literal = await createCustomer(polar, { name: 'Half_price 50% off' });
    expect(ids((await found(token, { query: '%' })).customers)).toEqual([literal.id]);
    expect(ids((await found(token, { query: '_' })).customers)).toEqual([literal.id]);
    expect(ids((await found(token, { query: '0% o' })).customers)).toEqual([literal.id]);
  });

  it('returns at most `limit` of each kind, newest first, and no deleted customer', async () => {
    const { token, polar } = await seller();
    const text = marker();
    const made = [];
    for (let i = 0; i < 4; i += 1)
      made.push(await createCustomer(polar, { email: `${text}-${i}@example.test` }));
    await polar.customers.delete({ id: made[3]!.id });
    expect(ids((await found(token, { query: text })).customers)).toEqual([
      made[2]!.id,
      made[1]!.id,
      made[0]!.id,
    ]);
    expect(ids((await found(token, { query: text, limit: '2' })).customers)).toEqual([
      made[2]!.id,
      made[1]!.id,
    ]);
  });

  it("never returns another organization's rows", async () => {
    const ours = await seller();
    const theirs = await seller();
    const text = marker();
    const own = await createCustomer(ours.polar, { email: `${text}@ours.test` });
    const foreignCustomer = await createCustomer(theirs.polar, { email: `${text}@theirs.test` });
    const foreignProduct = await createProduct(theirs.polar, { name: `Theirs ${text}` });
    const foreignOrder = await createOrder(env.database.db, theirs.polar);

    expect(ids((await found(ours.token, { query: text })).customers)).toEqual([own.id]);
    for (const id of [foreignCustomer.id, foreignProduct.id, foreignOrder.id]) {
      expect(await found(ours.token, { query: id })).toEqual({ customers: [], orders: [], products: [] });
    }
    // A token names only its own organization: another's id finds nothing.
    expect(await found(ours.token, { query: text, organization_id: theirs.organization.id })).toEqual({
      customers: [],
      orders: [],
      products: [],
    });

    // A signed-in member searches the organization they name, and never one they are not in.
    const member = await signUpUser(env.stack.baseUrl);
    await addMember(env.database.db, ours.organization.id, member.user.id, 'member');
    const asMember = (query: Record<string, string>) =>
      fetch(`${env.stack.baseUrl}/v1/search/?${new URLSearchParams(query)}`, {
        headers: member.sessionHeaders(),
      });
    const mine = await asMember({ query: text });
    expect(ids(searchResultsSchema.parse(await mine.json()).customers)).toEqual([own.id]);
    const foreign = await asMember({ query: text, organization_id: theirs.organization.id });
    expect(searchResultsSchema.parse(await foreign.json())).toEqual({
      customers: [],
      orders: [],
      products: [],
    });

    // In two organizations, the member says which one.
    await addMember(env.database.db, theirs.organization.id, member.user.id, 'member');
    const ambiguous = await asMember({ query: text });
    expect(ambiguous.status).toBe(422);
    expect(await ambiguous.json()).toEqual({
      detail: [{ loc: ['query', 'organization_id'], msg: expect.any(String), type: 'value_error' }],
    });
    const named = await asMember({ query: text, organization_id: theirs.organization.id });
    expect(ids(searchResultsSchema.parse(await named.json()).customers)).toEqual([foreignCustomer.id]);
  });

  it('shows a token only the kinds its scopes may read', async () => {
    const full = await seller();
    const text = marker();
    const customer = await createCustomer(full.polar, { email: `${text}@example.test` });
    const product = await createProduct(full.polar, { name: `Kit ${text}` });
    const scoped = (scopes: string[]) => createAccessToken(env.database.db, full.organization.id, { scopes });

    const customersOnly = await found(await scoped(['customers:read']), { query: text });
    expect(customersOnly).toEqual({
      customers: [expect.objectContaining({ id: customer.id })],
      orders: [],
      products: [],
    });
    const withProducts = await found(await scoped(['customers:read', 'products:read']), { query: text });
    expect(ids(withProducts.products)).toEqual([product.id]);

    const productsOnly = await searchWith(await scoped(['products:read']), { query: text });
    expect(productsOnly).toEqual({
      status: 403,
      body: { error: 'NotPermitted', detail: 'The access token lacks the customers:write scope.' },
    });
  });

  it('answers 422 at the field for a missing, blank, too long or malformed input', async () => {
    const { token } = await seller();
    const cases: [Record<string, string>, (string | number)[]][] = [
      [{}, ['query', 'query']],
      [{ query: '   ' }, ['query', 'query']],
      [{ query: 'x'.repeat(257) }, ['query', 'query']],
      [{ query: 'a\u0000b' }, ['query', 'query']],
      [{ query: 'ada', limit: '0' }, ['query', 'limit']],
      [{ query: 'ada', limit: '21' }, ['query', 'limit']],
      [{ query: 'ada', organization_id: 'not-a-uuid' }, ['query', 'organization_id']],
    ];
    for (const [query, loc] of cases) {
      const answer = await searchWith(token, query);
      expect(answer.status).toBe(422);
      expect(answer.body.detail?.map((issue) => issue.loc)).toEqual([loc]);
    }
  });
});
