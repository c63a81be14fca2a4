import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { Polar } from 'polar-sdk-0481';
import { findFreePort, spawnLogged, stopChild, waitFor } from '../infra/processes.js';
import { projectRoot } from '../scripts/lib/paths.js';
import { createAccessToken, createOrganization } from '../test/factories.js';
import {
  poll,
  recordPolicyViolations,
  reloadUntilVisible,
  screenshotPath,
  useBrowserStack,
} from './support.js';

const DEMO_DIR = path.join(projectRoot, 'examples', 'better-auth');
/** Orders, subscriptions and webhooks follow a payment through workflows within seconds. */
const WORKFLOW_TIMEOUT_MS = 90_000;

// Polar's Better Auth plugin (@polar-sh/better-auth 1.8.4 on @polar-sh/sdk 0.48.1) in the demo app
// of examples/better-auth, pointed at this stack by its URL and a token: sign-up makes the
// Tollgate customer, the checkout plugin opens the hosted checkout, the portal plugin reads what
// was bought and opens the portal, the usage plugin ingests what a meter counts, and the webhooks
// plugin verifies what Tollgate sends.
describe('the Better Auth demo against Tollgate', () => {
  const env = useBrowserStack('better-auth-demo');
  const policyViolations: string[] = [];
  afterAll(() => expect(policyViolations).toEqual([]));

  const suffix = randomUUID().slice(0, 8);
  const buyer = { name: 'Grace Hopper', email: `grace-${suffix}@example.test` };
  let polar: Polar;
  let productId = '';
  let meterId = '';
  let endpointId = '';
  let demoUrl = '';
  let demo: ChildProcess | undefined;
  let page: Page;

  beforeAll(async () => {
    const organization = await createOrganization(env.database.db, { name: `Demo seller ${suffix}` });
    const token = await createAccessToken(env.database.db, organization.id);
    polar = new Polar({ accessToken: token, serverURL: env.baseUrl });
    productId = (
      await polar.products.create({
        name: `Pro ${suffix}`,
        recurringInterval: 'month',
        prices: [{ amountType: 'fixed', priceAmount: 1500, priceCurrency: 'usd' }],
      })
    ).id;
    meterId = (
      await polar.meters.create({
        name: `API calls ${suffix}`,
        filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'api_call' }] },
        aggregation: { func: 'count' },
      })
    ).id;
    const port = await findFreePort();
    demoUrl = `http://localhost:${port}`;
    const endpoint = await polar.webhooks.createWebhookEndpoint({
      url: `${demoUrl}/api/auth/polar/webhooks`,
      format: 'raw',
      events: [
        'customer.created',
        'customer.updated',
        'customer.state_changed',
        'checkout.created',
        'checkout.updated',
        'order.created',
        'order.paid',
        'order.updated',
        'subscription.created',
        'subscription.active',
        'subscription.updated',
      ],
    });
    endpointId = endpoint.id;

    demo = spawnLogged(path.join(projectRoot, 'node_modules', '.bin', 'tsx'), ['server.ts'], {
      cwd: DEMO_DIR,
      logFile: path.join(env.dataDir, 'logs', 'better-auth-demo.log'),
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        BETTER_AUTH_URL: demoUrl,
        BETTER_AUTH_SECRET: randomBytes(32).toString('base64url'),
        // The two settings a Polar seller changes: Tollgate's address and one of its tokens.
        POLAR_SERVER_URL: env.baseUrl,
        POLAR_ACCESS_TOKEN: token,
        POLAR_WEBHOOK_SECRET: endpoint.secret,
        POLAR_PRODUCT_ID: productId,
        POLAR_PRODUCT_SLUG: 'pro',
        USAGE_EVENT_NAME: 'api_call',
      },
    });
    await waitFor(
      'the demo to listen',
      async () => ((await fetch(`${demoUrl}/health`)).status === 204 ? true : undefined),
      { timeoutMs: 60_000 },
    );
    const context = await env.browser.newContext();
    recordPolicyViolations(context, policyViolations);
    page = await context.newPage();
  });

  afterAll(async () => {
    await page?.context().close();
    if (demo) await stopChild(demo);
  });

  it('signs up in the demo, which creates the Tollgate customer', async () => {
    await page.goto(demoUrl);
    await page.getByLabel('Name', { exact: true }).fill(buyer.name);
    await page.getByLabel('Email').first().fill(buyer.email);
    await page.getByLabel('Password').first().fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByTestId('user-email').filter({ hasText: buyer.email }).waitFor();

    const { result } = await polar.customers.list({ email: buyer.email });
    expect(result.items).toHaveLength(1);
    const [customer] = result.items;
    expect(customer?.name).toBe(buyer.name);
    // The plugin links the customer to the Better Auth user by the user's id.
    expect(customer?.externalId).toMatch(/.+/);
    expect(await page.getByTestId('active-subscriptions').textContent()).toContain('0');
  });

  it('opens the hosted checkout from the demo, pays, and returns to the demo', async () => {
    await page.getByRole('button', { name: 'Subscribe to pro' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${env.baseUrl}/checkout/`));
    await page.getByRole('heading', { name: `Pro ${suffix}` }).waitFor();
    // The checkout knows the customer the plugin named (external_customer_id): the email is theirs.
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(buyer.email);
    await page.getByLabel('Cardholder name', { exact: true }).fill(buyer.name);
    await page.getByLabel('Country', { exact: true }).selectOption('DE');
    await page.getByLabel('Card number', { exact: true }).fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry date', { exact: true }).fill('12 / 34');
    await page.getByLabel('Security code', { exact: true }).fill('123');
    await page.getByRole('button', { name: /^Subscribe: / }).click();
    await page.waitForURL((url) => url.href.startsWith(`${demoUrl}/success?checkout_id=`), {
      timeout: WORKFLOW_TIMEOUT_MS,
    });
    const checkoutId = new URL(page.url()).searchParams.get('checkout_id') ?? '';
    expect((await polar.checkouts.get({ id: checkoutId })).status).toBe('succeeded');
    await page.getByRole('link', { name: 'Back to your account' }).click();
  });

  it("shows the buyer's order and subscription, and opens Tollgate's portal", async () => {
    await reloadUntilVisible(
      page,
      page.getByTestId('subscription-row'),
      'the subscription',
      WORKFLOW_TIMEOUT_MS,
    );
    await reloadUntilVisible(page, page.getByTestId('order-row'), 'the order', WORKFLOW_TIMEOUT_MS);
    expect(await page.getByTestId('subscription-row').textContent()).toContain(`Pro ${suffix}`);
    expect(await page.getByTestId('subscription-row').textContent()).toContain('$15.00');
    expect(await page.getByTestId('subscription-row').textContent()).toContain('active');
    expect(await page.getByTestId('order-row').textContent()).toContain('$15.00');
    expect(await page.getByTestId('order-row').textContent()).toContain('paid');
    expect(await page.getByTestId('active-subscriptions').textContent()).toContain('1');
    await page.screenshot({ path: screenshotPath('better-auth-demo-account'), fullPage: true });

    await page.getByRole('button', { name: 'Open the customer portal' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${env.baseUrl}/portal/`));
    await page.getByRole('heading', { level: 1, name: 'Your purchases' }).waitFor();
    await page.getByText(`Pro ${suffix}`).first().waitFor();
    // The portal plugin's returnUrl: the portal links back to the demo.
    await page.getByRole('link', { name: /^← Back to / }).click();
    await page.waitForURL(`${demoUrl}/`);
  });

  it('ingests usage through the usage plugin, which the meter counts', async () => {
    await page.getByRole('button', { name: 'Record one api_call event' }).click();
    await page.getByRole('status').filter({ hasText: 'Recorded 1 event.' }).waitFor();
    const now = new Date();
    const quantities = await poll('the meter to count the event', async () => {
      const answer = await polar.meters.quantities({
        id: meterId,
        startTimestamp: new Date(now.getTime() - 60 * 60_000),
        endTimestamp: new Date(now.getTime() + 60 * 60_000),
        interval: 'hour',
      });
      return answer.total === 1 ? answer : undefined;
    });
    expect(quantities.total).toBe(1);
    // The refresher recomputes the customer's meter a moment later. Waited for with one API call a
    // probe, not by reloading the demo: each reload makes the demo call Tollgate several times with
    // the same token, and on a loaded machine four reloads a second ran into its rate limit (500 a
    // minute), after which the demo's pages showed errors until the minute was over.
    await poll(
      'the customer meter to count the event',
      async () => {
        const { result } = await polar.customerMeters.list({ meterId });
        return result.items.some((meter) => meter.consumedUnits === 1) ? true : undefined;
      },
      WORKFLOW_TIMEOUT_MS,
    );
    await page.reload();
    expect(await page.getByTestId('meter-consumed').first().textContent()).toBe('1');
  });

  it("received and verified Tollgate's webhooks, order.paid among them", async () => {
    await reloadUntilVisible(
      page,
      page.getByTestId('webhook-row').filter({ hasText: 'order.paid' }),
      'order.paid at the demo',
      WORKFLOW_TIMEOUT_MS,
    );
    await page.screenshot({ path: screenshotPath('better-auth-demo-webhooks'), fullPage: true });
    // Every delivery to the demo was accepted: each payload verified and parsed with 0.48.1's schemas.
    const { result } = await polar.webhooks.listWebhookDeliveries({ endpointId, limit: 100 });
    expect(result.items.length).toBeGreaterThan(0);
    const refused = result.items
      .filter((delivery) => !delivery.succeeded)
      .map((delivery) => `${delivery.webhookEvent.type}: ${delivery.httpCode} ${delivery.response ?? ''}`);
    expect(refused).toEqual([]);
  });
});
