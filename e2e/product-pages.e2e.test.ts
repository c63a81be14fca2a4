import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import type { BrowserContext, Page } from 'playwright-core';
import { formatInstant } from '../domain/dates/rules.js';
import { readPdf } from '../test/pdf.js';
import { addMember } from '../test/factories.js';
import { hasNoHorizontalOverflow } from './portal-support.js';
import { poll, recordPolicyViolations, screenshotPath, signUpSeller, useBrowserStack } from './support.js';

const WIDE = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

/** Whitespace as one plain space: ICU sets narrow no-break spaces before "PM". */
const plain = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

// The dashboard as a product: every page names itself, the lists keep their columns at 1366 px and
// hold together at 390 px, the orders list says each order's status, dates follow the
// organization's time zone, an order has one number everywhere, and sellers hear of new orders.
describe('the dashboard reads like a product, in Chromium', () => {
  const env = useBrowserStack('product-pages');
  const policyViolations: string[] = [];
  afterAll(() => expect(policyViolations).toEqual([]));

  const suffix = randomUUID().slice(0, 8);
  const organizationName = `Product pages ${suffix}`;
  let context: BrowserContext;
  let seller: Page;
  let organizationId = '';
  let productId = '';
  let orderId = '';
  let orderNumber = '';

  const navigation = (page: Page) => page.getByRole('navigation', { name: 'Dashboard' });
  const navLink = (page: Page, name: string) => navigation(page).getByRole('link', { name, exact: true });
  const heading = (page: Page) => page.getByRole('heading', { level: 1 });
  const emailsTo = (address: string) =>
    env.database.db.emailMessage.findMany({ where: { toAddress: address }, orderBy: { createdAt: 'asc' } });

  /** Signs a person up through the pages and makes them a member of the seller's organization. */
  async function addTeammate(name: string, role: 'admin' | 'member', address: string) {
    const teammateContext = await env.browser.newContext({
      locale: 'en-US',
      timezoneId: 'UTC',
      extraHTTPHeaders: { 'x-forwarded-for': address },
    });
    recordPolicyViolations(teammateContext, policyViolations);
    const page = await teammateContext.newPage();
    const handle = `${name.toLowerCase()}_${suffix}`;
    await page.goto(`${env.baseUrl}/sign-up`);
    await page.getByLabel('Name', { exact: true }).fill(`${name} ${suffix}`);
    await page.getByLabel('Email', { exact: true }).fill(`${handle.replace('_', '-')}@example.test`);
    await page.getByLabel('Username', { exact: true }).fill(handle);
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Create account' }).click();
    await heading(page).filter({ hasText: 'Overview' }).waitFor();
    const user = await env.database.db.user.findUniqueOrThrow({
      where: { email: `${handle.replace('_', '-')}@example.test` },
    });
    await addMember(env.database.db, organizationId, user.id, role);
    await page.reload();
    await page.getByLabel('Active organization').selectOption(organizationId);
    await navLink(page, 'Products').waitFor();
    return { page, context: teammateContext, user };
  }

  /** Turns the signed-in member's own "New order" email on or off in Settings, as they would. */
  async function switchNewOrderEmail(page: Page, on: boolean) {
    await navLink(page, 'Organization').click();
    const box = page.getByRole('checkbox', { name: 'Email me each new order' });
    await box.waitFor();
    if (on) await box.check();
    else await box.uncheck();
    // The box follows the click at once and stays disabled until the API answered.
    await poll('the choice saved', async () =>
      (await box.isChecked()) === on && (await box.isEnabled()) ? true : undefined,
    );
  }

  it('prepares a seller with a product, an admin who switched the New order email off and a member who switched it on', async () => {
    context = await env.browser.newContext({
      locale: 'en-US',
      timezoneId: 'UTC',
      viewport: WIDE,
      extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.81' },
    });
    recordPolicyViolations(context, policyViolations);
    seller = await context.newPage();
    await signUpSeller(seller, env.baseUrl, { firstName: 'Paula', suffix, organizationName });
    organizationId = (
      await env.database.db.organization.findFirstOrThrow({ where: { name: organizationName } })
    ).id;
    productId = await seller.evaluate(async (organization) => {
      const response = await fetch('/v1/products/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          organization_id: organization,
          name: 'Field guide',
          prices: [{ amount_type: 'fixed', price_amount: 2000, price_currency: 'usd' }],
        }),
      });
      if (!response.ok) throw new Error(`product: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { id: string }).id;
    }, organizationId);

    // The owner gets it by default; the admin switches it off, the member on, each in their settings.
    const owner = seller.getByRole('checkbox', { name: 'Email me each new order' });
    await navLink(seller, 'Organization').click();
    expect(await owner.isChecked()).toBe(true);
    const admin = await addTeammate('Adam', 'admin', '198.51.100.82');
    await switchNewOrderEmail(admin.page, false);
    const member = await addTeammate('Mona', 'member', '198.51.100.83');
    await navLink(member.page, 'Organization').click();
    expect(await member.page.getByRole('checkbox', { name: 'Email me each new order' }).isChecked()).toBe(
      false,
    );
    await switchNewOrderEmail(member.page, true);
    const choices = await env.database.db.member.findMany({
      where: { organizationId },
      select: { userId: true, newOrderEmail: true },
    });
    expect(new Map(choices.map((choice) => [choice.userId, choice.newOrderEmail]))).toEqual(
      new Map([
        [(await env.database.db.user.findFirstOrThrow({ where: { name: `Paula ${suffix}` } })).id, null],
        [admin.user.id, false],
        [member.user.id, true],
      ]),
    );
    await admin.context.close();
    await member.context.close();
  });

  it('writes one order number on the confirmation, the dashboard, the invoice and the emails', async () => {
    const checkout = await seller.evaluate(async (product) => {
      const response = await fetch('/v1/checkouts/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ products: [product] }),
      });
      if (!response.ok) throw new Error(`checkout: ${response.status} ${await response.text()}`);
      return (await response.json()) as { url: string };
    }, productId);
    const buyerContext = await env.browser.newContext({
      locale: 'en-US',
      extraHTTPHeaders: { 'x-forwarded-for': '203.0.113.181' },
    });
    recordPolicyViolations(buyerContext, policyViolations);
    const buyer = await buyerContext.newPage();
    await buyer.goto(checkout.url);
    await buyer.getByLabel('Email', { exact: true }).fill(`ada-${suffix}@example.test`);
    await buyer.getByLabel('Cardholder name', { exact: true }).fill('Ada Buyer');
    await buyer.getByLabel('Country', { exact: true }).selectOption('DE');
    await buyer.getByLabel('Card number', { exact: true }).fill('4242 4242 4242 4242');
    await buyer.getByLabel('Expiry date', { exact: true }).fill('12 / 34');
    await buyer.getByLabel('Security code', { exact: true }).fill('123');
    await buyer.getByRole('button', { name: 'Pay $20.00' }).click();
    await buyer.getByRole('heading', { name: 'Payment successful' }).waitFor({ timeout: 60_000 });
    orderNumber = (await buyer.getByTestId('order-number').textContent({ timeout: 15_000 })) ?? '';
    expect(orderNumber).toMatch(/^[0-9A-F]{8}$/);
    await buyerContext.close();
    const order = await env.database.db.order.findFirstOrThrow({ where: { organizationId } });
    orderId = order.id;
    expect(order.id.slice(0, 8).toUpperCase()).toBe(orderNumber);

    // The dashboard: the list's link and the order page's heading.
    await navLink(seller, 'Orders').click();
    const row = seller.getByTestId('order-row').first();
    await row.waitFor();
    expect(await row.getByRole('link', { name: orderNumber, exact: true }).count()).toBe(1);
    await row.getByRole('link', { name: orderNumber, exact: true }).click();
    await heading(seller)
      .filter({ hasText: `Order ${orderNumber}` })
      .waitFor();
    expect(await seller.title()).toBe(`Order ${orderNumber} · Tollgate`);

    // The invoice prints it.
    await seller.getByRole('button', { name: 'Generate invoice' }).click();
    const invoiceLink = seller.getByRole('link', { name: 'Download invoice' });
    await invoiceLink.waitFor({ timeout: 60_000 });
    const pdf = await seller.evaluate(
      async (href) => {
        const bytes = new Uint8Array(await (await fetch(href)).arrayBuffer());
        return Array.from(bytes);
      },
      (await invoiceLink.getAttribute('href')) ?? '',
    );
    const [page] = await readPdf(new Uint8Array(pdf));
    expect(page?.texts).toContain('Order number');
    expect(page?.texts).toContain(orderNumber);

    // The buyer's receipt and the seller's "New order" email say it the same way.
    const receipt = await poll('the receipt', async () => (await emailsTo(`ada-${suffix}@example.test`))[0]);
    expect(receipt.text).toContain(`Order number: ${orderNumber}`);
  });

  it('sends the New order email to the owner and to the member who opted in, not to the admin who switched it off', async () => {
    const ownerAddress = `paula-${suffix}@example.test`;
    const ownerEmail = await poll('the owner’s New order email', async () =>
      (await emailsTo(ownerAddress)).find((email) => email.subject.startsWith('New order')),
    );
    expect(ownerEmail.subject).toBe(`New order ${orderNumber}: Field guide for $20.00`);
    expect(ownerEmail.idempotencyKey).toMatch(new RegExp(`^order:${orderId}:new-order:`));
    expect(ownerEmail.text).toContain(
      `Ada Buyer (ada-${suffix}@example.test) bought Field guide from ${organizationName} for $20.00.`,
    );
    expect(ownerEmail.text).toContain(`Order number: ${orderNumber}`);
    expect(ownerEmail.text).toContain(`${env.baseUrl}/dashboard/orders/${orderId}`);
    // Members are written to in the order they joined: the member's arriving means the admin's was due before it.
    await poll('the member’s New order email', async () =>
      (await emailsTo(`mona-${suffix}@example.test`)).find((email) => email.subject.startsWith('New order')),
    );
    expect(
      (await emailsTo(`adam-${suffix}@example.test`)).filter((email) =>
        email.subject.startsWith('New order'),
      ),
    ).toEqual([]);
    expect(
      await env.database.db.emailMessage.count({
        where: { idempotencyKey: { startsWith: `order:${orderId}:new-order:` } },
      }),
    ).toBe(2);

    // The dashboard's link leads the owner to the order.
    await seller.goto(`${env.baseUrl}/dashboard/orders/${orderId}`);
    await heading(seller)
      .filter({ hasText: `Order ${orderNumber}` })
      .waitFor();
  });

  it('names every page in its one heading and in the tab', async () => {
    const pages: [string, string][] = [
      ['Overview', 'Overview'],
      ['Orders', 'Orders'],
      ['Subscriptions', 'Subscriptions'],
      ['Checkouts', 'Checkouts'],
      ['Customers', 'Customers'],
      ['Refunds', 'Refunds'],
      ['Products', 'Products'],
      ['Discounts', 'Discounts'],
      ['Checkout links', 'Checkout links'],
      ['Benefits', 'Benefits'],
      ['Custom fields', 'Custom fields'],
      ['Meters', 'Meters'],
      ['Webhooks', 'Webhooks'],
      ['Access tokens', 'Access tokens'],
      ['Test clocks', 'Test clocks'],
      ['Organization', 'Organization settings'],
      ['Members', 'Members'],
      ['Teams', 'Teams'],
    ];
    for (const [link, title] of pages) {
      await navLink(seller, link).click();
      await heading(seller)
        .filter({ hasText: new RegExp(`^${title}$`) })
        .waitFor();
      expect([link, await heading(seller).count()]).toEqual([link, 1]);
      expect(await seller.title()).toBe(`${title} · Tollgate`);
    }
    // A page of one thing is named after it.
    await navLink(seller, 'Customers').click();
    await seller
      .getByRole('link', { name: `ada-${suffix}@example.test` })
      .first()
      .click();
    await heading(seller)
      .filter({ hasText: `ada-${suffix}@example.test` })
      .waitFor();
    expect(await seller.title()).toBe(`ada-${suffix}@example.test · Tollgate`);
  });

  it('keeps every column of the lists in view at 1366 px, the orders with their status', async () => {
    await seller.setViewportSize(WIDE);
    await navLink(seller, 'Checkouts').click();
    await seller.getByTestId('checkout-row').first().waitFor();
    const amount = seller.getByRole('columnheader', { name: 'Amount' });
    const box = await amount.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x + box!.width).toBeLessThanOrEqual(WIDE.width);
    const widths = () =>
      seller.evaluate<{ scroll: number; client: number }[]>(
        `[...document.querySelectorAll('.data-table-scroll')].map((box) => ({ scroll: box.scrollWidth, client: box.clientWidth }))`,
      );
    for (const link of [
      'Orders',
      'Subscriptions',
      'Checkouts',
      'Customers',
      'Refunds',
      'Products',
      'Discounts',
      'Checkout links',
      'Webhooks',
      'Access tokens',
      'Members',
    ]) {
      await navLink(seller, link).click();
      await heading(seller)
        .filter({ hasText: link === 'Members' ? 'Members' : link })
        .waitFor();
      await seller.waitForLoadState('networkidle');
      for (const table of await widths()) {
        if (table.scroll > table.client)
          await seller.screenshot({ path: screenshotPath(`cut-${link}-1366`) });
        expect([link, table]).toEqual([link, { scroll: table.client, client: table.client }]);
      }
      expect([link, await hasNoHorizontalOverflow(seller)]).toEqual([link, true]);
    }

    await navLink(seller, 'Orders').click();
    const row = seller.getByTestId('order-row').first();
    await row.waitFor();
    const headers = await seller.getByRole('columnheader').allTextContents();
    // Sortable headers carry their direction's arrow.
    expect(headers.map((header) => plain(header).replace(/[↓↑↕]/g, ''))).toEqual(
      expect.arrayContaining(['Order', 'Status', 'Customer', 'Amount']),
    );
    const status = row.getByTestId('order-status');
    expect(await status.textContent()).toBe('Paid');
    expect(await status.getAttribute('class')).toContain('badge-ok');
    const statusBox = await seller.getByRole('columnheader', { name: 'Status' }).boundingBox();
    expect(statusBox!.x + statusBox!.width).toBeLessThanOrEqual(WIDE.width);
  });

  it('holds every list together at 390 px: a wide table scrolls in its own box, never the page', async () => {
    await seller.setViewportSize(PHONE);
    for (const path of [
      '/dashboard',
      '/dashboard/orders',
      '/dashboard/subscriptions',
      '/dashboard/checkouts',
      '/dashboard/customers',
      '/dashboard/refunds',
      '/dashboard/products',
      '/dashboard/discounts',
      '/dashboard/checkout-links',
      '/dashboard/benefits',
      '/dashboard/custom-fields',
      '/dashboard/meters',
      '/dashboard/webhooks',
      '/dashboard/access-tokens',
      '/dashboard/test-clocks',
      '/dashboard/settings',
      '/dashboard/members',
      '/dashboard/teams',
    ]) {
      await seller.goto(`${env.baseUrl}${path}`);
      await heading(seller).waitFor();
      await seller.waitForLoadState('networkidle');
      expect([path, await hasNoHorizontalOverflow(seller)]).toEqual([path, true]);
    }
    await seller.setViewportSize(WIDE);
  });

  it("shows dates in the organization's time zone once it is changed in Settings", async () => {
    const order = await env.database.db.order.findUniqueOrThrow({ where: { id: orderId } });
    const created = () => seller.getByTestId('order-row').first().locator('td').nth(1).textContent();
    await seller.goto(`${env.baseUrl}/dashboard/orders`);
    await seller.getByTestId('order-row').first().waitFor();
    // The viewer's clocks are UTC's, as the organization's: no zone named.
    expect(plain(await created())).toBe(plain(formatInstant(order.createdAt, { locale: 'en-US' })));

    await navLink(seller, 'Organization').click();
    await seller.getByLabel('Time zone').selectOption('Pacific/Kiritimati');
    await seller.getByRole('button', { name: 'Save settings' }).click();
    await seller.getByText('Settings saved.').waitFor();
    expect(
      (await env.database.db.organization.findUniqueOrThrow({ where: { id: organizationId } })).timeZone,
    ).toBe('Pacific/Kiritimati');

    await navLink(seller, 'Orders').click();
    await seller.getByTestId('order-row').first().waitFor();
    // 14 hours ahead of the viewer's: the zone is named.
    const kiritimati = formatInstant(order.createdAt, {
      locale: 'en-US',
      timeZone: 'Pacific/Kiritimati',
      withZone: true,
    });
    expect(kiritimati).toContain('GMT+14');
    expect(plain(await created())).toBe(plain(kiritimati));
    await navLink(seller, 'Overview').click();
    expect(plain(await seller.getByTestId('overview-dates').textContent())).toContain(
      'days in Pacific/Kiritimati.',
    );
  });
});
