import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import type { BrowserContext, Page } from 'playwright-core';
import { recordPolicyViolations, screenshotPath, signUpSeller, useBrowserStack } from './support.js';

// Issue 31: the app opened at 127.0.0.1 while PUBLIC_URL names localhost (the shared stack's) works;
// sign-up says the password's length; a 429 from a sign-in or the session check says the wait and
// recovers by itself instead of leaving the page on an error or on "Loading…".
describe('signing in at another loopback address and past rate limits, in Chromium', () => {
  const env = useBrowserStack('sign-in-limits');
  const policyViolations: string[] = [];
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    for (const context of contexts) await context.close();
    expect(policyViolations).toEqual([]);
  });

  const suffix = randomUUID().slice(0, 8);
  const email = `lia-${suffix}@example.test`;
  const password = 'correct horse battery staple';
  /** The stack's own address with 127.0.0.1 for localhost: the same server, another origin. */
  const loopback = () => env.baseUrl.replace('//localhost:', '//127.0.0.1:');

  async function newPage(address: string): Promise<Page> {
    const context = await env.browser.newContext({
      locale: 'en-US',
      extraHTTPHeaders: { 'x-forwarded-for': address },
    });
    contexts.push(context);
    recordPolicyViolations(context, policyViolations);
    return context.newPage();
  }

  /** The dashboard's frame, drawn once the session guard let the page in (with or without an organization). */
  const dashboard = (page: Page) => page.getByTestId('mode-badge');

  it('signs up at 127.0.0.1 with PUBLIC_URL on localhost, saying the password length, and makes changes', async () => {
    expect(env.baseUrl).toMatch(/^http:\/\/localhost:\d+$/);
    const page = await newPage('192.0.2.21');
    await page.goto(`${loopback()}/sign-up`);
    const passwordField = page.getByLabel('Password', { exact: true });
    const hintId = (await passwordField.getAttribute('aria-describedby'))!;
    expect(await page.locator(`[id="${hintId}"]`).textContent()).toBe('At least 8 characters.');
    await page.getByLabel('Name', { exact: true }).fill(`Lia ${suffix}`);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Username', { exact: true }).fill(`lia_${suffix}`);
    await passwordField.fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.locator('.field-error').filter({ hasText: 'Use at least 8 characters.' }).waitFor();
    expect(await passwordField.getAttribute('aria-invalid')).toBe('true');

    // The rest of the way as any seller: the account, then the organization (a signed-in change).
    await signUpSeller(page, loopback(), {
      firstName: 'Lia',
      suffix,
      organizationName: `Loopback ${suffix}`,
    });
    expect(new URL(page.url()).hostname).toBe('127.0.0.1');
    expect(await page.getByText('Invalid origin').count()).toBe(0);
    // /v1 takes the dashboard's changes from this address too.
    const status = await page.evaluate(async () => {
      const session = (await (await fetch('/api/auth/get-session')).json()) as {
        session: { activeOrganizationId: string };
      };
      const response = await fetch('/v1/products/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          organization_id: session.session.activeOrganizationId,
          name: 'Loopback lamp',
          recurring_interval: null,
          prices: [{ amount_type: 'fixed', price_amount: 900, price_currency: 'usd' }],
        }),
      });
      return response.status;
    });
    expect(status).toBe(201);
  });

  it('says the wait of a refused sign-in and signs in by itself once it is over', async () => {
    const page = await newPage('192.0.2.22');
    await page.goto(`${env.baseUrl}/sign-in`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // Three sign-ins from this address within ten seconds use up Better Auth's limit.
    const statuses = await page.evaluate(async (who) => {
      const answers: number[] = [];
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const response = await fetch('/api/auth/sign-in/email', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: who, password: 'not the password' }),
        });
        answers.push(response.status);
      }
      return answers;
    }, email);
    expect(statuses).toEqual([401, 401, 401]);

    await page.getByLabel('Email or username', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const wait = page.getByTestId('rate-limit-wait');
    await wait.waitFor();
    expect(await wait.textContent()).toMatch(
      /^Too many sign-in attempts from this address\. Signing you in again in \d+ seconds?\.$/,
    );
    await page.screenshot({ path: screenshotPath('sign-in-rate-limited'), fullPage: true });
    // Nobody presses anything: the same sign-in goes again after the wait.
    await dashboard(page).waitFor({ timeout: 30_000 });
    expect(await wait.count()).toBe(0);
  });

  it('says the wait of a refused session check and opens the page by itself once it is over', async () => {
    const page = await newPage('192.0.2.23');
    await page.goto(`${env.baseUrl}/sign-in`);
    await page.getByLabel('Email or username', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await dashboard(page).waitFor();

    // Better Auth takes a hundred requests a minute per address and path: use them up.
    const refused = await page.evaluate(async () => {
      for (let attempt = 0; attempt < 150; attempt += 1) {
        if ((await fetch('/api/auth/get-session')).status === 429) return true;
      }
      return false;
    });
    expect(refused).toBe(true);

    await page.goto(`${env.baseUrl}/dashboard`);
    const wait = page.getByTestId('rate-limit-wait');
    await wait.waitFor();
    expect(await wait.textContent()).toMatch(
      /^Too many requests from this address\. Checking your session again in \d+ (second|minute)s?( \d+ seconds?)?\.$/,
    );
    await page.screenshot({ path: screenshotPath('session-rate-limited'), fullPage: true });
    // The window is a minute: the page opens by itself after it, without a reload.
    await dashboard(page).waitFor({ timeout: 90_000 });
    expect(await wait.count()).toBe(0);
  });
});
