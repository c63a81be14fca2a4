import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { poll, recordPolicyViolations, screenshotPath, useBrowserStack, signUpSeller } from './support.js';

type CreatedCheckout = { id: string; url: string; client_secret: string };
type RecordedMessage = { origin: string; data: { type?: string; event?: string; [key: string]: unknown } };

/**
 * The seller's own website, on other origins than Tollgate: a page that embeds a checkout in an
 * iframe and records every message it receives, and a "thank you" page for success URLs. It listens
 * on every interface so `127.0.0.1:<port>` and `localhost:<port>` are two distinct origins.
 */
function startSellerSite(): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://seller.invalid');
    if (url.pathname === '/embed') {
      const src = url.searchParams.get('src') ?? '';
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><html><head><title>Seller</title></head><body>
<h1>Seller site</h1>
<script>
  window.recorded = [];
  window.addEventListener('message', (event) => window.recorded.push({ origin: event.origin, data: event.data }));
</script>
<iframe id="checkout" title="Checkout" src="${src.replaceAll('"', '&quot;')}" style="width:100%;height:1600px;border:0"></iframe>
</body></html>`);
      return;
    }
    if (url.pathname === '/thanks') {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end('<!doctype html><html><body><h1>Thanks for buying</h1></body></html>');
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  return new Promise((resolve) =>
    server.listen(0, '::', () => resolve({ server, port: (server.address() as AddressInfo).port })),
  );
}

// Page functions run in the browser; the e2e tsconfig has no DOM types, so they are written as text.
const activeId = (page: Page) => page.evaluate<string | null>('document.activeElement?.id ?? null');

/** Presses Tab until `target` has focus: proves it is reachable by keyboard, in page order. */
async function tabTo(page: Page, target: Locator, maxPresses = 40): Promise<void> {
  const id = await target.getAttribute('id');
  for (let presses = 0; presses < maxPresses; presses += 1) {
    await page.keyboard.press('Tab');
    if ((await activeId(page)) === id) return;
  }
  throw new Error(`Tab never reached #${id}`);
}

// Checkout → payment (sandbox processor) → order → refund, in Chromium on one stack.
describe('checkout in Chromium', () => {
  const env = useBrowserStack('checkout');
  let seller: Page;
  let organizationId = '';
  let productId = '';
  let sellerSite: { server: Server; port: number };

  beforeAll(async () => {
    sellerSite = await startSellerSite();
  });
  afterAll(async () => {
    await new Promise((resolve) => sellerSite?.server.close(resolve));
  });
  // Every page works under its Content-Security-Policy: nothing it needs was refused.
  const policyViolations: string[] = [];
  afterAll(() => expect(policyViolations).toEqual([]));

  /** A buyer's browser: no session, and every request it makes is recorded. */
  async function buyerContext(options: Parameters<typeof env.browser.newContext>[0] = {}) {
    const context = await env.browser.newContext({
      extraHTTPHeaders: { 'x-forwarded-for': `203.0.113.${Math.floor(Math.random() * 200) + 1}` },
      ...options,
    });
    const requests: string[] = [];
    context.on('request', (request) => requests.push(request.url()));
    recordPolicyViolations(context, policyViolations);
    return { context, requests, page: await context.newPage() };
  }

  /** Creates a checkout through the API with the seller's session, as an integration would. */
  async function createCheckout(body: Record<string, unknown> = {}): Promise<CreatedCheckout> {
    return seller.evaluate(
      async (payload) => {
        const response = await fetch('/v1/checkouts/', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(payload),
        });
        if (!response.ok) throw new Error(`checkout create: ${response.status} ${await response.text()}`);
        return (await response.json()) as CreatedCheckout;
      },
      { products: [productId], ...body },
    );
  }

  async function fillBuyer(page: Page | ReturnType<Page['frameLocator']>, email: string) {
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Cardholder name', { exact: true }).fill('Ada Buyer');
    await page.getByLabel('Country', { exact: true }).selectOption('DE');
  }

  async function fillCard(page: Page | ReturnType<Page['frameLocator']>, number: string) {
    await page.getByLabel('Card number', { exact: true }).fill(number);
    await page.getByLabel('Expiry date', { exact: true }).fill('12 / 34');
    await page.getByLabel('Security code', { exact: true }).fill('123');
  }

  function expectOnlyOwnRequests(requests: string[]) {
    // Sandbox mode loads nothing from the internet (no Stripe.js): every request stays on the stack.
    const foreign = requests.filter(
      (url) => !url.startsWith(env.baseUrl) && !url.startsWith('data:') && !url.startsWith('blob:'),
    );
    expect(foreign).toEqual([]);
  }

  it('prepares a seller with a $20 product and a 25 % discount code', async () => {
    const suffix = randomUUID().slice(0, 8);
    const context = await env.browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.9' } });
    recordPolicyViolations(context, policyViolations);
    seller = await context.newPage();
    await signUpSeller(seller, env.baseUrl, {
      firstName: 'Sam',
      suffix,
      organizationName: `Books ${suffix}`,
    });
    await seller.getByRole('link', { name: 'Orders' }).waitFor();
    // The dashboard says sandbox mode with its top bar's badge rather than the banner.
    await seller.getByTestId('mode-badge').filter({ hasText: 'Test mode' }).waitFor();
    organizationId = (
      await env.database.db.organization.findFirstOrThrow({ where: { name: `Books ${suffix}` } })
    ).id;

    const created = await seller.evaluate(async (organization) => {
      const post = async (path: string, body: unknown) => {
        const response = await fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
        return (await response.json()) as { id: string };
      };
      const product = await post('/v1/products/', {
        organization_id: organization,
        name: 'Field guide',
        prices: [{ amount_type: 'fixed', price_amount: 2000, price_currency: 'usd' }],
      });
      await post('/v1/discounts/', {
        organization_id: organization,
        name: 'Launch',
        code: 'LAUNCH25',
        type: 'percentage',
        basis_points: 2500,
        duration: 'once',
      });
      return product.id;
    }, organizationId);
    productId = created;
  });

  it('buys with 4242 4242 4242 4242 and a discount code, and shows the confirmation', async () => {
    const checkout = await createCheckout();
    const { context, page, requests } = await buyerContext();
    await page.goto(checkout.url);
    await page.getByRole('heading', { name: 'Field guide' }).waitFor();
    await page.getByTestId('sandbox-banner').waitFor();
    expect(await page.getByTestId('total-amount').textContent()).toBe('$20.00');
    expect(await page.getByTestId('tax-amount').textContent()).toContain('Calculated');

    await fillBuyer(page, 'ada@example.test');
    await page.getByLabel('Discount code (optional)', { exact: true }).fill('NOPE-NOT-A-CODE');
    await page.getByRole('button', { name: 'Apply' }).click();
    // The API's 422 lands next to the field it names, and nothing else changes.
    await page
      .locator('.checkout-field', { has: page.getByLabel('Discount code') })
      .locator('.field-error')
      .waitFor();
    expect(await page.getByTestId('total-amount').textContent()).toBe('$20.00');

    await page.getByLabel('Discount code (optional)', { exact: true }).fill('LAUNCH25');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByTestId('applied-discount').waitFor();
    await poll('the discounted total', async () =>
      (await page.getByTestId('total-amount').textContent()) === '$15.00' ? true : undefined,
    );
    expect(await page.getByTestId('discount-amount').textContent()).toBe('−$5.00');

    await fillCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay $15.00' }).click();
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor({ timeout: 60_000 });
    expect(page.url()).toBe(`${checkout.url}/confirmation`);
    expect(await page.getByTestId('total-paid').textContent()).toBe('$15.00');
    // The order it made: its number (the id's head, as the seller's dashboard shows it) and lines.
    const summary = page.getByTestId('order-summary');
    const number = (await page.getByTestId('order-number').textContent({ timeout: 15_000 })) ?? '';
    expect(number).toMatch(/^[0-9A-F]{8}$/);
    expect(await summary.textContent()).toContain('Field guide$20.00');
    expect(await summary.textContent()).toContain('Discount−$5.00');
    await page.screenshot({ path: screenshotPath('checkout-confirmation'), fullPage: true });
    expectOnlyOwnRequests(requests);
    await context.close();
  });

  // Regression: the form asked only for the country, and the server then wanted a state it had no
  // field for. It must show exactly the fields the checkout asks for, as the country changes.
  it('buys as a US buyer (state, street, city, postal code) and as a Canadian buyer (province)', async () => {
    const us = await createCheckout();
    const { context, page } = await buyerContext();
    await page.goto(us.url);
    await page.getByLabel('Email', { exact: true }).fill('us-buyer@example.test');
    await page.getByLabel('Cardholder name', { exact: true }).fill('Ada Buyer');
    expect(await page.getByLabel('State', { exact: true }).count()).toBe(0);
    await page.getByLabel('Country', { exact: true }).selectOption('US');
    const state = page.getByLabel('State', { exact: true });
    await state.waitFor();
    for (const label of ['Address line 1', 'City', 'Postal code']) {
      await page.getByLabel(label, { exact: true }).waitFor();
    }
    // A Canadian address needs a province but not the street: the fields follow the country.
    await page.getByLabel('Country', { exact: true }).selectOption('CA');
    await page.getByLabel('Province or territory', { exact: true }).waitFor();
    await page.getByLabel('Address line 1', { exact: true }).waitFor({ state: 'detached' });
    await page.getByLabel('Country', { exact: true }).selectOption('US');
    await state.waitFor();
    await fillCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay $20.00' }).click();
    await page
      .locator('.checkout-field', { has: state })
      .locator('.field-error')
      .filter({ hasText: 'Choose your state.' })
      .waitFor();
    await state.selectOption({ label: 'New York' });
    await page.getByLabel('Address line 1', { exact: true }).fill('350 Fifth Avenue');
    await page.getByLabel('City', { exact: true }).fill('New York');
    await page.getByLabel('Postal code', { exact: true }).fill('10118');
    await page.screenshot({ path: screenshotPath('checkout-us-buyer'), fullPage: true });
    await page.getByRole('button', { name: 'Pay $20.00' }).click();
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor({ timeout: 60_000 });
    await context.close();

    const canada = await createCheckout();
    const buyer = await buyerContext();
    await buyer.page.goto(canada.url);
    await buyer.page.getByLabel('Email', { exact: true }).fill('ca-buyer@example.test');
    await buyer.page.getByLabel('Cardholder name', { exact: true }).fill('Jean Acheteur');
    await buyer.page.getByLabel('Country', { exact: true }).selectOption('CA');
    await buyer.page.getByLabel('Province or territory', { exact: true }).selectOption('QC');
    await fillCard(buyer.page, '4242 4242 4242 4242');
    await buyer.page.getByRole('button', { name: 'Pay $20.00' }).click();
    await buyer.page.getByRole('heading', { name: 'Payment successful' }).waitFor({ timeout: 60_000 });
    await buyer.context.close();

    const addresses = await env.database.db.checkout.findMany({
      where: { id: { in: [us.id, canada.id] } },
      select: { status: true, customerBillingAddress: true },
    });
    expect(addresses.map((row) => row.status)).toEqual(['succeeded', 'succeeded']);
    expect(addresses.map((row) => (row.customerBillingAddress as { state: string }).state).sort()).toEqual([
      'NY',
      'QC',
    ]);
  });

  it("links back to the seller's page the checkout names (return_url)", async () => {
    const checkout = await createCheckout({ return_url: 'https://shop.example.test/pricing' });
    const { context, page } = await buyerContext();
    await page.goto(checkout.url);
    const back = page.getByRole('link', { name: /^← Back to / });
    await back.waitFor();
    expect(await back.getAttribute('href')).toBe('https://shop.example.test/pricing');
    await context.close();
  });

  it('shows a buyer following a link to a retired product a page saying why, never raw JSON', async () => {
    const linkUrl = await seller.evaluate(async (organization) => {
      const post = async (path: string, body: unknown) => {
        const response = await fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
        return (await response.json()) as { id: string; url: string };
      };
      const retired = await post('/v1/products/', {
        organization_id: organization,
        name: 'Retired print',
        prices: [{ amount_type: 'fixed', price_amount: 900, price_currency: 'usd' }],
      });
      const link = await post('/v1/checkout-links/', { product_id: retired.id });
      const archived = await fetch(`/v1/products/${retired.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ is_archived: true }),
      });
      if (!archived.ok) throw new Error(`archive: ${archived.status} ${await archived.text()}`);
      return link.url;
    }, organizationId);
    const { context, page } = await buyerContext();
    await page.goto(linkUrl);
    await page.getByRole('heading', { name: 'This checkout link does not exist' }).waitFor();
    expect(page.url()).toBe(`${env.baseUrl}/checkout/unavailable?reason=not_found`);
    await page.goto(`${env.baseUrl}/api/checkout-links/tollgate_cl_${'x'.repeat(32)}`);
    await page.getByRole('heading', { name: 'This checkout link does not exist' }).waitFor();
    await context.close();
  });

  it('lists the order, refunds half of it, and shows it partially refunded', async () => {
    await seller.getByRole('link', { name: 'Checkouts' }).click();
    await seller
      .getByTestId('checkout-row')
      .filter({ hasText: 'ada@example.test' })
      .getByText('Succeeded')
      .waitFor();

    await seller.getByRole('link', { name: 'Orders' }).click();
    const row = seller.getByTestId('order-row').filter({ hasText: 'ada@example.test' });
    await row.waitFor();
    expect(await row.textContent()).toContain('$15.00');
    await row.getByRole('link').first().click();
    await seller.getByTestId('order-status').filter({ hasText: 'Paid' }).waitFor();

    await seller.getByRole('button', { name: 'Refund', exact: true }).click();
    const dialog = seller.getByRole('dialog', { name: 'Refund order' });
    expect(await dialog.getByLabel('Amount (USD)').inputValue()).toBe('15.00');
    await dialog.getByLabel('Amount (USD)').fill('20');
    await dialog.getByRole('button', { name: 'Issue refund' }).click();
    await dialog.getByText('At most $15.00 can be refunded.').waitFor();
    await dialog.getByText('Choose a reason.').waitFor();

    await dialog.getByLabel('Amount (USD)').fill('7.50');
    await dialog.getByLabel('Reason').selectOption('customer_request');
    await dialog.getByLabel('Comment').fill('Half back, as agreed.');
    await dialog.getByRole('button', { name: 'Issue refund' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await seller
      .getByTestId('order-status')
      .filter({ hasText: 'Partially refunded' })
      .waitFor({ timeout: 60_000 });
    expect(await seller.getByTestId('refunded-amount').textContent()).toContain('$7.50');
    await seller.getByTestId('order-refund-row').filter({ hasText: 'Succeeded' }).waitFor();
    // The dialog now offers what is left.
    await seller.getByRole('button', { name: 'Refund', exact: true }).click();
    expect(await dialog.getByLabel('Amount (USD)').inputValue()).toBe('7.50');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // The seller corrects the billing details the buyer gave (what invoices print).
    const billing = seller.getByRole('region', { name: 'Billing details' });
    expect(await billing.getByLabel('Billing name', { exact: true }).inputValue()).toBe('Ada Buyer');
    expect(await billing.getByLabel('Country').inputValue()).toBe('DE');
    await billing.getByLabel('Address line 1', { exact: true }).fill('Unter den Linden 1');
    await billing.getByLabel('City', { exact: true }).fill('Berlin');
    await billing.getByRole('button', { name: 'Save billing details' }).click();
    await billing.getByText('Billing details saved.').waitFor();
    await seller.screenshot({ path: screenshotPath('checkout-order'), fullPage: true });
    await seller.reload();
    expect(await billing.getByLabel('City', { exact: true }).inputValue()).toBe('Berlin');

    await seller.getByRole('button', { name: 'Generate invoice' }).click();
    const download = seller.getByRole('link', { name: 'Download invoice' });
    await download.waitFor({ timeout: 30_000 });
    const invoice = await seller.request.get(
      new URL((await download.getAttribute('href'))!, env.baseUrl).href,
    );
    expect(invoice.status()).toBe(200);
    expect((await invoice.body()).subarray(0, 5).toString()).toBe('%PDF-');

    await seller.getByRole('link', { name: 'Refunds' }).click();
    await seller.getByTestId('refund-row').filter({ hasText: '$7.50' }).waitFor();
    await seller.screenshot({ path: screenshotPath('checkout-refunds'), fullPage: true });
  });

  it('shows a declined card’s message, lets the buyer retry, then follows the success URL', async () => {
    const thanks = `http://127.0.0.1:${sellerSite.port}/thanks?checkout={CHECKOUT_ID}`;
    const checkout = await createCheckout({ success_url: thanks });
    const { context, page } = await buyerContext();
    await page.goto(checkout.url);
    await fillBuyer(page, 'declined@example.test');
    await fillCard(page, '4000 0000 0000 9995');
    // Regression: the "Processing your payment…" page flashed before the decline came back.
    await page.evaluate(`
      window.processingShown = false;
      new MutationObserver(() => {
        if (document.body.textContent.includes('Processing your payment')) window.processingShown = true;
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    `);
    await page.getByRole('button', { name: 'Pay $20.00' }).click();
    const decline = page.getByTestId('payment-error');
    await decline.waitFor({ timeout: 60_000 });
    // The processor's own reason, not a generic "declined".
    expect(await decline.textContent()).toContain('Your card has insufficient funds.');
    expect(await page.evaluate('window.processingShown')).toBe(false);
    expect(page.url()).toBe(checkout.url);

    // The form is usable again: what the buyer typed is kept; a good card goes through.
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe('declined@example.test');
    await fillCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay $20.00' }).click();
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor({ timeout: 60_000 });
    await page.waitForURL(`http://127.0.0.1:${sellerSite.port}/thanks?checkout=${checkout.id}`, {
      timeout: 15_000,
    });
    await context.close();
  });

  it('asks for 3-D Secure: a failed authentication is a decline, a completed one pays', async () => {
    const checkout = await createCheckout();
    const { context, page, requests } = await buyerContext();
    await page.goto(checkout.url);
    await fillBuyer(page, 'secure@example.test');
    await fillCard(page, '4000 0027 6000 3184');
    await page.getByRole('button', { name: 'Pay $20.00' }).click();
    const challenge = page.getByRole('heading', { name: '3-D Secure test authentication' });
    await challenge.waitFor({ timeout: 60_000 });
    await page.getByText('Your bank asks you to confirm a payment of $20.00').waitFor();
    await page.screenshot({ path: screenshotPath('checkout-3ds'), fullPage: true });
    await page.getByRole('button', { name: 'Fail authentication' }).click();
    const decline = page.getByTestId('payment-error');
    await decline.waitFor({ timeout: 60_000 });
    expect(await decline.textContent()).toContain('We are unable to authenticate your payment method.');

    await fillCard(page, '4000 0027 6000 3184');
    await page.getByRole('button', { name: 'Pay $20.00' }).click();
    await challenge.waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Complete authentication' }).click();
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor({ timeout: 60_000 });
    expectOnlyOwnRequests(requests);
    await context.close();
  });

  it('can be completed with the keyboard alone', async () => {
    const checkout = await createCheckout();
    const { context, page } = await buyerContext();
    await page.goto(checkout.url);
    const email = page.getByLabel('Email', { exact: true });
    await email.waitFor();

    // Submitting the empty form says what is missing and moves focus to the first such field.
    await tabTo(page, email);
    await page.keyboard.press('Enter');
    await page.getByText('Enter your email address.').waitFor();
    expect(await activeId(page)).toBe(await email.getAttribute('id'));

    await page.keyboard.type('keys@example.test');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Kay Board');
    await tabTo(page, page.getByLabel('Country', { exact: true }));
    await page.keyboard.type('Germany');
    expect(await page.getByLabel('Country', { exact: true }).inputValue()).toBe('DE');
    await tabTo(page, page.getByLabel('Discount code (optional)', { exact: true }));
    await page.keyboard.type('LAUNCH25');
    await page.keyboard.press('Enter');
    await page.getByTestId('applied-discount').waitFor();
    expect(await page.evaluate<string | null>('document.activeElement?.textContent ?? null')).toBe(
      'Remove discount',
    );

    await tabTo(page, page.getByLabel('Card number', { exact: true }));
    await page.keyboard.type('4242424242424242');
    await page.keyboard.press('Tab');
    await page.keyboard.type('1234');
    await page.keyboard.press('Tab');
    await page.keyboard.type('123');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor({ timeout: 60_000 });
    await context.close();
  });

  it('fits a phone-sized screen', async () => {
    const checkout = await createCheckout();
    const { context, page } = await buyerContext({
      viewport: { width: 375, height: 740 },
      isMobile: true,
      hasTouch: true,
    });
    await page.goto(checkout.url);
    const pay = page.getByRole('button', { name: 'Pay $20.00' });
    await pay.waitFor();
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    const box = await pay.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    await page.screenshot({ path: screenshotPath('checkout-phone'), fullPage: true });
    await context.close();
  });

  it('runs embedded: tells its embed origin loaded, confirmed and success, and no other origin', async () => {
    const embedOrigin = `http://127.0.0.1:${sellerSite.port}`;
    const checkout = await createCheckout({ embed_origin: embedOrigin });
    const embedSrc = encodeURIComponent(`${checkout.url}?embed=true`);

    // Another site cannot even frame the checkout (its frame-ancestors name the embed origin only),
    // so it neither shows the form nor hears anything.
    const rogue = await env.browser.newContext();
    const rogueRefusals: string[] = [];
    recordPolicyViolations(rogue, rogueRefusals);
    const roguePage = await rogue.newPage();
    await roguePage.goto(`http://localhost:${sellerSite.port}/embed?src=${embedSrc}`);
    await poll('the browser to refuse the rogue frame', async () =>
      rogueRefusals.some((refusal) => refusal.includes('frame-ancestors')) ? true : undefined,
    );
    expect(await roguePage.frameLocator('#checkout').getByLabel('Email', { exact: true }).count()).toBe(0);
    expect(await roguePage.evaluate<unknown[]>('window.recorded')).toEqual([]);
    await rogue.close();

    const { context, page } = await buyerContext();
    const recorded = () => page.evaluate<RecordedMessage[]>('window.recorded');
    await page.goto(`${embedOrigin}/embed?src=${embedSrc}`);
    const frame = page.frameLocator('#checkout');
    await frame.getByRole('button', { name: 'Close' }).waitFor();
    await fillBuyer(frame, 'embedded@example.test');
    await fillCard(frame, '4242 4242 4242 4242');
    await frame.getByRole('button', { name: 'Pay $20.00' }).click();
    await frame.getByRole('heading', { name: 'Payment successful' }).waitFor({ timeout: 60_000 });
    const messages = await poll('the success message', async () => {
      const all = await recorded();
      return all.some((message) => message.data.event === 'success') ? all : undefined;
    });
    const tollgateOrigin = new URL(env.baseUrl).origin;
    expect(messages.every((message) => message.origin === tollgateOrigin)).toBe(true);
    expect(messages.map((message) => message.data.event)).toEqual(['loaded', 'confirmed', 'success']);
    expect(messages.every((message) => message.data.type === 'POLAR_CHECKOUT')).toBe(true);
    expect(messages[2]?.data).toMatchObject({ redirect: false, successURL: `${checkout.url}/confirmation` });

    await frame.getByRole('button', { name: 'Close' }).click();
    await poll('the close message', async () =>
      (await recorded()).some((message) => message.data.event === 'close') ? true : undefined,
    );
    await context.close();
  });
});
