// An OAuth app's whole authorization-code flow with PKCE in Chromium (docs/oauth2.md): the app
// sends the user to the consent page, the user picks an organization and allows, the browser lands
// on the app's redirect URI with the code and state, and the app's token works on /v1.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { Polar } from 'polar-sdk-0481';
import { screenshotPath, useBrowserStack } from './support.js';

describe('OAuth consent in Chromium', () => {
  const env = useBrowserStack('oauth2');

  it('allows an app for a chosen organization at 390 px; its token reads the products', async () => {
    const suffix = randomUUID().slice(0, 8);
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${env.baseUrl}/sign-up`);
    await page.getByLabel('Name', { exact: true }).fill('Ada App-User');
    await page.getByLabel('Email', { exact: true }).fill(`ada-${suffix}@example.test`);
    await page.getByLabel('Username', { exact: true }).fill(`ada_${suffix}`);
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview', exact: true }).waitFor();
    await page.getByLabel('Organization name', { exact: true }).fill(`Gadgets ${suffix}`);
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.getByRole('navigation', { name: 'Dashboard' }).waitFor();
    // The consent page is for a phone as much as for a desk.
    await page.setViewportSize({ width: 390, height: 844 });

    // The app's developer registers it with the same session (the page's cookies).
    const redirectUri = `${env.baseUrl}/app-callback`;
    const registered = await page.request.post(`${env.baseUrl}/v1/oauth2/register`, {
      headers: { origin: env.baseUrl },
      data: { client_name: 'Acme Analytics', redirect_uris: [redirectUri], scope: 'openid products:read' },
    });
    expect(registered.status()).toBe(201);
    const app = (await registered.json()) as { client_id: string; client_secret: string };

    const verifier = randomBytes(32).toString('base64url');
    const query = new URLSearchParams({
      client_id: app.client_id,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'products:read',
      state: 'st-1',
      sub_type: 'organization',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });

    // A redirect URI the app did not register is shown as an error, and the page stays here.
    await page.goto(
      `${env.baseUrl}/oauth2/authorize?${query.toString().replace(encodeURIComponent(redirectUri), encodeURIComponent('https://evil.example/cb'))}`,
    );
    await page.getByRole('heading', { name: 'This app cannot be allowed' }).waitFor();
    expect(page.url()).toContain('/oauth2/authorize');

    await page.goto(`${env.baseUrl}/oauth2/authorize?${query.toString()}`);
    await page.getByRole('heading', { level: 1, name: 'Allow Acme Analytics?' }).waitFor();
    expect(await page.getByTestId('consent-scopes').textContent()).toContain('See products');
    expect(
      await page.evaluate<boolean>(
        'document.documentElement.scrollWidth <= document.documentElement.clientWidth',
      ),
    ).toBe(true);
    await page.screenshot({ path: screenshotPath('oauth2-consent'), fullPage: true });
    await page.getByRole('radio', { name: `Gadgets ${suffix}` }).check();
    await page.getByRole('button', { name: 'Allow', exact: true }).click();
    await page.waitForURL(/\/app-callback\?/);

    const callback = new URL(page.url());
    expect(callback.searchParams.get('state')).toBe('st-1');
    const token = await fetch(`${env.baseUrl}/v1/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: app.client_id,
        client_secret: app.client_secret,
        code: callback.searchParams.get('code') ?? '',
        redirect_uri: redirectUri,
        code_verifier: verifier,
      }),
    });
    expect(token.status).toBe(200);
    const { access_token: accessToken } = (await token.json()) as { access_token: string };
    const products = await new Polar({ serverURL: env.baseUrl, accessToken }).products.list({});
    expect(products.result.items).toEqual([]);
    await context.close();
  });
});
