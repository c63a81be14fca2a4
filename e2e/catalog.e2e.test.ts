import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { hasNoHorizontalOverflow } from './portal-support.js';
import { poll, screenshotPath, useBrowserStack } from './support.js';

/** A 1×1 PNG: small enough for one part, real enough for Chromium to decode and show. */
const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

type Received = { headers: IncomingHttpHeaders; body: string };

/** A webhook receiver on loopback, which the API allows over plain http. */
function startReceiver(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(200, { 'content-type': 'text/plain' }).end('thanks from the receiver');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
        received,
      }),
    ),
  );
}

// One stack for every catalog page: starting it is most of the run time.
describe('catalog and webhook dashboard pages in Chromium', () => {
  const env = useBrowserStack('catalog');
  const password = 'correct horse battery staple';
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => new Promise<void>((resolve) => receiver.server.close(() => resolve())));

  let clients = 0;
  /** A seller signed up from an address of their own (Better Auth limits sign-ups per address), with an organization. */
  async function signedUpSeller(first: string): Promise<{ page: Page; organizationId: string }> {
    clients += 1;
    const context = await env.browser.newContext({
      extraHTTPHeaders: { 'x-forwarded-for': `198.51.100.${clients}` },
    });
    const page = await context.newPage();
    const suffix = randomUUID().slice(0, 8);
    await page.goto(`${env.baseUrl}/sign-up`);
    await page.getByLabel('Name', { exact: true }).fill(`${first} ${suffix}`);
    await page.getByLabel('Email', { exact: true }).fill(`${first.toLowerCase()}-${suffix}@example.test`);
    await page.getByLabel('Username', { exact: true }).fill(`${first.toLowerCase()}_${suffix}`);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview', exact: true }).waitFor();
    const name = `Shop ${suffix}`;
    await page.getByLabel('Organization name', { exact: true }).fill(name);
    await page.getByRole('button', { name: 'Create organization' }).click();
    // The sidebar's navigation shows once the new organization is the active one.
    await page.getByRole('navigation', { name: 'Dashboard' }).waitFor();
    const organization = await env.database.db.organization.findFirstOrThrow({ where: { name } });
    return { page, organizationId: organization.id };
  }

  const label = (page: Page, text: string) => page.getByLabel(text, { exact: true });

  it('creates a product with a fixed price and an uploaded image, then swaps in a pay-what-you-want price', async () => {
    const { page, organizationId } = await signedUpSeller('Paula');
    await page.getByRole('link', { name: 'Products' }).click();
    await page.getByText('No products yet.').waitFor();

    const name = `Poster ${randomUUID().slice(0, 6)}`;
    await label(page, 'Product name').fill(name);
    await label(page, 'Description').fill('A print for the wall');
    await label(page, 'Price 1 amount (USD)').fill('19.99');
    await page.getByRole('button', { name: 'Add a price' }).click();
    await label(page, 'Price 2 type').selectOption('custom');
    await label(page, 'Price 2 minimum (USD)').fill('5');

    // Holds the PUT of the bytes until the progress indicator has been seen.
    let releaseUpload = () => {};
    const uploadHeld = new Promise<void>((resolve) => (releaseUpload = resolve));
    await page.route('**/api/files/upload/**', async (route) => {
      await uploadHeld;
      await route.continue();
    });
    await label(page, 'Add an image').setInputFiles({
      name: 'poster.png',
      mimeType: 'image/png',
      buffer: PIXEL_PNG,
    });
    await page.getByRole('progressbar', { name: 'Upload progress' }).waitFor();
    releaseUpload();
    await page.getByRole('img', { name: 'poster.png' }).waitFor();
    await page.getByRole('progressbar', { name: 'Upload progress' }).waitFor({ state: 'detached' });

    // Polar's rule: one static price (free, fixed or custom) per product; the API's answer is shown.
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.getByRole('alert').filter({ hasText: 'A product may have only one static price' }).waitFor();
    await page.getByRole('button', { name: 'Remove price 2' }).click();
    await page.getByRole('button', { name: 'Create product' }).click();

    const row = page.getByTestId('product-row').filter({ hasText: name });
    await row.waitFor();
    expect(await row.getByTestId('product-price').allTextContents()).toEqual(['$19.99']);
    const image = row.getByRole('img', { name: `Image of ${name}` });
    await poll('the product image to load', async () =>
      (await image.evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth)) === 1
        ? true
        : undefined,
    );
    const served = await fetch(`${env.baseUrl}${new URL((await image.getAttribute('src')) ?? '').pathname}`);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PIXEL_PNG);

    await page.getByRole('button', { name: `Edit ${name}` }).click();
    await page.getByRole('button', { name: 'Remove price 1' }).click();
    await page.getByRole('button', { name: 'Add a price' }).click();
    await label(page, 'Price 1 type').selectOption('custom');
    await label(page, 'Price 1 minimum (USD)').fill('5');
    await label(page, 'Price 1 maximum (USD)').fill('100');
    await label(page, 'Price 1 suggested amount (USD)').fill('10');
    await page.getByRole('button', { name: 'Save product' }).click();
    await row.getByText('Pay what you want').waitFor();
    expect(await row.getByTestId('product-price').allTextContents()).toEqual([
      'Pay what you want (min $5.00, max $100.00, suggested $10.00)',
    ]);
    await image.waitFor();
    await page.screenshot({ path: screenshotPath('catalog-products'), fullPage: true });

    const product = await env.database.db.product.findFirstOrThrow({
      where: { organizationId, name },
      include: { prices: { orderBy: { createdAt: 'asc' } } },
    });
    expect(
      product.prices.map(
        ({ amountType, isArchived, priceAmount, minimumAmount, maximumAmount, presetAmount }) => ({
          amountType,
          isArchived,
          priceAmount,
          minimumAmount,
          maximumAmount,
          presetAmount,
        }),
      ),
    ).toEqual([
      {
        amountType: 'fixed',
        isArchived: true,
        priceAmount: 1999,
        minimumAmount: null,
        maximumAmount: null,
        presetAmount: null,
      },
      {
        amountType: 'custom',
        isArchived: false,
        priceAmount: null,
        minimumAmount: 500,
        maximumAmount: 10_000,
        presetAmount: 1000,
      },
    ]);

    await page.getByRole('button', { name: `Archive ${name}` }).click();
    await row.waitFor({ state: 'detached' });
    await label(page, 'Show archived products').check();
    await row.filter({ hasText: 'Archived' }).waitFor();
  });

  it('creates a seat-based plan from tier rows at 390 px, refusing a tier without an end next to its field', async () => {
    const { page, organizationId } = await signedUpSeller('Sami');
    await page.getByRole('link', { name: 'Products' }).click();
    await page.getByText('No products yet.').waitFor();
    // A phone's width from here on (its navigation is a menu, so the page is opened before).
    await page.setViewportSize({ width: 390, height: 844 });
    const name = `Team plan ${randomUUID().slice(0, 6)}`;
    await label(page, 'Product name').fill(name);
    await label(page, 'Billing').selectOption('month');
    await label(page, 'Price 1 type').selectOption('seat_based');
    await label(page, 'Price 1 tier rule').selectOption('graduated');
    await label(page, 'Price 1 fewest seats').fill('3');
    await label(page, 'Price 1 tier 1 per seat (USD)').fill('10');
    await page.getByRole('button', { name: 'Add a tier to price 1' }).click();
    await label(page, 'Price 1 tier 2 per seat (USD)').fill('8');

    // Tier 1 has no end but is not the last: said next to its field, nothing sent.
    await page.getByRole('button', { name: 'Create product' }).click();
    const upTo = label(page, 'Price 1 tier 1 up to (seats)');
    expect(await upTo.getAttribute('aria-invalid')).toBe('true');
    await page.getByText('Enter a whole number of seats from 1 to 1000000.').waitFor();
    expect(await env.database.db.product.count({ where: { organizationId } })).toBe(0);

    await upTo.fill('10');
    const preview = page.getByTestId('seat-tiers').getByText(/^Seats 3–10 at \$10\.00/);
    expect(await preview.textContent()).toBe(
      'Seats 3–10 at $10.00, 11 and more at $8.00 each (each seat at its own tier’s rate)',
    );
    expect(await hasNoHorizontalOverflow(page)).toBe(true);
    await page.screenshot({ path: screenshotPath('catalog-seat-tiers-390'), fullPage: true });
    await page.getByRole('button', { name: 'Create product' }).click();

    const row = page.getByTestId('product-row').filter({ hasText: name });
    await row.waitFor();
    expect(await row.getByTestId('product-price').allTextContents()).toEqual([
      'Seats 3–10 at $10.00, 11 and more at $8.00 each (each seat at its own tier’s rate) / month, min 3 seats',
    ]);
    const [price] = (
      await env.database.db.product.findFirstOrThrow({
        where: { organizationId, name },
        include: { prices: true },
      })
    ).prices;
    expect(price).toMatchObject({ amountType: 'seat_based', priceCurrency: 'usd' });
    expect(price!.tierTable).toEqual({
      mode: 'graduated',
      tiers: [
        { upTo: 10, unitAmount: 1000 },
        { upTo: null, unitAmount: 800 },
      ],
      minimum: 3,
      maximum: null,
    });
  });

  it('creates a webhook endpoint whose secret is shown once, and logs the deliveries of product events', async () => {
    const { page } = await signedUpSeller('Walter');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await label(page, 'Endpoint URL').fill(receiver.url);
    await label(page, 'product.created').check();
    await label(page, 'product.updated').check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = (await page.getByTestId('webhook-secret').textContent()) ?? '';
    expect(secret).toMatch(/^tollgate_whs_[\w-]{43}$/);
    await page.getByRole('button', { name: 'Done' }).click();
    const endpointRow = page.getByTestId('webhook-row').filter({ hasText: receiver.url });
    await endpointRow.waitFor();
    expect(await page.content()).not.toContain(secret);

    await page.getByRole('link', { name: 'Products' }).click();
    const name = `Hooked ${randomUUID().slice(0, 6)}`;
    await label(page, 'Product name').fill(name);
    await label(page, 'Price 1 type').selectOption('free');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.getByTestId('product-row').filter({ hasText: name }).waitFor();
    await page.getByRole('button', { name: `Edit ${name}` }).click();
    await label(page, 'Product name').fill(`${name} v2`);
    await page.getByRole('button', { name: 'Save product' }).click();
    await page
      .getByTestId('product-row')
      .filter({ hasText: `${name} v2` })
      .waitFor();

    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('link', { name: receiver.url }).click();
    const deliveries = page.getByTestId('delivery-row');
    // The worker delivers in the background; the log refreshes itself.
    const created = deliveries.filter({ hasText: 'product.created' }).filter({ hasText: name });
    const updated = deliveries.filter({ hasText: 'product.updated' }).filter({ hasText: `${name} v2` });
    await created.waitFor({ timeout: 60_000 });
    await updated.waitFor({ timeout: 60_000 });
    expect(await created.textContent()).toContain('Succeeded 200');

    // One row per event; its disclosure button opens the attempts, payload and response.
    await created.locator('button[aria-expanded]').click();
    const payload = JSON.parse((await created.getByTestId('delivery-payload').textContent()) ?? '') as {
      type: string;
      data: { name: string; prices: { amount_type: string; price_amount?: number }[] };
    };
    // The endpoint renders in its API version (2026-10 by default), which has no free price: a
    // free product's price reaches it as a fixed zero.
    expect(payload).toMatchObject({
      type: 'product.created',
      data: { name, prices: [{ amount_type: 'fixed', price_amount: 0 }] },
    });
    await created.getByText('thanks from the receiver').waitFor();

    // What the receiver got is signed with the secret the page showed (Standard Webhooks, v1).
    const delivered = receiver.received.find((request) => request.body.includes(`"name":"${name}"`));
    expect(delivered).toBeDefined();
    const { headers, body } = delivered!;
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8'))
      .update(`${String(headers['webhook-id'])}.${String(headers['webhook-timestamp'])}.${body}`)
      .digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${expected}`);

    const before = receiver.received.length;
    await created.getByRole('button', { name: 'Redeliver' }).click();
    await created.getByText('Sent again').waitFor();
    await poll('the redelivered attempt', async () =>
      (await created.getByTestId('webhook-attempt').count()) === 2 ? true : undefined,
    );
    expect(receiver.received.length).toBeGreaterThan(before);
    await page.screenshot({ path: screenshotPath('catalog-webhook-deliveries'), fullPage: true });
  });

  it('builds a meter filter of nested and/or groups and creates a select custom field', async () => {
    const { page, organizationId } = await signedUpSeller('Mona');
    await page.getByRole('link', { name: 'Meters' }).click();
    await label(page, 'Meter name').fill('AI tokens');
    await label(page, 'Clause 1 property').fill('name');
    await label(page, 'Clause 1 value').fill('completion');
    await page.getByRole('button', { name: 'Add a group to filter' }).click();
    await label(page, 'Clause 2.1 property').fill('region');
    await label(page, 'Clause 2.1 value').fill('eu');
    await page.getByRole('button', { name: 'Add a clause to group 2' }).click();
    await label(page, 'Clause 2.2 property').fill('tokens');
    await label(page, 'Clause 2.2 operator').selectOption('gt');
    await label(page, 'Clause 2.2 value type').selectOption('number');
    await label(page, 'Clause 2.2 value').fill('100');
    await label(page, 'Aggregation').selectOption('sum');
    await label(page, 'Aggregated property').fill('tokens');
    await page.getByRole('button', { name: 'Create meter' }).click();
    const meterRow = page.getByTestId('meter-row').filter({ hasText: 'AI tokens' });
    await meterRow.waitFor();
    expect(await meterRow.getByTestId('meter-filter').textContent()).toBe(
      'name equals "completion" and (region equals "eu" or tokens greater than 100)',
    );
    const meter = await env.database.db.meter.findFirstOrThrow({ where: { organizationId } });
    expect(meter.filter).toEqual({
      conjunction: 'and',
      clauses: [
        { property: 'name', operator: 'eq', value: 'completion' },
        {
          conjunction: 'or',
          clauses: [
            { property: 'region', operator: 'eq', value: 'eu' },
            { property: 'tokens', operator: 'gt', value: 100 },
          ],
        },
      ],
    });
    expect(meter.aggregation).toEqual({ func: 'sum', property: 'tokens' });

    await page.getByRole('link', { name: 'Custom fields' }).click();
    await label(page, 'Field type').selectOption('select');
    await label(page, 'Field name').fill('Company size');
    await label(page, 'Slug').fill('company size');
    await label(page, 'Option 1 value').fill('small');
    await label(page, 'Option 1 label').fill('Small');
    await page.getByRole('button', { name: 'Add an option' }).click();
    await label(page, 'Option 2 value').fill('large');
    await label(page, 'Option 2 label').fill('Large');
    await page.getByRole('button', { name: 'Create field' }).click();
    await page
      .locator('.field-error')
      .filter({ hasText: 'A slug may contain only letters, digits and hyphens, such as company-size.' })
      .waitFor();
    await label(page, 'Slug').fill('company-size');
    await page.getByRole('button', { name: 'Create field' }).click();
    const fieldRow = page.getByTestId('custom-field-row').filter({ hasText: 'Company size' });
    await fieldRow.waitFor();
    expect(await fieldRow.textContent()).toContain('Select (Small, Large)');
    expect(await env.database.db.customField.count({ where: { organizationId, slug: 'company-size' } })).toBe(
      1,
    );
  });
});
