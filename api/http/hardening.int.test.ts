import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { signUpUser } from '../../test/auth-client.js';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';

// An install under a hidden folder (~/.local/share/tollgate) used to answer 500 for every page.
const webRoot = mkdtempSync(path.join(os.tmpdir(), 'tollgate-web-'));
const webDir = path.join(webRoot, '.hidden', 'dist', 'web');
mkdirSync(path.join(webDir, 'assets'), { recursive: true });
writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Tollgate</title>');
writeFileSync(path.join(webDir, 'assets', 'app.js'), 'console.log(1);');

describe('hardening of the API and the pages', () => {
  const env = useTestStack({ webDir, withWorker: false });
  afterAll(() => rmSync(webRoot, { recursive: true, force: true }));

  const url = (pathname: string) => `${env.stack.baseUrl}${pathname}`;

  async function sellerSession() {
    const user = await signUpUser(env.stack.baseUrl);
    const created = await user.client.organization.create({ name: 'Csrf Co', slug: `csrf-${Date.now()}` });
    return { user, organizationId: created.data!.id };
  }

  describe('cookie-authenticated changes to /v1 (CSRF)', () => {
    it('refuses a foreign or missing Origin, accepts the dashboard’s own, and leaves bearer tokens alone', async () => {
      const { user, organizationId } = await sellerSession();
      const create = (headers: Record<string, string>) =>
        fetch(url('/v1/webhooks/endpoints'), {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: user.cookieHeader(), ...headers },
          body: JSON.stringify({
            url: 'https://hooks.example.test/',
            format: 'raw',
            events: ['order.paid'],
            organization_id: organizationId,
          }),
        });
      const evil = await create({ origin: 'http://evil.example' });
      expect(evil.status).toBe(403);
      expect(await evil.json()).toMatchObject({
        error: 'NotPermitted',
        detail: expect.stringMatching(/must come from the dashboard.*PUBLIC_URL.*TRUSTED_ORIGINS/),
      });
      expect((await create({})).status).toBe(403);
      expect((await create({ origin: 'null' })).status).toBe(403);
      expect(await env.database.db.webhookEndpoint.count({ where: { organizationId } })).toBe(0);
      expect((await create({ origin: env.stack.baseUrl })).status).toBe(201);

      // A form post from another site: no body, no Origin.
      const token = await fetch(url('/v1/organization-access-tokens/'), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          cookie: user.cookieHeader(),
          origin: 'http://evil.example',
        },
        body: JSON.stringify({ organization_id: organizationId, comment: 'stolen' }),
      });
      expect(token.status).toBe(403);
      // Reads need no Origin (a browser sends none on a same-origin GET).
      const list = await fetch(url(`/v1/webhooks/endpoints?organization_id=${organizationId}`), {
        headers: { cookie: user.cookieHeader() },
      });
      expect(list.status).toBe(200);

      const bearer = await fetch(url('/v1/webhooks/endpoints'), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: 'http://evil.example',
          authorization: `Bearer ${await createAccessToken(env.database.db, organizationId)}`,
        },
        body: JSON.stringify({ url: 'https://hooks.example.test/2', format: 'raw', events: [] }),
      });
      expect(bearer.status).toBe(201);
    });
  });

  describe('body limits', () => {
    it('refuses a large body to /api/auth before Better Auth reads it', async () => {
      const response = await fetch(url('/api/auth/sign-in/email'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: env.stack.baseUrl },
        body: JSON.stringify({ email: 'a@example.test', password: 'x'.repeat(200 * 1024) }),
      });
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: expect.any(String) });
    });

    it('authenticates /v1 callers before reading their body, and keeps buyers’ bodies small', async () => {
      const anonymous = await fetch(url('/v1/products/'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
      });
      expect(anonymous.status).toBe(401);
      const buyer = await fetch(url('/v1/checkouts/client/tollgate_c_nope'), {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ customer_name: 'x'.repeat(128 * 1024) }),
      });
      expect(buyer.status).toBe(413);
    });
  });

  describe('security headers', () => {
    it('serves the pages from a hidden folder with a strict policy that nobody may frame', async () => {
      for (const pathname of ['/', '/dashboard', '/sign-in']) {
        const response = await fetch(url(pathname));
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toContain('text/html');
        const policy = response.headers.get('content-security-policy') ?? '';
        expect(policy).toContain("default-src 'self'");
        expect(policy).toContain("frame-ancestors 'none'");
        expect(policy).not.toContain('js.stripe.com');
        expect(response.headers.get('x-frame-options')).toBe('DENY');
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      }
      const asset = await fetch(url('/assets/app.js'));
      expect(asset.status).toBe(200);
      expect(await asset.text()).toBe('console.log(1);');
      expect((await fetch(url('/assets/%E0%A4%A'))).status).toBeLessThan(500);
      expect((await fetch(url('/v1/openapi.json'))).headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('lets exactly the checkout’s embed origin frame a hosted checkout', async () => {
      const organization = await createOrganization(env.database.db);
      const polar = new Polar({
        accessToken: await createAccessToken(env.database.db, organization.id),
        serverURL: env.stack.baseUrl,
      });
      const product = await polar.products.create({
        name: 'Embedded',
        recurringInterval: null,
        prices: [{ amountType: 'fixed', priceAmount: 1000, priceCurrency: 'usd' }],
      });
      const embedded = await polar.checkouts.create({
        products: [product.id],
        embedOrigin: 'https://shop.example',
      });
      for (const pathname of [
        `/checkout/${embedded.clientSecret}`,
        `/checkout/${embedded.clientSecret}/confirmation`,
      ]) {
        const response = await fetch(url(pathname));
        expect(response.headers.get('content-security-policy')).toContain(
          'frame-ancestors https://shop.example',
        );
        expect(response.headers.get('x-frame-options')).toBeNull();
      }
      const plain = await polar.checkouts.create({ products: [product.id] });
      const response = await fetch(url(`/checkout/${plain.clientSecret}`));
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      const unknown = await fetch(url('/checkout/tollgate_c_unknown'));
      expect(unknown.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    });
  });
});
