import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { createAccessToken, createOrganization } from '../test/factories.js';
import { hasNoHorizontalOverflow } from './portal-support.js';
import { poll, recordPolicyViolations, screenshotPath, useBrowserStack } from './support.js';

const WORKFLOW_TIMEOUT_MS = 90_000;
const PHONE = { width: 390, height: 844 };

// Trial abuse prevention on the hosted checkout at 390 px: a buyer who already had the trial is
// told so beside the button, which now says the full price; confirming again subscribes them,
// charged now, with no trial.
describe('a second trial refused on the checkout page, in Chromium', () => {
  const env = useBrowserStack('trial-abuse');
  const policyViolations: string[] = [];
  afterAll(() => expect(policyViolations).toEqual([]));
  const suffix = randomUUID().slice(0, 8);

  async function api(token: string, method: string, path: string, body?: unknown) {
    const response = await fetch(`${env.baseUrl}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await response.json()) as Record<string, unknown>;
  }

  it('says why there is no trial this time and lets the buyer subscribe at the full price', async () => {
    const organization = await createOrganization(env.database.db, {
      allowMultipleSubscriptions: true,
      preventTrialAbuse: true,
    });
    const token = await createAccessToken(env.database.db, organization.id);
    const product = await api(token, 'POST', '/products/', {
      name: 'Pro',
      recurring_interval: 'month',
      trial_interval: 'day',
      trial_interval_count: 14,
      prices: [{ amount_type: 'fixed', price_amount: 2000, price_currency: 'usd' }],
    });
    const email = `ada-${suffix}@example.test`;
    // Their first trial, bought through the API.
    const first = await api(token, 'POST', '/checkouts/', { products: [product.id] });
    await fetch(`${env.baseUrl}/v1/checkouts/client/${String(first.client_secret)}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.90' },
      body: JSON.stringify({
        customer_email: email,
        customer_name: 'Ada',
        customer_billing_address: {
          country: 'DE',
          city: 'Berlin',
          postal_code: '10117',
          line1: 'Unter den Linden 1',
        },
        confirmation_token_id: 'pm_card_visa',
      }),
    });
    await poll(
      'the first trial',
      async () =>
        (await api(token, 'GET', `/checkouts/${String(first.id)}`)).status === 'succeeded' ? true : undefined,
      WORKFLOW_TIMEOUT_MS,
    );

    const context = await env.browser.newContext({
      locale: 'en-US',
      timezoneId: 'UTC',
      viewport: PHONE,
      extraHTTPHeaders: { 'x-forwarded-for': '203.0.113.91' },
    });
    recordPolicyViolations(context, policyViolations);
    const page = await context.newPage();
    const second = await api(token, 'POST', '/checkouts/', { products: [product.id] });
    await page.goto(String(second.url));
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Cardholder name', { exact: true }).fill('Ada Lovelace');
    await page.getByLabel('Country', { exact: true }).selectOption('DE');
    await page.getByLabel('Card number', { exact: true }).fill('5555 5555 5555 4444');
    await page.getByLabel('Expiry date', { exact: true }).fill('12 / 34');
    await page.getByLabel('Security code', { exact: true }).fill('123');
    await poll('the trial price', async () =>
      (await page.getByTestId('total-amount').textContent()) === '$0.00' ? true : undefined,
    );
    await page.locator('.pay-button').click();

    const notice = page.getByTestId('payment-error');
    await notice.waitFor();
    expect(await notice.textContent()).toBe(
      'You have already had a free trial here: a trial is given once per customer and per card. Nothing was charged. This plan now starts without a free trial, at the price on the button: confirm again to subscribe.',
    );
    await poll('the full price', async () =>
      (await page.getByTestId('total-amount').textContent()) === '$20.00' ? true : undefined,
    );
    expect(await page.locator('.pay-button').textContent()).toContain('$20.00');
    expect(await hasNoHorizontalOverflow(page)).toBe(true);
    await page.screenshot({ path: screenshotPath('trial-abuse-checkout-390'), fullPage: true });

    await page.locator('.pay-button').click();
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor({ timeout: WORKFLOW_TIMEOUT_MS });
    const subscriptionId = await poll(
      'the subscription',
      async () =>
        ((await api(token, 'GET', `/checkouts/${String(second.id)}`)).subscription_id as string) ?? undefined,
      WORKFLOW_TIMEOUT_MS,
    );
    const subscription = await api(token, 'GET', `/subscriptions/${subscriptionId}`);
    expect(subscription).toMatchObject({ status: 'active', trial_end: null });
    await context.close();
  });
});
