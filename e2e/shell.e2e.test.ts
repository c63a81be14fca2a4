import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import type { BrowserContext, Page } from 'playwright-core';
import { createAccessToken, createCustomer, createOrder, createProduct } from '../test/factories.js';
import { hasNoHorizontalOverflow, NARROW } from './portal-support.js';
import { poll, recordPolicyViolations, screenshotPath, signUpSeller, useBrowserStack } from './support.js';

// The dashboard's frame: the grouped sidebar, the organization switcher, the global search, the
// test mode badge, the keyboard, and a phone's width.
describe('the dashboard shell in Chromium', () => {
  const env = useBrowserStack('shell');
  const policyViolations: string[] = [];
  afterAll(() => expect(policyViolations).toEqual([]));

  const suffix = randomUUID().slice(0, 8);
  const organizationName = `Shell ${suffix}`;
  let context: BrowserContext;
  let seller: Page;
  let organizationId = '';

  const navigation = (page: Page) => page.getByRole('navigation', { name: 'Dashboard' });
  const navLink = (page: Page, name: string) => navigation(page).getByRole('link', { name, exact: true });
  const search = (page: Page) =>
    page.getByRole('combobox', { name: 'Search customers, orders and products' });
  const path = (page: Page) => new URL(page.url()).pathname;

  /** The sidebar's groups, in order, with their links (Test clocks: the stack runs in sandbox mode). */
  const GROUPS: [string, string[]][] = [
    ['Sales', ['Orders', 'Subscriptions', 'Checkouts', 'Customers', 'Refunds']],
    ['Products', ['Products', 'Discounts', 'Checkout links', 'Benefits', 'Custom fields', 'Meters']],
    ['Developers', ['Webhooks', 'Access tokens', 'API', 'Test clocks']],
    ['Settings', ['Organization', 'Members', 'Teams']],
  ];

  /** Where each dashboard link leads (API leaves the dashboard for the reference). */
  const PAGES: [string, string][] = [
    ['Overview', '/dashboard'],
    ['Orders', '/dashboard/orders'],
    ['Subscriptions', '/dashboard/subscriptions'],
    ['Checkouts', '/dashboard/checkouts'],
    ['Customers', '/dashboard/customers'],
    ['Refunds', '/dashboard/refunds'],
    ['Products', '/dashboard/products'],
    ['Discounts', '/dashboard/discounts'],
    ['Checkout links', '/dashboard/checkout-links'],
    ['Benefits', '/dashboard/benefits'],
    ['Custom fields', '/dashboard/custom-fields'],
    ['Meters', '/dashboard/meters'],
    ['Webhooks', '/dashboard/webhooks'],
    ['Access tokens', '/dashboard/access-tokens'],
    ['Test clocks', '/dashboard/test-clocks'],
    ['Organization', '/dashboard/settings'],
    ['Members', '/dashboard/members'],
    ['Teams', '/dashboard/teams'],
  ];

  // Page functions run in the browser; the e2e tsconfig has no DOM types, so they are written as text.
  const focused = (page: Page) =>
    page.evaluate<{ tag: string; label: string; text: string; outline: string; inSidebar: boolean }>(`(() => {
      const element = document.activeElement;
      return {
        tag: element.tagName,
        label: element.getAttribute('aria-label') ?? '',
        text: element.tagName === 'SELECT' ? '' : (element.textContent ?? '').trim(),
        outline: getComputedStyle(element).outlineStyle,
        inSidebar: element.closest('#dashboard-sidebar') !== null,
      };
    })()`);

  it('groups the sidebar and reaches every page from it, marking the open one', async () => {
    context = await env.browser.newContext({
      locale: 'en-US',
      extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.71' },
    });
    recordPolicyViolations(context, policyViolations);
    seller = await context.newPage();
    await signUpSeller(seller, env.baseUrl, { firstName: 'Shay', suffix, organizationName });
    await navigation(seller).waitFor();
    organizationId = (
      await env.database.db.organization.findFirstOrThrow({ where: { name: organizationName } })
    ).id;

    for (const [group, links] of GROUPS) {
      const list = navigation(seller).getByRole('list', { name: group, exact: true });
      expect(await list.getByRole('link').allTextContents()).toEqual(links);
    }
    expect(await navLink(seller, 'API').getAttribute('href')).toBe('/api-reference');

    for (const [name, target] of PAGES) {
      await navLink(seller, name).click();
      await poll(`${name} to open`, async () => (path(seller) === target ? true : undefined));
      await poll(`${name} to be marked`, async () =>
        (await navLink(seller, name).getAttribute('aria-current')) === 'page' ? true : undefined,
      );
      expect(await navigation(seller).locator('[aria-current="page"]').count()).toBe(1);
    }
    // The members left the Overview for their own page, with the form for a new organization.
    await navLink(seller, 'Members').click();
    await seller.getByRole('region', { name: 'Members' }).waitFor();
    await seller.getByRole('region', { name: 'Create an organization' }).waitFor();
    await navLink(seller, 'Overview').click();
    await seller.getByTestId('overview-empty').waitFor();
    expect(await seller.getByRole('region', { name: 'Members' }).count()).toBe(0);
    await seller.screenshot({ path: screenshotPath('shell-overview'), fullPage: true });
  });

  it('says test mode in the top bar instead of the sandbox banner, which other pages keep', async () => {
    const badge = seller.getByTestId('mode-badge');
    expect(await badge.textContent()).toBe('Test mode');
    expect(await badge.getAttribute('data-mode')).toBe('sandbox');
    expect(await seller.getByTestId('sandbox-banner').count()).toBe(0);
    expect(await seller.getByText('Sandbox mode:').count()).toBe(0);

    await seller.getByRole('link', { name: 'Account security' }).click();
    await seller.getByTestId('sandbox-banner').waitFor();
    expect(await seller.getByTestId('mode-badge').count()).toBe(0);
    await seller.goBack();
    await badge.waitFor();
  });

  it('creates a second organization from the switcher and switches between the two', async () => {
    await seller.getByRole('link', { name: 'New organization', exact: true }).click();
    await poll('the members page', async () => (path(seller) === '/dashboard/members' ? true : undefined));
    // The form takes the focus.
    await poll('the focus in the form', async () =>
      (await seller.evaluate<string | null>("document.activeElement?.getAttribute('name') ?? null")) ===
      'name'
        ? true
        : undefined,
    );
    const longName = `A second organization whose name is far too long for any sidebar ${suffix}`;
    await seller.keyboard.type(longName);
    await seller.keyboard.press('Enter');
    const second = await poll('the second organization', () =>
      env.database.db.organization.findFirst({ where: { name: longName } }).then((row) => row ?? undefined),
    );
    const switcher = seller.getByLabel('Active organization', { exact: true });
    await poll('the new organization to be active', async () =>
      (await switcher.inputValue()) === second.id ? true : undefined,
    );
    // The long name is cut inside the sidebar, whole in the tooltip and the list.
    expect(await seller.getByRole('option', { name: longName }).count()).toBe(1);
    expect(await switcher.getAttribute('title')).toBe(longName);
    expect(
      await seller.evaluate<boolean>(`(() => {
        const select = document.querySelector('#dashboard-sidebar select');
        return select.getBoundingClientRect().right <= select.closest('#dashboard-sidebar').getBoundingClientRect().right;
      })()`),
    ).toBe(true);
    expect(await hasNoHorizontalOverflow(seller)).toBe(true);
    await seller.screenshot({ path: screenshotPath('shell-switcher-long-name') });

    await switcher.selectOption(organizationId);
    await navLink(seller, 'Organization').click();
    const name = seller.getByLabel('Name', { exact: true });
    await poll('the first organization’s settings', async () =>
      (await name.inputValue()) === organizationName ? true : undefined,
    );
    await switcher.selectOption(second.id);
    await poll('the second organization’s settings', async () =>
      (await name.inputValue()) === longName ? true : undefined,
    );
    await switcher.selectOption(organizationId);
    await poll('the first organization again', async () =>
      (await name.inputValue()) === organizationName ? true : undefined,
    );
  });

  it('finds a customer by email, an order by id and a product by name, and opens each', async () => {
    const token = await createAccessToken(env.database.db, organizationId);
    const polar = new Polar({ accessToken: token, serverURL: env.baseUrl });
    const customer = await createCustomer(polar, {
      email: `shelly-${suffix}@example.test`,
      name: 'Shelly Buyer',
    });
    const product = await createProduct(polar, { name: `Lighthouse kit ${suffix}` });
    const order = await createOrder(env.database.db, polar);
    const field = search(seller);
    const results = seller.getByRole('listbox', { name: 'Search results' });

    // A part of the email, in capitals; the keyboard chooses.
    await field.fill(`SHELLY-${suffix}`);
    const found = results.getByRole('option', { name: customer.email });
    await found.waitFor();
    expect(await results.getByRole('group', { name: 'Customers' }).count()).toBe(1);
    expect(await field.getAttribute('aria-expanded')).toBe('true');
    await field.press('ArrowDown');
    expect(await found.getAttribute('aria-selected')).toBe('true');
    expect(await field.getAttribute('aria-activedescendant')).toBe(await found.getAttribute('id'));
    await seller.screenshot({ path: screenshotPath('shell-search') });
    await field.press('Enter');
    await poll('the customer page', async () =>
      path(seller) === `/dashboard/customers/${customer.id}` ? true : undefined,
    );
    expect(await field.inputValue()).toBe('');

    // An order by its whole id, with a click.
    await field.fill(order.id);
    await results
      .getByRole('group', { name: 'Orders' })
      .getByRole('option', { name: new RegExp(`^Order ${order.id.slice(0, 8).toUpperCase()}`) })
      .click();
    await poll('the order page', async () =>
      path(seller) === `/dashboard/orders/${order.id}` ? true : undefined,
    );

    // A product by part of its name: the catalog lists it.
    await field.fill('lighthouse KIT');
    await results.getByRole('option', { name: product.name }).click();
    await poll('the products page', async () => (path(seller) === '/dashboard/products' ? true : undefined));
    await seller.getByTestId('product-row').filter({ hasText: product.name }).waitFor();

    // Nothing found says so; Escape closes the list, then clears the field.
    await field.fill(`nothing-like-${suffix}`);
    await seller.getByText(`Nothing matches “nothing-like-${suffix}”.`).waitFor();
    await field.press('Escape');
    expect(await field.getAttribute('aria-expanded')).toBe('false');
    await field.press('Escape');
    expect(await field.inputValue()).toBe('');
  });

  it('works from the keyboard alone, with the focus always visible', async () => {
    await seller.goto(`${env.baseUrl}/dashboard`);
    await navigation(seller).waitFor();
    // The switcher shows once the organizations are listed.
    await seller.getByLabel('Active organization', { exact: true }).waitFor();
    const links = ['Overview', ...GROUPS.flatMap(([, names]) => names)];
    const wanted = ['search', 'switcher', ...links, 'Sign out'];
    const reached: string[] = [];
    for (let press = 0; press < 60 && reached.length < wanted.length; press += 1) {
      await seller.keyboard.press('Tab');
      const element = await focused(seller);
      // Past the last element the focus leaves the page for the browser's own controls.
      if (element.tag === 'BODY') continue;
      // The browser draws an outline around whatever the keyboard reached.
      expect({ ...element, outline: element.outline === 'none' ? 'none' : 'drawn' }).toEqual({
        ...element,
        outline: 'drawn',
      });
      const name =
        element.label === 'Search customers, orders and products'
          ? 'search'
          : element.label === 'Active organization'
            ? 'switcher'
            : element.text;
      if (wanted.includes(name) && !reached.includes(name)) reached.push(name);
    }
    // In reading order: the top bar's search, the switcher, the navigation, the account.
    expect(reached).toEqual(wanted);

    // Back to Customers with Shift+Tab, and Enter opens it.
    for (let press = 0; press < 30; press += 1) {
      if ((await focused(seller)).text === 'Customers') break;
      await seller.keyboard.press('Shift+Tab');
    }
    await seller.keyboard.press('Enter');
    await poll('Customers', async () => (path(seller) === '/dashboard/customers' ? true : undefined));
    await seller.getByTestId('customer-row').first().waitFor();
    await seller.screenshot({ path: screenshotPath('shell-keyboard') });
  });

  it('fits a 375 px screen: the sidebar folds behind Menu, and no page scrolls sideways', async () => {
    const phone = await context.newPage();
    await phone.setViewportSize(NARROW);
    const pages: [string, string][] = [
      ['overview', '/dashboard'],
      ['orders', '/dashboard/orders'],
      ['customers', '/dashboard/customers'],
      ['products', '/dashboard/products'],
      ['webhooks', '/dashboard/webhooks'],
      ['settings', '/dashboard/settings'],
      ['members', '/dashboard/members'],
    ];
    const fits: Record<string, boolean> = {};
    for (const [name, target] of pages) {
      await phone.goto(`${env.baseUrl}${target}`);
      await phone.getByRole('heading', { level: 1 }).waitFor();
      await phone.waitForLoadState('networkidle');
      expect(await navigation(phone).isVisible()).toBe(false);
      fits[name] = await hasNoHorizontalOverflow(phone);
      await phone.screenshot({ path: screenshotPath(`shell-narrow-${name}`), fullPage: true });
    }

    expect(fits).toEqual(Object.fromEntries(pages.map(([name]) => [name, true])));
    const menu = phone.getByRole('button', { name: 'Menu', exact: true });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await navigation(phone).waitFor();
    expect((await focused(phone)).inSidebar).toBe(true);
    expect(await hasNoHorizontalOverflow(phone)).toBe(true);
    await phone.screenshot({ path: screenshotPath('shell-narrow-menu') });
    // Escape closes it and gives the focus back to the button.
    await phone.keyboard.press('Escape');
    await navigation(phone).waitFor({ state: 'hidden' });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect((await focused(phone)).text).toBe('Menu');
    // Following a link closes it too.
    await menu.click();
    await navLink(phone, 'Orders').click();
    await poll('the orders page', async () => (path(phone) === '/dashboard/orders' ? true : undefined));
    await navigation(phone).waitFor({ state: 'hidden' });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await phone.close();
  });
});
