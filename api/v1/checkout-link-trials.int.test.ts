import { describe, expect, it } from '@jest/globals';
import { Polar } from 'polar-sdk-0481';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { callV1 } from '../../test/http.js';
import { useTestStack } from '../../test/stack.js';

// A checkout link's own trial (`trial_interval(_count)`, @polar-sh/sdk@0.48.1's CheckoutLink
// shapes) overrides its product's in the checkouts it opens; both or neither, as a product's.
describe("checkout links' trials", () => {
  const env = useTestStack();

  async function seller() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    const call = (method: string, path: string, body?: unknown) =>
      callV1(env.stack.baseUrl, token, method, path, body);
    const product = await call('POST', '/products/', {
      name: 'Pro',
      recurring_interval: 'month',
      trial_interval: 'day',
      trial_interval_count: 14,
      prices: [{ amount_type: 'fixed', price_amount: 2000, price_currency: 'usd' }],
    });
    expect(product.status).toBe(201);
    return {
      call,
      productId: (product.body as { id: string }).id,
      polar: new Polar({ accessToken: token, serverURL: env.stack.baseUrl }),
    };
  }

  /** Follows the link as a buyer's script would: the checkout it opened, by its client secret. */
  async function visit(url: string) {
    const response = await fetch(url, { redirect: 'manual' });
    expect(response.status).toBe(303);
    const clientSecret = new URL(response.headers.get('location')!).pathname.replace('/checkout/', '');
    const answer = await fetch(`${env.stack.baseUrl}/v1/checkouts/client/${clientSecret}`);
    return (await answer.json()) as Record<string, unknown>;
  }

  it("opens checkouts with the link's trial instead of the product's, and the product's once cleared", async () => {
    const { call, productId, polar } = await seller();
    // Through 0.48.1, with its response validation on.
    const link = await polar.checkoutLinks.create({
      paymentProcessor: 'stripe',
      productId,
      trialInterval: 'week',
      trialIntervalCount: 2,
    });
    expect(link).toMatchObject({ trialInterval: 'week', trialIntervalCount: 2 });
    expect(await visit(link.url)).toMatchObject({
      trial_interval: 'week',
      trial_interval_count: 2,
      active_trial_interval: 'week',
      active_trial_interval_count: 2,
      is_payment_required: false,
    });

    const cleared = await call('PATCH', `/checkout-links/${link.id}`, {
      trial_interval: null,
      trial_interval_count: null,
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ trial_interval: null, trial_interval_count: null });
    expect(await visit(link.url)).toMatchObject({
      trial_interval: null,
      active_trial_interval: 'day',
      active_trial_interval_count: 14,
    });
  });

  it('refuses half a trial and out-of-range counts, changing nothing', async () => {
    const { call, productId } = await seller();
    const half = await call('POST', '/checkout-links/', { product_id: productId, trial_interval: 'month' });
    expect(half.status).toBe(422);
    expect(half.body.detail).toEqual([
      expect.objectContaining({
        loc: ['body', 'trial_interval_count'],
        msg: 'Both trial_interval and trial_interval_count must be set together.',
      }),
    ]);
    const zero = await call('POST', '/checkout-links/', {
      product_id: productId,
      trial_interval: 'day',
      trial_interval_count: 0,
    });
    expect(zero.status).toBe(422);
    const links = await call('GET', '/checkout-links/');
    expect((links.body as { items: unknown[] }).items).toHaveLength(0);

    const made = await call('POST', '/checkout-links/', {
      product_id: productId,
      trial_interval: 'day',
      trial_interval_count: 3,
    });
    expect(made.status).toBe(201);
    const id = (made.body as { id: string }).id;
    const halfUpdate = await call('PATCH', `/checkout-links/${id}`, { trial_interval_count: 5 });
    expect(halfUpdate.status).toBe(422);
    expect((await call('GET', `/checkout-links/${id}`)).body).toMatchObject({
      trial_interval: 'day',
      trial_interval_count: 3,
    });
  });
});
