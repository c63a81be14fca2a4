import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import type { Page } from 'playwright-core';
import { eventually } from '../test/eventually.js';
import { buyAuthenticatingInSandbox, createAccessToken } from '../test/factories.js';
import { buyerContexts, NARROW, openPortalSection, portalNav } from './portal-support.js';
import { poll, screenshotPath, signUpSeller, useBrowserStack } from './support.js';

/** A clock's catch-up, and a charge made by a subscription's workflow, take seconds. */
const WORKFLOW_TIMEOUT_MS = 90_000;

// Payments that need the buyer: a renewal whose card asks for 3-D Secure reaches them by email and
// is confirmed in the portal through the sandbox's bank page; a plan change billed now says what
// happened to its payment on the spot; and the change's preview names the benefits that change.
describe('payments that need the buyer, in Chromium', () => {
  const env = useBrowserStack('portal-payments');
  const policyViolations: string[] = [];
  afterAll(() => expect(policyViolations).toEqual([]));
  const buyerContext = buyerContexts(() => env.browser, policyViolations, 120);

  const suffix = randomUUID().slice(0, 8);
  let seller: Page;
  let polar: Polar;
  let token = '';
  let monthlyId = '';
  let yearlyId = '';

  it('prepares a seller with a monthly and a yearly plan, each with its benefits', async () => {
    const context = await env.browser.newContext({
      extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.121' },
    });
    seller = await context.newPage();
    const organizationName = `Trail Maps ${suffix}`;
    await signUpSeller(seller, env.baseUrl, { firstName: 'Ines', suffix, organizationName });
    const organization = await env.database.db.organization.findFirstOrThrow({
      where: { name: organizationName },
    });
    token = await createAccessToken(env.database.db, organization.id);
    polar = new Polar({ accessToken: token, serverURL: env.baseUrl });
    const benefit = async (description: string) =>
      (await polar.benefits.create({ type: 'custom', description, properties: { note: null } })).id;
    const [support, maps, priority] = [
      await benefit('Email support'),
      await benefit('Offline maps'),
      await benefit('Priority phone support'),
    ];
    const plan = async (name: string, interval: 'month' | 'year', amount: number, benefits: string[]) => {
      const product = await polar.products.create({
        name,
        recurringInterval: interval,
        prices: [{ amountType: 'fixed', priceAmount: amount, priceCurrency: 'usd' }],
      });
      await polar.products.updateBenefits({ id: product.id, productBenefitsUpdate: { benefits } });
      return product.id;
    };
    monthlyId = await plan('Pro plan', 'month', 2000, [support, maps]);
    yearlyId = await plan('Pro plan (yearly)', 'year', 20_000, [maps, priority]);
  });

  it('a renewal the bank wants confirmed: the email opens the order in the portal, the bank page pays it, the plan is active', async () => {
    const clockCall = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${env.baseUrl}/v1/test-clocks/${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await response.json()) as { id: string; status: string };
    };
    const clock = await clockCall('POST', '', {
      name: `SCA ${suffix}`,
      frozen_time: '2026-03-01T09:00:00.000Z',
    });
    const email = `mira-${suffix}@example.test`;
    const customer = await polar.customers.create({ email, name: 'Mira' });
    await clockCall('POST', `${clock.id}/customers`, { customer_id: customer.id });
    // Bought with 4000 0027 6000 3184, which asks for 3-D Secure on every payment.
    const { subscriptionId } = await buyAuthenticatingInSandbox(polar, env.baseUrl, monthlyId, customer.id);

    await clockCall('POST', `${clock.id}/advance`, { frozen_time: '2026-04-01T12:00:00.000Z' });
    await eventually(
      () => clockCall('GET', clock.id),
      (value) => value.status === 'ready',
      WORKFLOW_TIMEOUT_MS,
    );
    expect((await polar.subscriptions.get({ id: subscriptionId! })).status).toBe('past_due');
    const message = await poll(
      'the email asking to confirm the payment',
      () =>
        env.database.db.emailMessage
          .findFirst({ where: { toAddress: email, subject: 'Confirm your payment for Pro plan' } })
          .then((row) => row ?? undefined),
      WORKFLOW_TIMEOUT_MS,
    );
    expect(message.text).toContain('Your bank asks you to confirm the payment of $20.00 for Pro plan');
    const link = /Confirm your payment: (\S+)/.exec(message.text)?.[1];
    expect(link).toMatch(/\/portal\/[^/]+\/orders\?customer_session_token=tollgate_cst_/);

    const context = await buyerContext();
    const page = await context.newPage();
    await page.goto(link!);
    await page.getByRole('heading', { level: 1, name: 'Orders', exact: true }).waitFor();
    // The link signed the buyer in and left the address bar.
    expect(new URL(page.url()).search).toBe('');
    const order = page
      .getByTestId('portal-order')
      .filter({ has: page.getByTestId('order-payment-confirmation') });
    await order.waitFor();
    expect(await order.getByTestId('order-amount').textContent()).toBe('$20.00');
    await order.getByRole('button', { name: 'Confirm your payment' }).click();
    const bank = order.getByTestId('bank-authentication');
    await bank.getByRole('heading', { name: '3-D Secure test authentication' }).waitFor();
    expect(await bank.textContent()).toContain(
      `Your bank asks you to confirm a payment of $20.00 to Trail Maps ${suffix}.`,
    );
    await page.screenshot({ path: screenshotPath('portal-confirm-payment'), fullPage: true });
    await bank.getByRole('button', { name: 'Complete authentication' }).click();
    await order.getByTestId('payment-confirmed').waitFor({ timeout: WORKFLOW_TIMEOUT_MS });
    expect(await order.getByTestId('payment-confirmed').textContent()).toBe(
      'Your payment of $20.00 went through. Thank you!',
    );
    await order.getByText('Paid', { exact: true }).waitFor({ timeout: WORKFLOW_TIMEOUT_MS });

    await portalNav(page).getByRole('link', { name: 'Overview', exact: true }).click();
    const plan = page.getByTestId('portal-subscription');
    await plan.getByTestId('subscription-status').filter({ hasText: 'Active' }).waitFor();
    expect(await plan.getByTestId('past-due-banner').count()).toBe(0);
    expect((await polar.subscriptions.get({ id: subscriptionId! })).status).toBe('active');
    const paid = await env.database.db.order.findFirstOrThrow({
      where: { subscriptionId: subscriptionId!, billingReason: 'subscription_cycle' },
    });
    expect(paid.status).toBe('paid');
    await context.close();
  });

  it('the plan change preview names the benefits gained and lost, in the dashboard and the portal', async () => {
    const customer = await polar.customers.create({ email: `noor-${suffix}@example.test`, name: 'Noor' });
    const { subscriptionId } = await buyAuthenticatingInSandbox(polar, env.baseUrl, monthlyId, customer.id);

    await seller.goto(`${env.baseUrl}/dashboard/subscriptions/${subscriptionId}`);
    const card = seller.getByRole('region', { name: 'Change plan' });
    await card.getByLabel('New plan', { exact: true }).selectOption({ value: yearlyId });
    await card.getByRole('button', { name: 'Preview change' }).click();
    const dashboardPreview = card.getByTestId('proration-preview');
    await dashboardPreview.waitFor();
    const gainedBySeller = dashboardPreview.getByRole('list', { name: 'The customer gains' });
    const lostBySeller = dashboardPreview.getByRole('list', { name: 'The customer loses' });
    expect(await gainedBySeller.getByRole('listitem').allTextContents()).toEqual(['Priority phone support']);
    expect(await lostBySeller.getByRole('listitem').allTextContents()).toEqual(['Email support']);
    await seller.screenshot({ path: screenshotPath('dashboard-plan-change-benefits'), fullPage: true });

    const context = await buyerContext({ viewport: NARROW });
    const page = await context.newPage();
    await page.goto((await polar.customerSessions.create({ customerId: customer.id })).customerPortalUrl);
    const plan = page.getByTestId('portal-subscription');
    await plan.getByRole('button', { name: 'Change plan' }).click();
    const dialog = page.getByTestId('change-plan-dialog');
    await dialog.getByRole('radio', { name: /Pro plan \(yearly\)/ }).check();
    const preview = dialog.getByTestId('proration-preview');
    await preview.waitFor();
    const gained = preview.getByRole('list', { name: 'You gain' });
    const lost = preview.getByRole('list', { name: 'You lose' });
    expect(await gained.getByRole('listitem').allTextContents()).toEqual(['Priority phone support']);
    expect(await lost.getByRole('listitem').allTextContents()).toEqual(['Email support']);
    await page.screenshot({ path: screenshotPath('portal-plan-change-benefits'), fullPage: true });
    await context.close();
  });

  it('a plan change billed now to a 3-D Secure card leads straight to the bank, never to a success message first', async () => {
    const customer = await polar.customers.create({ email: `omar-${suffix}@example.test`, name: 'Omar' });
    const { subscriptionId } = await buyAuthenticatingInSandbox(polar, env.baseUrl, monthlyId, customer.id);
    const context = await buyerContext();
    const page = await context.newPage();
    await page.goto((await polar.customerSessions.create({ customerId: customer.id })).customerPortalUrl);
    const plan = page.getByTestId('portal-subscription');
    await plan.getByRole('button', { name: 'Change plan' }).click();
    const dialog = page.getByTestId('change-plan-dialog');
    await dialog.getByRole('radio', { name: /Pro plan \(yearly\)/ }).check();
    await dialog.getByTestId('proration-preview').waitFor();
    // Monthly to yearly starts a new period today: the year is billed now, less the unused month.
    expect(await dialog.getByTestId('proration-due-now').textContent()).toMatch(/^\$1[78]\d\.\d\d$/);
    await dialog.getByRole('button', { name: 'Confirm change' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // What the buyer reads says where the payment is, from the moment the change is made.
    const outcome = plan.getByTestId('plan-change-outcome');
    const seen: string[] = [];
    const bank = plan.getByTestId('bank-authentication');
    await poll(
      'the bank page of the change',
      async () => {
        seen.push((await outcome.textContent().catch(() => '')) ?? '');
        return (await bank.count()) > 0 ? true : undefined;
      },
      WORKFLOW_TIMEOUT_MS,
    );
    expect(seen.filter((text) => text.includes('Your plan is now'))).toEqual([]);
    expect(await outcome.textContent()).toMatch(
      /Your bank asks you to confirm the payment of \$1[78]\d\.\d\d for Pro plan \(yearly\)\./,
    );
    await page.screenshot({ path: screenshotPath('portal-plan-change-authentication'), fullPage: true });
    await bank.getByRole('button', { name: 'Complete authentication' }).click();
    await outcome.getByTestId('payment-confirmed').waitFor({ timeout: WORKFLOW_TIMEOUT_MS });
    await plan
      .getByTestId('subscription-status')
      .filter({ hasText: 'Active' })
      .waitFor({ timeout: WORKFLOW_TIMEOUT_MS });
    const subscription = await polar.subscriptions.get({ id: subscriptionId! });
    expect(subscription).toMatchObject({ status: 'active', productId: yearlyId, recurringInterval: 'year' });
    const change = await env.database.db.order.findFirstOrThrow({
      where: { subscriptionId: subscriptionId!, billingReason: 'subscription_update' },
    });
    expect(change.status).toBe('paid');
    expect(change.totalAmount).toBeGreaterThan(17_900);
    expect(change.totalAmount).toBeLessThan(18_100);
    await openPortalSection(page, 'Orders');
    expect(await page.getByTestId('order-payment-confirmation').count()).toBe(0);
    await context.close();
  });
});
