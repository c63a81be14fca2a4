import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import type { Locator, Page } from 'playwright-core';
import { createAccessToken } from '../test/factories.js';
import { buyerContexts, NARROW, openPortalSection } from './portal-support.js';
import { poll, recordPolicyViolations, screenshotPath, signUpSeller, useBrowserStack } from './support.js';

/** Saving a card runs in a workflow; the checkout's payment too. */
const WORKFLOW_TIMEOUT_MS = 60_000;

/** Types a card into the sandbox card form, with the expiry as the buyer writes it. */
async function typeCard(form: Page | Locator, card: { number: string; expiry: string }) {
  await form.getByLabel('Card number', { exact: true }).fill(card.number);
  await form.getByLabel('Expiry date', { exact: true }).fill(card.expiry);
  await form.getByLabel('Security code', { exact: true }).fill('123');
}

// Regression: saved sandbox cards showed another expiry than the one typed (the month they were
// saved in, four years on). A card typed 08/31 must read "expires 08/2031" wherever it is shown.
describe('sandbox cards keep the expiry the buyer typed, in Chromium', () => {
  const env = useBrowserStack('card-expiry');
  const policyViolations: string[] = [];
  afterAll(() => expect(policyViolations).toEqual([]));
  const buyerContext = buyerContexts(() => env.browser, policyViolations, 140);

  it('pays at checkout with 08/31, adds 11/29 in the portal; both show as typed to the buyer and the seller', async () => {
    const suffix = randomUUID().slice(0, 8);
    const sellerContext = await env.browser.newContext({
      viewport: { width: 1366, height: 900 },
      extraHTTPHeaders: { 'x-forwarded-for': '192.0.2.14' },
    });
    recordPolicyViolations(sellerContext, policyViolations);
    const seller = await sellerContext.newPage();
    await signUpSeller(seller, env.baseUrl, {
      firstName: 'Ines',
      suffix,
      organizationName: `Radio ${suffix}`,
    });
    const organization = await env.database.db.organization.findFirstOrThrow({
      where: { name: `Radio ${suffix}` },
    });
    const polar = new Polar({
      accessToken: await createAccessToken(env.database.db, organization.id),
      serverURL: env.baseUrl,
    });
    const plan = await polar.products.create({
      name: `Listener ${suffix}`,
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 1500, priceCurrency: 'usd' }],
    });
    const checkout = await polar.checkouts.create({ products: [plan.id] });

    // The buyer pays in the hosted checkout with a card typed 08/31; the plan saves it.
    const buyer = await buyerContext({ viewport: NARROW });
    const page = await buyer.newPage();
    await page.goto(checkout.url);
    await page.getByTestId('sandbox-banner').waitFor();
    await page.getByLabel('Email', { exact: true }).fill(`ines-buyer-${suffix}@example.test`);
    await page.getByLabel('Cardholder name', { exact: true }).fill('Ines Buyer');
    await page.getByLabel('Country', { exact: true }).selectOption('DE');
    await typeCard(page, { number: '4242 4242 4242 4242', expiry: '08 / 31' });
    // The plan's button (its wording says how the amount recurs).
    await page.getByRole('button', { name: /^(Subscribe|Pay )/ }).click();
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor({ timeout: WORKFLOW_TIMEOUT_MS });

    const customerId = await poll('the checkout’s customer', async () => {
      const row = await env.database.db.checkout.findUniqueOrThrow({ where: { id: checkout.id } });
      return row.customerId ?? undefined;
    });
    await poll(
      'the card the plan saved',
      async () =>
        (await env.database.db.customerPaymentMethod.count({ where: { customerId } })) === 1
          ? true
          : undefined,
      WORKFLOW_TIMEOUT_MS,
    );

    // In the portal: the saved card, then a second one typed 11/29.
    const { customerPortalUrl } = await polar.customerSessions.create({ customerId });
    await page.goto(customerPortalUrl);
    await page.getByRole('heading', { level: 1, name: 'Your purchases' }).waitFor();
    await openPortalSection(page, 'Billing');
    const portalCard = (lastFour: string) =>
      page
        .getByTestId('portal-card')
        .filter({ has: page.getByText(`•••• ${lastFour}`) })
        .getByTestId('card-label');
    expect(await portalCard('4242').textContent()).toBe('Visa •••• 4242, expires 08/2031');

    await page.getByRole('button', { name: 'Add a card' }).click();
    const dialog = page.getByTestId('add-card-dialog');
    await dialog.getByRole('heading', { name: 'Add a card' }).waitFor();
    await typeCard(dialog, { number: '5555 5555 5555 4444', expiry: '11 / 29' });
    await dialog.getByRole('button', { name: 'Save card' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: WORKFLOW_TIMEOUT_MS });
    await page.getByText('Your Mastercard ending in 4444 is saved.').waitFor();
    expect(await portalCard('4444').textContent()).toBe('Mastercard •••• 4444, expires 11/2029');
    expect(await portalCard('4242').textContent()).toBe('Visa •••• 4242, expires 08/2031');
    await page.screenshot({ path: screenshotPath('portal-cards-typed-expiry'), fullPage: true });
    await buyer.close();

    // The seller's customer page lists the same cards in the same words.
    await seller.goto(`${env.baseUrl}/dashboard/customers/${customerId}`);
    const rows = seller.getByTestId('customer-payment-method-row');
    await rows.nth(1).waitFor();
    expect(await seller.getByTestId('customer-payment-method-label').allTextContents()).toEqual([
      'Visa •••• 4242, expires 08/2031',
      'Mastercard •••• 4444, expires 11/2029',
    ]);
    expect(await rows.first().textContent()).toContain('Default');
    await seller.screenshot({ path: screenshotPath('customer-payment-methods'), fullPage: true });
    await sellerContext.close();
  });
});
