import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { screenshotPath, useBrowserStack, signUpSeller } from './support.js';

// Customers, benefits, discounts and checkout links pages on one stack.
describe('commerce pages in Chromium', () => {
  const env = useBrowserStack('commerce');
  let page: Page;
  let organizationId = '';

  it('signs up and creates an organization', async () => {
    const suffix = randomUUID().slice(0, 8);
    const context = await env.browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.7' } });
    page = await context.newPage();
    await signUpSeller(page, env.baseUrl, { firstName: 'Cora', suffix, organizationName: `Shop ${suffix}` });
    await page.getByRole('link', { name: 'Customers' }).waitFor();
    organizationId = (
      await env.database.db.organization.findFirstOrThrow({ where: { name: `Shop ${suffix}` } })
    ).id;
  });

  it('adds a customer, finds them by search and opens their state', async () => {
    await page.getByRole('link', { name: 'Customers' }).click();
    await page.getByLabel('Customer email', { exact: true }).fill('Buyer.One@Example.test');
    await page.getByLabel('Customer name', { exact: true }).fill('Buyer One');
    await page.getByRole('button', { name: 'Add customer' }).click();
    await page.getByTestId('customer-row').filter({ hasText: 'buyer.one@example.test' }).waitFor();
    await page.getByLabel('Customer email', { exact: true }).fill('not-an-email');
    await page.getByRole('button', { name: 'Add customer' }).click();
    await page.locator('.field-error').filter({ hasText: 'Enter an email address' }).waitFor();

    await page.getByLabel('Search customers', { exact: true }).fill('nobody-like-this');
    await page.getByText('0 customers').waitFor();
    await page.getByLabel('Search customers', { exact: true }).fill('buyer one');
    await page.getByRole('link', { name: 'buyer.one@example.test' }).click();
    await page.getByRole('heading', { name: 'Granted benefits' }).waitFor();
    expect(await page.getByRole('region', { name: 'Details' }).textContent()).toContain('Buyer One');
  });

  it('creates a benefit with the form of its type, and shows the API’s message for bad properties', async () => {
    await page.getByRole('link', { name: 'Benefits' }).click();
    await page.getByLabel('Benefit type').selectOption('github_repository');
    await page.getByLabel('Description', { exact: true }).fill('Source access');
    await page.getByLabel('Repository owner', { exact: true }).fill('-bad-');
    await page.getByLabel('Repository name', { exact: true }).fill('sdk');
    await page.getByRole('button', { name: 'Create benefit' }).click();
    await page
      .locator('.field-error')
      .filter({ hasText: 'Enter a GitHub user or organization name.' })
      .waitFor();
    await page.getByLabel('Repository owner', { exact: true }).fill('tollgate-dev');
    await page.getByRole('button', { name: 'Create benefit' }).click();
    await page.getByTestId('benefit-row').filter({ hasText: 'tollgate-dev/sdk (pull)' }).waitFor();
    expect(await env.database.db.benefit.count({ where: { organizationId } })).toBe(1);
  });

  it('creates a discount with a code and lists its value', async () => {
    await page.getByRole('link', { name: 'Discounts' }).click();
    await page.getByLabel('Discount name', { exact: true }).fill('Spring sale');
    await page.getByLabel('Code (optional)', { exact: true }).fill('SPRING25');
    await page.getByLabel('Percent off', { exact: true }).fill('25');
    await page.getByLabel('Duration').selectOption('repeating');
    await page.getByLabel('Months', { exact: true }).fill('3');
    await page.getByRole('button', { name: 'Create discount' }).click();
    const row = page.getByTestId('discount-row').filter({ hasText: 'SPRING25' });
    await row.waitFor();
    expect(await row.textContent()).toContain('25 % off, for 3 months');
  });

  it('creates a checkout link for a product and shows its URL', async () => {
    // The product comes from the API with the page's own session, as the products page would make it.
    const created = await page.evaluate(async (organization) => {
      const response = await fetch('/v1/products/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          organization_id: organization,
          name: 'Field guide',
          prices: [{ amount_type: 'fixed', price_amount: 1900, price_currency: 'usd' }],
        }),
      });
      return response.status;
    }, organizationId);
    expect(created).toBe(201);
    await page.getByRole('link', { name: 'Checkout links' }).click();
    await page.getByLabel('Field guide').check();
    await page.getByLabel('Label', { exact: true }).fill('Guide launch');
    await page.getByLabel('Discount applied').selectOption({ label: 'Spring sale' });
    await page.getByRole('button', { name: 'Create checkout link' }).click();
    const row = page.getByTestId('checkout-link-row').filter({ hasText: 'Guide launch' });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/\/api\/checkout-links\/tollgate_cl_/);
    const link = await env.database.db.checkoutLink.findFirstOrThrow({ where: { organizationId } });
    expect(link.discountId).not.toBeNull();
    await page.screenshot({ path: screenshotPath('checkout-links'), fullPage: true });
  });
});
