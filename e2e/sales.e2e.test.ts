import { randomUUID } from 'node:crypto';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { NARROW, hasNoHorizontalOverflow } from './portal-support.js';
import { screenshotPath, signUpSeller, useBrowserStack } from './support.js';

// A sale through a checkout link, then the seller's sales pages: the order's timeline, the orders
// list's filters and CSV export, and the link's visits, conversions and edit form.
describe('sales pages in Chromium', () => {
  const env = useBrowserStack('sales');
  let seller: Page;
  let organizationId = '';
  let linkUrl = '';

  it('signs up, creates a product and a checkout link, and opens its page', async () => {
    const suffix = randomUUID().slice(0, 8);
    const context = await env.browser.newContext({
      extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.21' },
      acceptDownloads: true,
    });
    seller = await context.newPage();
    await signUpSeller(seller, env.baseUrl, {
      firstName: 'Sol',
      suffix,
      organizationName: `Lamps ${suffix}`,
    });
    await seller.getByRole('link', { name: 'Orders', exact: true }).waitFor();
    organizationId = (
      await env.database.db.organization.findFirstOrThrow({ where: { name: `Lamps ${suffix}` } })
    ).id;
    const status = await seller.evaluate(async (organization) => {
      const response = await fetch('/v1/products/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          organization_id: organization,
          name: 'Desk lamp',
          prices: [{ amount_type: 'fixed', price_amount: 4900, price_currency: 'usd' }],
        }),
      });
      return response.status;
    }, organizationId);
    expect(status).toBe(201);

    await seller.getByRole('link', { name: 'Orders', exact: true }).click();
    await seller.getByTestId('empty-hint').filter({ hasText: 'No orders yet.' }).waitFor();
    expect(await seller.getByText('0 orders').count()).toBe(1);

    await seller.goto(`${env.baseUrl}/dashboard/checkout-links`);
    await seller.getByLabel('Desk lamp').check();
    await seller.getByLabel('Label', { exact: true }).fill('Lamp launch');
    await seller.getByRole('button', { name: 'Create checkout link' }).click();
    await seller.getByRole('link', { name: 'Lamp launch' }).click();
    await seller.getByRole('region', { name: 'Performance' }).waitFor();
    expect(await seller.getByTestId('link-visits').textContent()).toBe('0');
    await seller.getByTestId('empty-hint').filter({ hasText: 'No visits yet.' }).waitFor();
    linkUrl = (await seller.getByTestId('checkout-link-details').locator('code').textContent()) ?? '';
    expect(linkUrl).toMatch(/\/api\/checkout-links\/tollgate_cl_/);
  });

  it('a buyer pays through the link', async () => {
    const context = await env.browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '203.0.113.21' } });
    const buyer = await context.newPage();
    await buyer.goto(linkUrl);
    await buyer.getByRole('heading', { name: 'Desk lamp' }).waitFor();
    await buyer.getByLabel('Email', { exact: true }).fill('ada@example.test');
    await buyer.getByLabel('Cardholder name', { exact: true }).fill('Ada Buyer');
    await buyer.getByLabel('Country', { exact: true }).selectOption('DE');
    await buyer.getByLabel('Card number', { exact: true }).fill('4242 4242 4242 4242');
    await buyer.getByLabel('Expiry date', { exact: true }).fill('12 / 34');
    await buyer.getByLabel('Security code', { exact: true }).fill('123');
    await buyer.getByRole('button', { name: 'Pay $49.00' }).click();
    await buyer.getByRole('heading', { name: 'Payment successful' }).waitFor({ timeout: 60_000 });
    await context.close();
  });

  it("opens the order and reads its timeline: the payment with the card, then the buyer's receipt", async () => {
    await seller.getByRole('link', { name: 'Orders', exact: true }).click();
    const row = seller.getByTestId('order-row').filter({ hasText: 'ada@example.test' });
    await row.waitFor();
    await seller.getByText('1 order', { exact: true }).waitFor();
    await row.getByRole('link').first().click();
    const timeline = seller.getByRole('list', { name: 'Order timeline' });
    await timeline.waitFor();
    const payment = timeline.getByTestId('timeline-entry').filter({ hasText: 'Payment succeeded' });
    await payment.waitFor();
    expect(await payment.textContent()).toContain('Visa ending in 4242');
    expect(await payment.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await timeline.getByTestId('timeline-entry').first().getAttribute('data-type')).toMatch(
      /order_created|payment_attempt/,
    );
    // The receipt goes out a moment after the payment: the page is read again until it shows.
    for (let tries = 0; tries < 20; tries += 1) {
      if ((await timeline.getByText('Email sent: Receipt for Desk lamp').count()) > 0) break;
      await seller.reload();
      await timeline.waitFor();
    }
    await timeline.getByText('Email sent: Receipt for Desk lamp').waitFor();
    await seller.screenshot({ path: screenshotPath('sales-order-timeline'), fullPage: true });

    // The buyer's page tells their story too, the order linking back here.
    await seller.getByRole('link', { name: 'ada@example.test' }).first().click();
    const story = seller.getByRole('list', { name: 'Customer timeline' });
    const bought = story.getByTestId('timeline-entry').filter({ hasText: 'Order of $49.00 for Desk lamp' });
    await bought.waitFor();
    expect(await bought.getByRole('link').count()).toBe(1);
    expect(await story.getByTestId('timeline-entry').last().getAttribute('data-type')).toBe(
      'customer_created',
    );
    await seller.screenshot({ path: screenshotPath('sales-customer-timeline'), fullPage: true });
  });

  it('filters the orders list in the URL, sorts by a header, and downloads the CSV of the filter', async () => {
    await seller.getByRole('link', { name: 'Orders', exact: true }).click();
    await seller.getByTestId('order-row').first().waitFor();
    await seller.getByRole('combobox', { name: /^Status/ }).selectOption('refunded');
    await seller.getByTestId('empty-hint').filter({ hasText: 'No orders match these filters.' }).waitFor();
    expect(new URL(seller.url()).searchParams.get('status')).toBe('refunded');
    await seller.getByRole('combobox', { name: /^Status/ }).selectOption('paid');
    await seller.getByRole('searchbox', { name: /^Search/ }).fill('ada@');
    await seller.getByTestId('order-row').filter({ hasText: 'ada@example.test' }).waitFor();
    await seller.getByRole('button', { name: /^Sort by amount/ }).click();
    await seller.waitForURL(/sort=-amount/);
    // The filters survive a reload: they live in the URL.
    await seller.reload();
    expect(await seller.getByRole('searchbox', { name: /^Search/ }).inputValue()).toBe('ada@');
    await seller.getByTestId('order-row').first().waitFor();

    const [download] = await Promise.all([
      seller.waitForEvent('download'),
      seller.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('orders.csv');
    // The shared browser is connected over a WebSocket (e2e/shared-stack.ts), so a download has no
    // local path: it is read through the connection.
    const csv = (await text(await download.createReadStream())).trimEnd().split('\r\n');
    expect(csv).toHaveLength(2);
    expect(csv[0]).toMatch(/^Order ID,Created At,Status,/);
    expect(csv[1]).toContain(',paid,purchase,ada@example.test,');
    expect(csv[1]).toContain(',USD,4900,0,4900,0,4900,0,49.00,0.00,');

    await seller.setViewportSize(NARROW);
    expect(await hasNoHorizontalOverflow(seller)).toBe(true);
    await seller.screenshot({ path: screenshotPath('sales-orders-narrow'), fullPage: true });
    await seller.setViewportSize({ width: 1280, height: 800 });
  });

  it("shows the link's one visit and one conversion, and edits the link", async () => {
    await seller.goto(`${env.baseUrl}/dashboard/checkout-links`);
    await seller.getByRole('link', { name: 'Lamp launch' }).click();
    await seller.getByRole('region', { name: 'Performance' }).waitFor();
    await seller.getByTestId('link-conversions').filter({ hasText: '1' }).waitFor();
    expect(await seller.getByTestId('link-visits').textContent()).toBe('1');
    expect(await seller.getByTestId('link-conversion-rate').textContent()).toBe('100.0 %');
    expect(await seller.getByTestId('link-revenue').textContent()).toBe('$49.00');
    expect(await seller.getByTestId('link-checkout-row').textContent()).toContain('ada@example.test');

    await seller.getByLabel('Success URL', { exact: true }).fill('not a url');
    await seller.getByRole('button', { name: 'Save checkout link' }).click();
    // The refusal in the seller's words, under the field it concerns.
    await seller
      .locator('.checkout-field', { has: seller.getByLabel('Success URL', { exact: true }) })
      .locator('.field-error')
      .filter({ hasText: 'Enter a full web address, starting with https://.' })
      .waitFor();
    await seller.getByLabel('Success URL', { exact: true }).fill('https://lamps.example.test/thanks');
    await seller.getByLabel('Label', { exact: true }).fill('Lamp launch, autumn');
    await seller.getByRole('button', { name: 'Save checkout link' }).click();
    await seller.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await seller.getByRole('heading', { level: 1, name: 'Lamp launch, autumn' }).waitFor();
    const link = await env.database.db.checkoutLink.findFirstOrThrow({ where: { organizationId } });
    expect(link).toMatchObject({
      label: 'Lamp launch, autumn',
      successUrl: 'https://lamps.example.test/thanks',
    });
    await seller.screenshot({ path: screenshotPath('sales-checkout-link'), fullPage: true });
  });
});
