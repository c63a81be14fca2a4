import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import {
  createMetricsCatalog,
  seedCheckout,
  seedCustomer,
  seedOrder,
  seedRefund,
  seedSubscription,
} from '../test/metrics-seed.js';
import { addMember } from '../test/factories.js';
import { hasNoHorizontalOverflow } from './portal-support.js';
import { poll, recordPolicyViolations, screenshotPath, signUpSeller, useBrowserStack } from './support.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** An instant some days ago: the Overview's last 30 days are days 0 to 29, the 30 before them 30 to 59. */
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);

// A new seller's Overview says how to get a first sale; with a little business, each card shows the
// figure of the last 30 days and how it moved since the 30 days before.
describe('the Overview in Chromium', () => {
  const env = useBrowserStack('overview');
  const policyViolations: string[] = [];
  afterAll(() => expect(policyViolations).toEqual([]));

  const suffix = randomUUID().slice(0, 8);
  let seller: Page;

  const card = (id: string) => seller.getByTestId(`overview-${id}`);
  const figure = async (id: string) => card(id).getByTestId('overview-figure').textContent();
  const change = async (id: string) => card(id).getByTestId('overview-change').textContent();

  it('shows a new seller how to get the first order', async () => {
    const context = await env.browser.newContext({
      locale: 'en-US',
      timezoneId: 'UTC',
      viewport: { width: 1366, height: 900 },
      extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.61' },
    });
    recordPolicyViolations(context, policyViolations);
    seller = await context.newPage();
    await signUpSeller(seller, env.baseUrl, {
      firstName: 'Olga',
      suffix,
      organizationName: `Overview ${suffix}`,
    });
    const empty = seller.getByTestId('overview-empty');
    await empty.waitFor();
    expect(await empty.textContent()).toBe('No sales yet — share a checkout link to get your first order.');
    expect(await empty.getByRole('link', { name: 'share a checkout link' }).getAttribute('href')).toBe(
      '/dashboard/checkout-links',
    );
    // The members, once below the Overview, have a page of their own in the sidebar.
    const navigation = seller.getByRole('navigation', { name: 'Dashboard' });
    await navigation.getByRole('link', { name: 'Members', exact: true }).click();
    await seller.getByRole('region', { name: 'Members' }).waitFor();
    await navigation.getByRole('link', { name: 'Overview', exact: true }).click();
    await empty.waitFor();
  });

  it('shows each figure of the last 30 days against the 30 days before', async () => {
    const { db } = env.database;
    const organization = await db.organization.findFirstOrThrow({ where: { name: `Overview ${suffix}` } });
    const organizationId = organization.id;
    const catalog = await createMetricsCatalog(db, organizationId);

    const customer = async (days: number) => seedCustomer(db, organizationId, { createdAt: daysAgo(days) });
    const buyers = [await customer(2), await customer(5), await customer(10), await customer(12)];
    await customer(40);
    await customer(45);
    const buyer = buyers[0]!.id;
    const order = (days: number, netAmount: number, productId: string, billingReason: string) =>
      seedOrder(db, {
        organizationId,
        customerId: buyer,
        productId,
        billingReason,
        netAmount,
        taxAmount: 190,
        createdAt: daysAgo(days),
      });
    // The last 30 days: $25 + $15 + $100 (a pending renewal counts when it is paid).
    const sold = await order(2, 2500, catalog.oneTime.productId, 'purchase');
    await order(5, 1500, catalog.monthly.productId, 'subscription_create');
    await order(10, 10_000, catalog.yearly.productId, 'subscription_create');
    await seedOrder(db, {
      organizationId,
      customerId: buyer,
      productId: catalog.monthly.productId,
      billingReason: 'subscription_cycle',
      status: 'pending',
      netAmount: 1500,
      createdAt: daysAgo(3),
    });
    // The 30 days before: $50.
    await order(40, 2500, catalog.oneTime.productId, 'purchase');
    await order(45, 2500, catalog.oneTime.productId, 'purchase');

    // A monthly plan and a yearly one now; a monthly plan that ended 20 days ago was the only one before.
    const plan = (
      productId: string,
      recurringInterval: string,
      amount: number,
      started: number,
      ended?: number,
    ) =>
      seedSubscription(db, {
        organizationId,
        customerId: buyer,
        productId,
        recurringInterval,
        amount,
        startedAt: daysAgo(started),
        endedAt: ended === undefined ? null : daysAgo(ended),
      });
    await plan(catalog.monthly.productId, 'month', 1500, 5);
    await plan(catalog.yearly.productId, 'year', 10_000, 10);
    await plan(catalog.monthly.productId, 'month', 1500, 50, 20);

    await seedRefund(db, {
      organizationId,
      orderId: sold.id,
      customerId: buyer,
      amount: 500,
      createdAt: daysAgo(1),
    });
    await seedRefund(db, {
      organizationId,
      orderId: sold.id,
      customerId: buyer,
      amount: 700,
      status: 'pending',
      createdAt: daysAgo(1),
    });

    const checkouts = async (days: number, statuses: string[]) => {
      for (const status of statuses) await seedCheckout(db, catalog, { createdAt: daysAgo(days), status });
    };
    await checkouts(4, ['succeeded', 'succeeded', 'expired', 'open', 'failed']);
    await checkouts(42, ['succeeded', 'expired', 'expired', 'open']);

    await seller.reload();
    await card('revenue').waitFor();
    expect(await figure('revenue')).toBe('$140.00');
    expect(await change('revenue')).toBe('+180%');
    expect(await figure('orders')).toBe('3');
    expect(await change('orders')).toBe('+50%');
    expect(await figure('new-customers')).toBe('4');
    expect(await change('new-customers')).toBe('+100%');
    // $15 a month and $100 a year: $15 + $8.33.
    expect(await figure('mrr')).toBe('$23.33');
    expect(await change('mrr')).toBe('+55.5%');
    expect(await figure('active-subscriptions')).toBe('2');
    expect(await change('active-subscriptions')).toBe('+100%');
    expect(await figure('refunds')).toBe('$5.00');
    expect(await change('refunds')).toBe('Up from 0');
    expect(await card('refunds').textContent()).toContain('1 refund');
    expect(await figure('checkout-conversion')).toBe('40%');
    expect(await change('checkout-conversion')).toBe('+15.0 pts');
    expect(await card('checkout-conversion').textContent()).toContain('2 paid of 5 checkouts');

    // A bar a day against axes of days and amounts, summed up for screen readers, and the 30 days
    // before as the dashed line.
    const chart = card('revenue').getByTestId('trend-chart');
    const label = (await chart.getAttribute('aria-label')) ?? '';
    expect(label).toContain('Revenue by day, last 30 days: 30 bars');
    expect(label).toContain('the highest $100.00');
    const dayTick = (days: number) =>
      new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
        daysAgo(days),
      );
    const dayLabel = (days: number) =>
      new Intl.DateTimeFormat('en-US', {
        weekday: 'short',
        month: 'short',
        day: 'numeric',
        timeZone: 'UTC',
      }).format(daysAgo(days));
    const xTicks = await chart
      .locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value')
      .allTextContents();
    expect(xTicks.length).toBeGreaterThan(2);
    expect(xTicks[0]).toBe(dayTick(29));
    expect(xTicks.at(-1)).toBe(dayTick(0));
    const yTicks = await chart
      .locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value')
      .allTextContents();
    expect(yTicks[0]).toBe('$0');
    expect(yTicks.at(-1)).toMatch(/^\$\d/);
    await chart.locator('.trend-previous .recharts-line-curve').waitFor();
    expect(await chart.locator('.trend-legend').textContent()).toBe('Last 30 daysThe 30 days before');

    // Hovering the highest bar (10 days ago, $100) shows its value and the same day of the stretch
    // before (40 days ago, $25).
    const bars = chart.locator('.trend-current path.recharts-rectangle');
    const heights = await bars.evaluateAll((paths) =>
      paths.map((path) => path.getBoundingClientRect().height),
    );
    await bars.nth(heights.indexOf(Math.max(...heights))).hover();
    const tooltip = chart.getByTestId('trend-tooltip');
    await tooltip.waitFor();
    expect(await tooltip.locator('.trend-tooltip-current').textContent()).toBe(`${dayLabel(10)}: $100.00`);
    expect(await tooltip.locator('.trend-tooltip-previous').textContent()).toBe(`${dayLabel(40)}: $25.00`);

    await seller.setViewportSize({ width: 1366, height: 900 });
    await seller.screenshot({ path: screenshotPath('overview-1366'), fullPage: true });
    await seller.setViewportSize({ width: 390, height: 844 });
    await card('revenue').getByTestId('trend-chart').locator('.recharts-xAxis-tick-labels').waitFor();
    expect(await hasNoHorizontalOverflow(seller)).toBe(true);
    await seller.screenshot({ path: screenshotPath('overview-390'), fullPage: true });
    await seller.setViewportSize({ width: 1366, height: 900 });
  });

  it('follows the range the seller picks', async () => {
    await seller.getByLabel('Range').selectOption({ label: 'Last 7 days' });
    await poll('the last 7 days', async () =>
      (await figure('orders')) === '2' && (await figure('revenue')) === '$40.00' ? true : undefined,
    );
    expect(new URL(seller.url()).searchParams.get('range')).toBe('7d');
    expect(
      await card('orders')
        .locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value')
        .last()
        .textContent(),
    ).toBe(
      new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
        new Date(),
      ),
    );
    expect(await card('orders').getByTestId('trend-chart').getAttribute('aria-label')).toContain('7 bars');

    await seller.getByLabel('Range').selectOption({ label: 'Last 12 months' });
    await poll('the last 12 months', async () =>
      (await figure('orders')) === '5' && (await figure('revenue')) === '$190.00' ? true : undefined,
    );
    expect(await card('orders').getByTestId('trend-chart').getAttribute('aria-label')).toContain('12 bars');
  });

  it('pins a saved dashboard of chosen metrics, which members may pin but not save or delete', async () => {
    await card('orders').waitFor();
    await seller.setViewportSize({ width: 390, height: 844 });
    const form = seller.getByRole('form', { name: 'Save a dashboard' });
    await seller.getByText('Save a dashboard', { exact: true }).click();
    await form.getByLabel('Name').fill('Recurring');
    await form.getByLabel('Annual Recurring Revenue', { exact: true }).check();
    await form.getByLabel('Revenue', { exact: true }).check();
    await form.getByRole('button', { name: 'Save dashboard' }).click();
    // Saved and pinned: its metrics in the order ticked, named as the metrics name them.
    await seller.getByTestId('overview-dashboard').waitFor();
    expect(await seller.getByTestId('overview-dashboard').textContent()).toBe('Recurring');
    const cards = seller.locator('.overview-card h3');
    await poll("the dashboard's cards", async () =>
      (await cards.allTextContents()).join('|') === 'Annual Recurring Revenue|Revenue' ? true : undefined,
    );
    // MRR $23.33 (a monthly $15 and a yearly $100) a year over.
    expect(await figure('annual_recurring_revenue')).toBe('$279.96');
    expect(await card('annual_recurring_revenue').getByTestId('trend-chart').count()).toBe(1);
    expect(await hasNoHorizontalOverflow(seller)).toBe(true);
    await seller.screenshot({ path: screenshotPath('overview-dashboard-390'), fullPage: true });

    // The pin stays with this browser: the Overview without `?dashboard=` shows it again.
    await seller.goto(`${env.baseUrl}/dashboard`);
    await seller.getByTestId('overview-dashboard').waitFor();
    expect(await seller.getByTestId('dashboard-picker').inputValue()).not.toBe('');

    const { db } = env.database;
    const organization = await db.organization.findFirstOrThrow({ where: { name: `Overview ${suffix}` } });
    const memberContext = await env.browser.newContext({
      locale: 'en-US',
      timezoneId: 'UTC',
      viewport: { width: 1366, height: 900 },
      extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.62' },
    });
    recordPolicyViolations(memberContext, policyViolations);
    const member = await memberContext.newPage();
    await signUpSeller(member, env.baseUrl, {
      firstName: 'Milo',
      suffix,
      organizationName: `Milo ${suffix}`,
    });
    const milo = await db.user.findFirstOrThrow({ where: { username: `milo_${suffix}` } });
    await addMember(db, organization.id, milo.id, 'member');
    await member.reload();
    await member.getByLabel('Active organization').selectOption(organization.id);
    // At a phone's width from here (the organization switcher sits behind the menu there).
    await member.setViewportSize({ width: 390, height: 844 });
    await member.getByTestId('dashboard-picker').selectOption({ label: 'Recurring' });
    await member.getByTestId('overview-dashboard').waitFor();
    expect(
      await member
        .getByTestId('overview-annual_recurring_revenue')
        .getByTestId('overview-figure')
        .textContent(),
    ).toBe('$279.96');
    // Roles loaded once the organization is active; the form and the delete button stay away.
    await member.waitForLoadState('networkidle');
    expect(await member.getByText('Save a dashboard', { exact: true }).count()).toBe(0);
    expect(await member.getByRole('button', { name: 'Delete dashboard' }).count()).toBe(0);

    // The seller deletes it: back to the standard cards.
    seller.once('dialog', (dialog) => void dialog.accept());
    await seller.getByRole('button', { name: 'Delete dashboard' }).click();
    await card('orders').waitFor();
    expect(await seller.getByTestId('overview-dashboard').count()).toBe(0);
    expect(await db.metricDashboard.count({ where: { organizationId: organization.id } })).toBe(0);
    await memberContext.close();
  });
});
