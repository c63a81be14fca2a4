import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { orderNumber } from '../domain/orders/rules.js';
import { eventually } from '../test/eventually.js';
import { buyInSandbox, createAccessToken } from '../test/factories.js';
import { openPortalSection } from './portal-support.js';
import { recordPolicyViolations, screenshotPath, signUpSeller, useBrowserStack } from './support.js';

// Issue 31, "History never rewritten": what a customer bought is told as it was then, after a plan
// switch and products renamed since; a plan set to cancel reads "Ends on <date>" until it ends;
// two license keys from two purchases say which purchase each came with.
describe('history as it happened, in Chromium', () => {
  const env = useBrowserStack('history');
  const policyViolations: string[] = [];
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    for (const context of contexts) await context.close();
    expect(policyViolations).toEqual([]);
  });

  const suffix = randomUUID().slice(0, 8);
  let seller: Page;
  let polar: Polar;
  let customerId = '';
  let subscriptionId = '';
  let firstOrderId = '';
  let monthlyId = '';
  let yearlyId = '';
  let bundleId = '';

  async function newPage(address: string): Promise<Page> {
    const context = await env.browser.newContext({
      locale: 'en-US',
      viewport: { width: 1366, height: 900 },
      extraHTTPHeaders: { 'x-forwarded-for': address },
    });
    contexts.push(context);
    recordPolicyViolations(context, policyViolations);
    return context.newPage();
  }

  const timelineTitles = async (page: Page) =>
    (await page.getByTestId('timeline-entry').allTextContents()).map((text) => text.trim());

  /** The status badge of a plan, and whether it is drawn in amber. */
  async function badgeOf(scope: Locator | Page) {
    const badge = scope.getByTestId('subscription-status').first();
    await badge.waitFor();
    return { text: await badge.textContent(), className: await badge.getAttribute('class') };
  }

  it('prepares a seller with a monthly and a yearly plan, a bundle with a license key, and a buyer', async () => {
    seller = await newPage('192.0.2.11');
    await signUpSeller(seller, env.baseUrl, {
      firstName: 'Hedda',
      suffix,
      organizationName: `History ${suffix}`,
    });
    const organization = await env.database.db.organization.findFirstOrThrow({
      where: { name: `History ${suffix}` },
    });
    polar = new Polar({
      accessToken: await createAccessToken(env.database.db, organization.id),
      serverURL: env.baseUrl,
    });
    const plan = (name: string, recurringInterval: 'month' | 'year', priceAmount: number) =>
      polar.products.create({
        name,
        recurringInterval,
        prices: [{ amountType: 'fixed', priceAmount, priceCurrency: 'usd' }],
      });
    monthlyId = (await plan('Pro plan (monthly)', 'month', 2000)).id;
    yearlyId = (await plan('Pro plan (yearly)', 'year', 20_000)).id;
    const license = await polar.benefits.create({
      type: 'license_keys',
      description: 'App license',
      properties: {},
    });
    bundleId = (
      await polar.products.create({
        name: 'App bundle',
        recurringInterval: null,
        prices: [{ amountType: 'fixed', priceAmount: 2900, priceCurrency: 'usd' }],
      })
    ).id;
    await polar.products.updateBenefits({ id: bundleId, productBenefitsUpdate: { benefits: [license.id] } });
    customerId = (await polar.customers.create({ email: `hal-${suffix}@example.test`, name: 'Hal' })).id;
  });

  it('names the plan as it was bought after a switch to yearly and products renamed since', async () => {
    const bought = await buyInSandbox(polar, env.baseUrl, monthlyId, customerId);
    subscriptionId = bought.subscriptionId!;
    firstOrderId = (await polar.orders.list({ checkoutId: bought.id })).result.items[0]!.id;
    await polar.subscriptions.update({
      id: subscriptionId,
      subscriptionUpdate: { productId: yearlyId, prorationBehavior: 'prorate' },
    });
    await polar.products.update({ id: monthlyId, productUpdate: { name: `Starter renamed ${suffix}` } });
    await polar.products.update({ id: yearlyId, productUpdate: { name: `Annual renamed ${suffix}` } });

    await seller.goto(`${env.baseUrl}/dashboard/customers/${customerId}`);
    const timeline = seller.getByTestId('customer-timeline');
    await timeline.getByText('Switched from Pro plan (monthly) to Pro plan (yearly)').waitFor();
    const titles = await timelineTitles(seller);
    expect(titles.some((title) => title.includes('Subscribed to Pro plan (monthly)'))).toBe(true);
    expect(titles.some((title) => /Order of \$20\.00 for Pro plan \(monthly\)/.test(title))).toBe(true);
    expect(titles.join('\n')).not.toMatch(/renamed|Subscribed to Pro plan \(yearly\)/);
    await seller.screenshot({ path: screenshotPath('history-customer-timeline'), fullPage: true });

    // The order's page says what was bought by the name it had then.
    await seller.goto(`${env.baseUrl}/dashboard/orders/${firstOrderId}`);
    const details = seller.getByTestId('order-details');
    await details.getByText('Pro plan (monthly)', { exact: true }).waitFor();
    expect(await details.textContent()).not.toContain('renamed');
  });

  it('reads "Ends on <date>" in amber for a plan set to cancel, on every page and in the portal', async () => {
    const canceled = await polar.subscriptions.update({
      id: subscriptionId,
      subscriptionUpdate: { cancelAtPeriodEnd: true },
    });
    expect(canceled.status).toBe('active');
    const endsOn = /^Ends on \S/;

    await seller.goto(`${env.baseUrl}/dashboard/subscriptions`);
    const listed = await badgeOf(seller.getByTestId('subscription-row').first());
    expect(listed.text).toMatch(endsOn);
    expect(listed.className).toContain('badge-warn');

    await seller.goto(`${env.baseUrl}/dashboard/subscriptions/${subscriptionId}`);
    const page = await badgeOf(seller.getByTestId('subscription-details'));
    expect(page.text).toMatch(endsOn);
    expect(page.className).toContain('badge-warn');
    expect(await seller.getByTestId('subscription-details').textContent()).not.toMatch(/Canceled/);

    await seller.goto(`${env.baseUrl}/dashboard/customers/${customerId}`);
    const onCustomer = await badgeOf(seller.getByTestId('customer-subscription-row').first());
    expect(onCustomer.text).toMatch(endsOn);
    const ending = seller.locator('[data-type="subscription_canceled"]');
    await ending.waitFor();
    expect(await ending.textContent()).toMatch(/Set Pro plan \(yearly\) to end on \S/);
    expect(await ending.getAttribute('data-tone')).toBe('warn');
    await seller.screenshot({ path: screenshotPath('history-ends-on'), fullPage: true });

    const buyer = await newPage('192.0.2.12');
    await buyer.goto((await polar.customerSessions.create({ customerId })).customerPortalUrl);
    const card = buyer.getByTestId('portal-subscription');
    await card.waitFor();
    const inPortal = await badgeOf(card);
    expect(inPortal.text).toMatch(endsOn);
    expect(inPortal.className).toContain('badge-warn');
  });

  it('shows two license keys from two purchases with the product and order each came with', async () => {
    const first = await buyInSandbox(polar, env.baseUrl, bundleId, customerId);
    // Granted before the second purchase, as two purchases days apart are: keys made in the same
    // grant step share their creation time, and their order would then be the ids'.
    await eventually(
      async () => (await polar.licenseKeys.list({})).result.items,
      (keys) => keys.length === 1,
    );
    await polar.products.update({ id: bundleId, productUpdate: { name: 'App bundle 2' } });
    const second = await buyInSandbox(polar, env.baseUrl, bundleId, customerId);
    const orderOf = async (checkoutId: string) => (await polar.orders.list({ checkoutId })).result.items[0]!;
    const [firstOrder, secondOrder] = [await orderOf(first.id), await orderOf(second.id)];
    await eventually(
      async () => (await polar.licenseKeys.list({})).result.items,
      (keys) => keys.length === 2,
    );

    const buyer = await newPage('192.0.2.13');
    await buyer.goto((await polar.customerSessions.create({ customerId })).customerPortalUrl);
    await openPortalSection(buyer, 'License keys');
    const origins = buyer.getByTestId('license-key-origin');
    await origins.nth(1).waitFor();
    const texts = (await origins.allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim());
    expect(texts).toHaveLength(2);
    // Newest first: the second purchase, under the name the product had then.
    expect(texts[0]).toMatch(new RegExp(`^App bundle 2, order ${orderNumber(secondOrder.id)} of \\S`));
    expect(texts[1]).toMatch(new RegExp(`^App bundle, order ${orderNumber(firstOrder.id)} of \\S`));
    await buyer.screenshot({ path: screenshotPath('history-license-keys'), fullPage: true });
  });
});
