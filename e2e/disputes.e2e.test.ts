import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { Polar } from 'polar-sdk-0481';
import type { BrowserContext, Page } from 'playwright-core';
import { addMember, buyInSandbox, createAccessToken } from '../test/factories.js';
import { eventually } from '../test/eventually.js';
import {
  recordPolicyViolations,
  reloadUntilVisible,
  screenshotPath,
  signUpSeller,
  useBrowserStack,
} from './support.js';

// Issue 34, "a disputed order's timeline": the sandbox's disputed card (4000 0000 0000 0259) is
// disputed a few seconds after it pays; the order page then shows the dispute, when its evidence is
// due and, to owners and admins only, "Accept dispute", which closes it as lost on the timeline.
describe('a disputed order, in Chromium', () => {
  const env = useBrowserStack('disputes');
  const policyViolations: string[] = [];
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    for (const context of contexts) await context.close();
    expect(policyViolations).toEqual([]);
  });

  const suffix = randomUUID().slice(0, 8);
  let polar: Polar;
  let seller: Page;
  let organizationId = '';
  let orderId = '';

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

  it('shows the dispute on the order page and its timeline once the processor reports it', async () => {
    seller = await newPage('192.0.2.51');
    await signUpSeller(seller, env.baseUrl, {
      firstName: 'Dora',
      suffix,
      organizationName: `Disputes ${suffix}`,
    });
    const organization = await env.database.db.organization.findFirstOrThrow({
      where: { name: `Disputes ${suffix}` },
    });
    organizationId = organization.id;
    polar = new Polar({
      accessToken: await createAccessToken(env.database.db, organizationId),
      serverURL: env.baseUrl,
    });
    const product = await polar.products.create({
      name: 'Desk lamp',
      prices: [{ amountType: 'fixed', priceAmount: 4900, priceCurrency: 'usd' }],
    });
    const customer = await polar.customers.create({ email: `dan-${suffix}@example.test`, name: 'Dan' });
    const checkout = await buyInSandbox(
      polar as never,
      env.baseUrl,
      product.id,
      customer.id,
      'pm_card_createDispute',
    );
    orderId = (await polar.orders.list({ checkoutId: checkout.id })).result.items[0]!.id;
    await eventually(
      async () => (await polar.disputes.list({ orderId })).result.items,
      (items) => items.length === 1,
      30_000,
    );

    await seller.goto(`${env.baseUrl}/dashboard/orders/${orderId}`);
    const card = seller.getByTestId('order-disputes');
    await reloadUntilVisible(seller, card, 'the dispute on the order page', 30_000);
    await card.getByTestId('dispute-status').getByText('Needs response', { exact: true }).waitFor();
    expect(await card.textContent()).toContain('$49.00 disputed');
    // Nobody argues a sandbox dispute: it asks for no evidence, so the card names no deadline.
    expect(await card.textContent()).not.toContain('Evidence');
    await seller.getByTestId('timeline-entry').filter({ hasText: 'Payment of $49.00 disputed' }).waitFor();
    const titles = await timelineTitles(seller);
    const paid = titles.findIndex((title) => title.includes('Payment succeeded'));
    const disputed = titles.findIndex((title) => title.includes('Payment of $49.00 disputed'));
    expect(paid).toBeGreaterThanOrEqual(0);
    expect(disputed).toBeGreaterThan(paid);
    await seller.screenshot({ path: screenshotPath('disputes-order-open'), fullPage: true });
  });

  it('offers a member no way to accept it; an owner accepts it and the timeline says it was lost', async () => {
    const memberPage = await newPage('192.0.2.52');
    await signUpSeller(memberPage, env.baseUrl, {
      firstName: 'Mel',
      suffix,
      organizationName: `Mel's own ${suffix}`,
    });
    const mel = await env.database.db.user.findFirstOrThrow({ where: { username: `mel_${suffix}` } });
    await addMember(env.database.db, organizationId, mel.id, 'member');
    await memberPage.reload();
    await memberPage.getByLabel('Active organization').selectOption(organizationId);
    await memberPage.setViewportSize({ width: 390, height: 844 });
    await memberPage.goto(`${env.baseUrl}/dashboard/orders/${orderId}`);
    await memberPage.getByTestId('order-disputes').getByTestId('dispute-status').waitFor();
    expect(await memberPage.getByRole('button', { name: 'Accept dispute' }).count()).toBe(0);
    // Long words and the card fit a phone's width.
    expect(await memberPage.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
      390,
    );

    const owner = seller;
    await owner.goto(`${env.baseUrl}/dashboard/orders/${orderId}`);
    await owner.getByRole('button', { name: 'Accept dispute' }).click();
    await owner.getByRole('button', { name: 'Accept and lose $49.00' }).click();
    const card = owner.getByTestId('order-disputes');
    await card.getByTestId('dispute-status').getByText('Lost', { exact: true }).waitFor();
    await owner.getByTestId('timeline-entry').filter({ hasText: 'Dispute lost (accepted)' }).waitFor();
    expect(await owner.getByRole('button', { name: 'Accept dispute' }).count()).toBe(0);
    const [dispute] = (await polar.disputes.list({ orderId })).result.items;
    expect(dispute).toMatchObject({ status: 'lost', closed: true });
    await owner.screenshot({ path: screenshotPath('disputes-order-accepted'), fullPage: true });
  });
});
