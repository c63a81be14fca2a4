import { describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';

/** The buyer's calls, limited per client address (the stack trusts the loopback proxy's header). */
describe('rate limit of the buyer’s calls: checkout client endpoints and checkout link URLs', () => {
  const env = useTestStack({ withWorker: false, checkoutClientRateLimitPerMinute: 3 });

  let address = 0;
  /** A client address of its own for each use, so every budget starts full. */
  const nextClient = () => `203.0.113.${(address += 1)}`;

  async function seller() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const product = await polar.products.create({
      name: 'Sticker',
      recurringInterval: null,
      prices: [{ amountType: 'free' }],
    });
    const checkout = await polar.checkouts.create({ products: [product.id] });
    const link = await polar.checkoutLinks.create({ productId: product.id });
    return { polar, checkout, link };
  }

  const call = (client: string, url: string, init: RequestInit = {}) =>
    fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { 'x-forwarded-for': client, 'content-type': 'application/json', ...init.headers },
    });

  async function expectLimited(response: Response) {
    expect(response.status).toBe(429);
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(response.headers.get('x-ratelimit-limit')).toBe('3');
    // The API's error shape.
    expect(await response.json()).toEqual({
      error: 'TooManyRequests',
      detail: 'Rate limit of 3 requests per minute exceeded.',
    });
  }

  it('answers 429 with Retry-After beyond the budget of one address, across get, update and confirm', async () => {
    const { polar, checkout } = await seller();
    const url = `${env.stack.baseUrl}/v1/checkouts/client/${checkout.clientSecret}`;
    const client = nextClient();
    expect((await call(client, url)).status).toBe(200);
    const patched = await call(client, url, {
      method: 'PATCH',
      body: JSON.stringify({ customer_email: 'kim@example.test' }),
    });
    expect(patched.status).toBe(200);
    expect(patched.headers.get('x-ratelimit-remaining')).toBe('1');
    expect((await call(client, url)).status).toBe(200);
    await expectLimited(await call(client, `${url}/confirm`, { method: 'POST', body: '{}' }));
    // Refused before anything ran: the checkout is still open.
    expect((await polar.checkouts.get({ id: checkout.id })).status).toBe('open');

    // Another address has its own budget; the seller's API calls are not the buyer's.
    expect((await call(nextClient(), url)).status).toBe(200);
    expect((await polar.checkouts.get({ id: checkout.id })).id).toBe(checkout.id);
  });

  it('counts checkout link visits in the same budget, and not CORS preflights', async () => {
    const { polar, checkout, link } = await seller();
    const url = `${env.stack.baseUrl}/v1/checkouts/client/${checkout.clientSecret}`;
    const visitor = nextClient();
    const visits = [];
    for (let i = 0; i < 3; i += 1) visits.push((await call(visitor, link.url)).status);
    expect(visits).toEqual([303, 303, 303]);
    await expectLimited(await call(visitor, link.url));
    await expectLimited(await call(visitor, url));
    // Only the admitted visits created checkouts.
    const created = await polar.checkouts.list({});
    expect(created.result.pagination.totalCount).toBe(1 + 3);

    const embedder = nextClient();
    for (let i = 0; i < 5; i += 1) {
      const preflight = await call(embedder, url, {
        method: 'OPTIONS',
        headers: { origin: env.stack.baseUrl, 'access-control-request-method': 'PATCH' },
      });
      expect(preflight.status).toBe(204);
    }
    expect((await call(embedder, url)).status).toBe(200);
  });
});
