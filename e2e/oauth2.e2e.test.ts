// An OAuth app's whole authorization-code flow with PKCE in Chromium (docs/oauth2.md): the app
// sends the user to the consent page, the user picks an organization and allows, the browser lands
// on the app's redirect URI with the code and state, and the app's token works on /v1. A user who
// is signed out signs in first and comes back to the same request.
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

  it('sends a signed-out user to sign in and back to the same consent request', async () => {
    const suffix = randomUUID().slice(0, 8);
    const credentials = {
      name: 'Bea Browser',
      email: `bea-${suffix}@example.test`,
      username: `bea_${suffix}`,
      password: 'correct horse battery staple',
    };
    const signedUp = await fetch(`${env.baseUrl}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: env.baseUrl },
      body: JSON.stringify(credentials),
    });
    expect(signedUp.status).toBe(200);
    const cookie = signedUp.headers
      .getSetCookie()
      .map((header) => header.split(';')[0])
      .join('; ');
    // A browser app: a public client, so PKCE is what binds the code to it.
    const redirectUri = `${env.baseUrl}/notes-callback`;
    const registered = await fetch(`${env.baseUrl}/v1/oauth2/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: env.baseUrl, cookie },
      body: JSON.stringify({
        client_name: 'Acme Notes',
        redirect_uris: [redirectUri],
        scope: 'openid email',
        token_endpoint_auth_method: 'none',
      }),
    });
    expect(registered.status).toBe(201);
    const app = (await registered.json()) as { client_id: string };

    const verifier = randomBytes(32).toString('base64url');
    // A state of digits, which the page's router would read as a number: it comes back as sent.
    const query = new URLSearchParams({
      client_id: app.client_id,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid email',
      state: '20261202',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${env.baseUrl}/oauth2/authorize?${query.toString()}`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).searchParams.get('return_to')).toBe(`/oauth2/authorize?${query.toString()}`);
    await page.getByLabel('Email or username', { exact: true }).fill(credentials.username);
    await page.getByLabel('Password', { exact: true }).fill(credentials.password);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.getByRole('heading', { level: 1, name: 'Allow Acme Notes?' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/oauth2/authorize');
    expect(await page.getByTestId('consent-scopes').textContent()).toContain('See your email address');
    await page.getByRole('button', { name: 'Allow', exact: true }).click();
    await page.waitForURL(/\/notes-callback\?/);
    const callback = new URL(page.url());
    expect(callback.searchParams.get('state')).toBe('20261202');
    const token = await fetch(`${env.baseUrl}/v1/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: app.client_id,
        code: callback.searchParams.get('code') ?? '',
        redirect_uri: redirectUri,
        code_verifier: verifier,
      }),
    });
    expect(token.status).toBe(200);
    const { access_token: accessToken } = (await token.json()) as { access_token: string };
    expect(await new Polar({ serverURL: env.baseUrl, accessToken }).oauth2.userinfo()).toMatchObject({
      email: credentials.email,
    });
    await context.close();
  });
});
