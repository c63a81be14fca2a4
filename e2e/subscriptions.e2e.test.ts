import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { addMember } from '../test/factories.js';
import {
  poll,
  recordPolicyViolations,
  reloadUntilVisible,
  screenshotPath,
  useBrowserStack,
  signUpSeller,
} from './support.js';

/** The workflows (checkout fulfilment, a clock's catch-up, charges) answer within this. */
const WORKFLOW_TIMEOUT_MS = 90_000;

// A plan sold on the hosted checkout to a customer on a test clock, then renewed (by advancing the
// clock), changed and cancelled from the dashboard, on one stack.
describe('subscriptions in Chromium', () => {
  const env = useBrowserStack('subscriptions');
  // Every page works under its Content-Security-Policy: nothing it needs was refused.
  const policyViolations: string[] = [];
  afterAll(() => expect(policyViolations).toEqual([]));

  const suffix = randomUUID().slice(0, 8);
  const buyerEmail = `buyer-${suffix}@example.test`;
  const clockName = `Launch month ${suffix}`;
  let seller: Page;
  let organizationId = '';
  let starterId = '';

  const navigation = (page: Page, name: string) =>
    page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name, exact: true });

  it('prepares a seller with two monthly plans and a customer', async () => {
    const context = await env.browser.newContext({
      extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.21' },
    });
    recordPolicyViolations(context, policyViolations);
    seller = await context.newPage();
    await signUpSeller(seller, env.baseUrl, {
      firstName: 'Sol',
      suffix,
      organizationName: `Plans ${suffix}`,
    });
    await navigation(seller, 'Subscriptions').waitFor();
    // Sandbox mode: the dashboard offers test clocks.
    await navigation(seller, 'Test clocks').waitFor();
    organizationId = (
      await env.database.db.organization.findFirstOrThrow({ where: { name: `Plans ${suffix}` } })
    ).id;

    // The plans come from the API with the page's own session, as the products page would make them.
    starterId = await seller.evaluate(async (organization) => {
      const createPlan = async (name: string, amount: number) => {
        const response = await fetch('/v1/products/', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            organization_id: organization,
            name,
            recurring_interval: 'month',
            prices: [{ amount_type: 'fixed', price_amount: amount, price_currency: 'usd' }],
          }),
        });
        if (!response.ok) throw new Error(`${name}: ${response.status} ${await response.text()}`);
        return ((await response.json()) as { id: string }).id;
      };
      const starter = await createPlan('Starter', 1000);
      await createPlan('Pro', 3000);
      return starter;
    }, organizationId);

    await navigation(seller, 'Customers').click();
    await seller.getByLabel('Customer email', { exact: true }).fill(buyerEmail);
    await seller.getByLabel('Customer name', { exact: true }).fill('Bea Buyer');
    await seller.getByRole('button', { name: 'Add customer' }).click();
    await seller.getByTestId('customer-row').filter({ hasText: buyerEmail }).waitFor();
  });

  it('creates a test clock and attaches the customer to it', async () => {
    await navigation(seller, 'Test clocks').click();
    await seller.getByLabel('Clock name').fill(clockName);
    await seller.getByRole('button', { name: 'Create test clock' }).click();
    // The new clock opens.
    await seller.getByRole('heading', { level: 1, name: clockName }).waitFor();
    await seller.getByTestId('test-clock-status').filter({ hasText: 'Ready' }).waitFor();

    // A time before the clock's own is refused, next to the field.
    const advanceTo = seller.getByLabel('Advance to', { exact: true });
    await advanceTo.fill('2020-01-01T09:00');
    await seller.getByRole('button', { name: 'Advance', exact: true }).click();
    await seller
      .locator('.checkout-field', { has: advanceTo })
      .locator('.field-error')
      .filter({ hasText: 'after its current time' })
      .waitFor();

    await seller.getByLabel('Customer', { exact: true }).selectOption({ label: buyerEmail });
    await seller.getByRole('button', { name: 'Attach customer' }).click();
    await seller.getByRole('region', { name: `Customer ${buyerEmail}` }).waitFor();

    await navigation(seller, 'Test clocks').click();
    const row = seller.getByTestId('test-clock-row').filter({ hasText: clockName });
    await row.waitFor();
    expect(await row.textContent()).toContain('Ready');
  });

  it('sells the plan on the hosted checkout, which says it is billed monthly and what is due today', async () => {
    const customer = await env.database.db.customer.findFirstOrThrow({
      where: { organizationId, email: buyerEmail },
    });
    const checkoutUrl = await seller.evaluate(
      async (body) => {
        const response = await fetch('/v1/checkouts/', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (!response.ok) throw new Error(`checkout create: ${response.status} ${await response.text()}`);
        return ((await response.json()) as { url: string }).url;
      },
      { products: [starterId], customer_id: customer.id },
    );

    const context = await env.browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '203.0.113.77' } });
    recordPolicyViolations(context, policyViolations);
    const buyer = await context.newPage();
    await buyer.goto(checkoutUrl);
    await buyer.getByRole('heading', { name: 'Starter' }).waitFor();
    expect(await buyer.getByTestId('billing-interval').textContent()).toBe('Billed monthly');
    await buyer.getByText('Due today', { exact: true }).waitFor();
    expect(await buyer.getByTestId('total-amount').textContent()).toBe('$10.00');
    expect(await buyer.getByTestId('billing-note').textContent()).toBe('$10.00 / month until you cancel.');

    await buyer.getByLabel('Email', { exact: true }).fill(buyerEmail);
    await buyer.getByLabel('Cardholder name', { exact: true }).fill('Bea Buyer');
    await buyer.getByLabel('Country', { exact: true }).selectOption('DE');
    await buyer.getByLabel('Card number', { exact: true }).fill('4242 4242 4242 4242');
    await buyer.getByLabel('Expiry date', { exact: true }).fill('12 / 34');
    await buyer.getByLabel('Security code', { exact: true }).fill('123');
    await buyer.screenshot({ path: screenshotPath('subscription-checkout'), fullPage: true });
    await buyer.getByRole('button', { name: 'Subscribe' }).click();
    await buyer
      .getByRole('heading', { name: 'Payment successful' })
      .waitFor({ timeout: WORKFLOW_TIMEOUT_MS });
    await context.close();
  });

  it('lists the subscription with its amount, MRR and renewal, and shows its first payment', async () => {
    await navigation(seller, 'Subscriptions').click();
    const row = seller.getByTestId('subscription-row').filter({ hasText: buyerEmail });
    await reloadUntilVisible(seller, row, 'the subscription in the list', WORKFLOW_TIMEOUT_MS);
    const text = await row.textContent();
    expect(text).toContain('Starter');
    expect(text).toContain('$10.00 / month');
    expect(text).toContain('Active');
    expect(await row.getByTestId('subscription-mrr').textContent()).toBe('$10.00');
    expect(await row.getByTestId('subscription-renewal').textContent()).not.toMatch(/^(Ends|Ended)/);

    await seller.getByLabel('Show').selectOption('inactive');
    await seller.getByText('No subscriptions match this filter.').waitFor();
    await seller.getByLabel('Show').selectOption('active');
    await row.waitFor();

    await row.getByRole('link').click();
    await seller.getByTestId('subscription-plan').filter({ hasText: 'Starter' }).waitFor();
    const details = seller.getByTestId('subscription-details');
    expect(await details.textContent()).toContain(buyerEmail);
    await seller.getByTestId('subscription-order-row').filter({ hasText: 'First payment' }).waitFor();
    await seller.getByRole('button', { name: 'Cancel at period end' }).waitFor();
    await seller.getByRole('button', { name: 'Revoke now' }).waitFor();
    // Nothing to resume while the plan goes on.
    expect(await seller.getByRole('button', { name: 'Resume' }).count()).toBe(0);
  });

  it('advances the clock a month and shows the renewal order', async () => {
    await navigation(seller, 'Test clocks').click();
    await seller.getByRole('link', { name: clockName }).click();
    await seller.getByRole('heading', { level: 1, name: clockName }).waitFor();
    const status = seller.getByTestId('test-clock-status');
    // The new plan catches up with the clock's time first.
    await status.filter({ hasText: 'Ready' }).waitFor({ timeout: WORKFLOW_TIMEOUT_MS });
    const customer = seller.getByRole('region', { name: `Customer ${buyerEmail}` });
    await customer.getByTestId('clock-subscription-row').filter({ hasText: 'Starter' }).waitFor();
    const frozenTime = seller.getByTestId('frozen-time');
    const before = await frozenTime.textContent();

    await seller.getByRole('button', { name: 'Advance 1 month' }).click();
    await poll('the clock to move', async () =>
      (await frozenTime.textContent()) !== before ? true : undefined,
    );
    await status.filter({ hasText: 'Ready' }).waitFor({ timeout: WORKFLOW_TIMEOUT_MS });
    // The renewal appears on the clock's page without a reload.
    await customer
      .getByTestId('clock-order-row')
      .filter({ hasText: 'Renewal' })
      .waitFor({ timeout: WORKFLOW_TIMEOUT_MS });
    await seller.screenshot({ path: screenshotPath('subscription-test-clock'), fullPage: true });

    await customer.getByRole('link', { name: 'Starter' }).click();
    const renewal = seller.getByTestId('subscription-order-row').filter({ hasText: 'Renewal' });
    await renewal.waitFor();
    expect(await renewal.textContent()).toContain('$10.00');
    await renewal.getByText('Paid').waitFor({ timeout: WORKFLOW_TIMEOUT_MS });
    // The renewal's charge is listed among the payment attempts.
    const attempt = seller.getByTestId('payment-attempt-row').first();
    await attempt.waitFor({ timeout: WORKFLOW_TIMEOUT_MS });
    expect(await attempt.textContent()).toContain('Try 1');
    expect(await attempt.textContent()).toContain('Paid');
  });

  it('changes the plan after showing what it costs', async () => {
    const card = seller.getByRole('region', { name: 'Change plan' });
    await card.getByLabel('New plan', { exact: true }).selectOption({ label: 'Pro · $30.00 / month' });
    await card.getByLabel('Bill the difference now').check();
    await card.getByRole('button', { name: 'Preview change' }).click();
    const preview = card.getByTestId('proration-preview');
    await preview.waitFor();
    // The preview changes nothing: the plan is still Starter until the seller confirms.
    expect(await seller.getByTestId('subscription-plan').textContent()).toBe('Starter');
    expect(await preview.getByTestId('proration-new-amount').textContent()).toBe('$30.00 / month');
    expect(await preview.getByTestId('proration-due-now').textContent()).toMatch(/\$\d+\.\d\d/);
    expect(await preview.getByTestId('proration-line').count()).toBeGreaterThan(0);
    await seller.screenshot({ path: screenshotPath('subscription-plan-preview'), fullPage: true });

    await preview.getByRole('button', { name: 'Confirm change' }).click();
    await seller.getByTestId('subscription-plan').filter({ hasText: 'Pro' }).waitFor();
    await card.getByText('The plan is now Pro.').waitFor();
    expect(await seller.getByTestId('subscription-amount').textContent()).toBe('$30.00 / month');
    // The difference is billed now: the page follows the order until the workflow has charged it.
    await seller
      .getByTestId('subscription-order-row')
      .filter({ hasText: 'Plan change' })
      .getByText('Paid')
      .waitFor({ timeout: WORKFLOW_TIMEOUT_MS });
  });

  it('cancels at the end of the period with a reason, and shows when it ends', async () => {
    await seller.getByRole('button', { name: 'Cancel at period end' }).click();
    await seller.getByLabel('Cancellation reason').selectOption('too_expensive');
    await seller.getByLabel('Comment').fill('Moving to a cheaper tool next quarter.');
    await seller.getByRole('button', { name: 'Confirm cancellation' }).click();
    const renewal = seller.getByTestId('subscription-renewal');
    await renewal.filter({ hasText: /^Ends / }).waitFor();
    expect(await seller.getByTestId('subscription-cancellation').textContent()).toContain('Too expensive');
    // Set to cancel: it can be resumed, and no longer changed.
    await seller.getByRole('button', { name: 'Resume' }).waitFor();
    expect(await seller.getByRole('region', { name: 'Change plan' }).count()).toBe(0);
    await seller.screenshot({ path: screenshotPath('subscription-cancelled'), fullPage: true });

    await navigation(seller, 'Subscriptions').click();
    const row = seller.getByTestId('subscription-row').filter({ hasText: buyerEmail });
    await row
      .getByTestId('subscription-renewal')
      .filter({ hasText: /^Ends / })
      .waitFor();
    expect(await row.textContent()).toContain('Pro');
    expect(await row.getByTestId('subscription-mrr').textContent()).toBe('$30.00');
    await seller.screenshot({ path: screenshotPath('subscription-list'), fullPage: true });

    await navigation(seller, 'Customers').click();
    await seller.getByRole('link', { name: buyerEmail }).click();
    const subscription = seller.getByTestId('customer-subscription-row').filter({ hasText: 'Pro' });
    await subscription.waitFor();
    expect(await subscription.textContent()).toContain('Ends ');
  });

  it('shows a member the subscription and the clock without the changes only owners and admins may make', async () => {
    const context = await env.browser.newContext({
      extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.22' },
    });
    recordPolicyViolations(context, policyViolations);
    const member = await context.newPage();
    await member.goto(`${env.baseUrl}/sign-up`);
    await member.getByLabel('Name', { exact: true }).fill(`Mo ${suffix}`);
    await member.getByLabel('Email', { exact: true }).fill(`mo-${suffix}@example.test`);
    await member.getByLabel('Username', { exact: true }).fill(`mo_${suffix}`);
    await member.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
    await member.getByRole('button', { name: 'Create account' }).click();
    await member.getByRole('heading', { level: 1, name: 'Overview', exact: true }).waitFor();
    const user = await env.database.db.user.findUniqueOrThrow({
      where: { email: `mo-${suffix}@example.test` },
    });
    await addMember(env.database.db, organizationId, user.id, 'member');
    await member.reload();
    await member.getByLabel('Active organization').selectOption(organizationId);
    await navigation(member, 'Subscriptions').click();

    const row = member.getByTestId('subscription-row').filter({ hasText: buyerEmail });
    await row.getByRole('link').click();
    await member.getByTestId('subscription-plan').filter({ hasText: 'Pro' }).waitFor();
    await member.getByText('Only owners and admins can change subscriptions.').waitFor();
    for (const action of [
      'Resume',
      'Revoke now',
      'Cancel at period end',
      'Preview change',
      'Change discount',
    ]) {
      expect(await member.getByRole('button', { name: action }).count()).toBe(0);
    }

    await navigation(member, 'Test clocks').click();
    await member.getByRole('link', { name: clockName }).click();
    await member.getByRole('heading', { level: 1, name: clockName }).waitFor();
    await member.getByText('Only owners and admins can advance test clocks and attach customers.').waitFor();
    expect(await member.getByRole('button', { name: 'Advance 1 month' }).count()).toBe(0);
    expect(await member.getByRole('button', { name: 'Delete test clock' }).count()).toBe(0);
    await context.close();
  });
});
