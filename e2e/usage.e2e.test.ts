import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import type { Page } from 'playwright-core';
import { createAccessToken } from '../test/factories.js';
import {
  poll,
  recordPolicyViolations,
  reloadUntilVisible,
  screenshotPath,
  useBrowserStack,
  signUpSeller,
} from './support.js';

/** Customer meters and `subscription.meters` follow usage within a second or two; checkouts within seconds. */
const WORKFLOW_TIMEOUT_MS = 90_000;
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
// The browser's zone, half an hour off UTC's: a bucket starting at UTC midnight would be seen.
const TIME_ZONE = 'Asia/Kolkata';
const ADDRESS = { country: 'DE', city: 'Berlin', postalCode: '10117', line1: 'Unter den Linden 1' };

const localDate = new Intl.DateTimeFormat('en-CA', {
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The date (YYYY-MM-DD) in the browser's zone `days` days before today. */
function daysAgo(days: number): string {
  const today = localDate.format(new Date());
  return new Date(Date.parse(`${today}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);
}

/** An instant on a local date of the browser's zone (which has no daylight saving time). */
const localTime = (date: string, time: string) => new Date(`${date}T${time}+05:30`);

/** What a day chart of the last `days` days shows: the counted events of each local day, oldest first. */
function dailyCounts(timestamps: Date[], days: number): number[] {
  const dates = Array.from({ length: days }, (_, index) => daysAgo(days - 1 - index));
  return dates.map((date) => timestamps.filter((timestamp) => localDate.format(timestamp) === date).length);
}

// A count meter's chart and customers, and a metered plan's running usage, on one stack.
describe('usage in Chromium', () => {
  const env = useBrowserStack('usage');
  // Every page works under its Content-Security-Policy: nothing it needs was refused.
  const policyViolations: string[] = [];
  afterAll(() => expect(policyViolations).toEqual([]));

  const suffix = randomUUID().slice(0, 8);
  const meterName = `API calls ${suffix}`;
  const ada = { name: 'Ada Lovelace', email: `ada-${suffix}@example.test` };
  // One word, longer than any column: it must be cut, not widen the page.
  const longName = `Bartholomew-${'Fitzwilliam'.repeat(20)}`;
  let seller: Page;
  let token = '';
  let polar: Polar;
  let meterId = '';
  /** The events the meter counts, whoever sent them. */
  const counted: Date[] = [];
  let adaCount = 0;

  async function ingest(events: { name: string; customerId: string; timestamp: Date }[]) {
    const answer = await polar.events.ingest({ events });
    expect(answer.inserted).toBe(events.length);
    for (const event of events) if (event.name === 'api_call') counted.push(event.timestamp);
  }

  const bars = () => seller.getByTestId('meter-chart-bar');
  const barQuantities = async () =>
    (await bars().evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-quantity')))).map(
      Number,
    );

  it('prepares a seller with a count meter and two customers who used it over the last weeks', async () => {
    // The browser lives elsewhere: the chart follows the organization's zone, not the viewer's.
    const context = await env.browser.newContext({
      timezoneId: 'America/Los_Angeles',
      locale: 'en-US',
      extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.31' },
    });
    recordPolicyViolations(context, policyViolations);
    seller = await context.newPage();
    await signUpSeller(seller, env.baseUrl, {
      firstName: 'Uma',
      suffix,
      organizationName: `Usage ${suffix}`,
    });
    // The sidebar's navigation shows once the new organization is the active one.
    await seller.getByRole('navigation', { name: 'Dashboard' }).waitFor();
    const organization = await env.database.db.organization.findFirstOrThrow({
      where: { name: `Usage ${suffix}` },
    });
    // As if set in Settings (e2e/product-pages.e2e.test.ts does that): the page reads it on loading.
    await env.database.db.organization.update({
      where: { id: organization.id },
      data: { timeZone: TIME_ZONE },
    });
    await seller.reload();
    await seller.getByRole('navigation', { name: 'Dashboard' }).waitFor();
    token = await createAccessToken(env.database.db, organization.id);
    polar = new Polar({ accessToken: token, serverURL: env.baseUrl });

    meterId = (
      await polar.meters.create({
        name: meterName,
        filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'api_call' }] },
        aggregation: { func: 'count' },
      })
    ).id;
    const first = await polar.customers.create({ email: ada.email, name: ada.name });
    const second = await polar.customers.create({ email: `long-${suffix}@example.test`, name: longName });

    const call = (customerId: string, timestamp: Date) => ({ name: 'api_call', customerId, timestamp });
    const adaCalls = [
      // Just after and just before a local midnight: UTC's days would put these in other bars.
      call(first.id, localTime(daysAgo(1), '00:30:00')),
      call(first.id, localTime(daysAgo(1), '00:45:00')),
      call(first.id, localTime(daysAgo(1), '23:30:00')),
      call(first.id, localTime(daysAgo(3), '00:10:00')),
      call(first.id, localTime(daysAgo(5), '23:40:00')),
      call(first.id, localTime(daysAgo(5), '23:50:00')),
      // Outside the last 7 days, inside the last 30.
      call(first.id, localTime(daysAgo(12), '12:00:00')),
      call(first.id, new Date(Date.now() - MINUTE_MS)),
    ];
    adaCount = adaCalls.length;
    await ingest([
      ...adaCalls,
      ...[1, 2, 3, 4].map((minute) => call(second.id, localTime(daysAgo(2), `12:0${minute}:00`))),
      // Outside the last 30 days, inside the last 12 weeks.
      call(second.id, localTime(daysAgo(40), '12:00:00')),
      // Not an api_call: the meter does not count it.
      { name: 'page_view', customerId: first.id, timestamp: localTime(daysAgo(1), '12:00:00') },
    ]);
  });

  it('draws the meter by day of the organization’s time zone, with each range’s total', async () => {
    await seller
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'Meters', exact: true })
      .click();
    await seller.getByTestId('meter-row').getByRole('link', { name: meterName }).click();
    await seller.getByRole('heading', { level: 1, name: meterName }).waitFor();
    const details = (await seller.getByTestId('meter-details').textContent()) ?? '';
    expect(details).toContain('name equals "api_call"');
    expect(details).toContain('count of events');

    // The last 30 days by day unless the seller picks another range.
    const chart = seller.getByTestId('meter-chart');
    await chart.waitFor();
    expect(await bars().count()).toBe(30);
    const lastMonth = dailyCounts(counted, 30);
    expect(await barQuantities()).toEqual(lastMonth);
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
    expect(await seller.getByTestId('meter-total').textContent()).toBe(String(sum(lastMonth)));
    expect(sum(lastMonth)).toBe(counted.length - 1);
    expect(await chart.getAttribute('role')).toBe('img');
    expect(await chart.getAttribute('aria-label')).toContain(`${meterName}, last 30 days, by day: 30 bars`);
    // Each bar is named after its local day.
    const today = new Intl.DateTimeFormat('en-US', {
      timeZone: TIME_ZONE,
      weekday: 'short',
      month: 'short',
      day: 'numeric',
    }).format(new Date());
    expect(await bars().last().locator('title').textContent()).toBe(`${today}: ${lastMonth.at(-1)}`);

    await seller.getByLabel('Range').selectOption({ label: 'Last 7 days, by day' });
    await poll('7 bars', async () => ((await bars().count()) === 7 ? true : undefined));
    const lastWeek = dailyCounts(counted, 7);
    expect(await barQuantities()).toEqual(lastWeek);
    expect(await seller.getByTestId('meter-total').textContent()).toBe(String(sum(lastWeek)));
    expect(new URL(seller.url()).searchParams.get('range')).toBe('7d');
    await seller.screenshot({ path: screenshotPath('usage-meter'), fullPage: true });

    await seller.getByLabel('Range').selectOption({ label: 'Last 12 weeks, by week' });
    await poll('12 bars', async () => ((await bars().count()) === 12 ? true : undefined));
    expect(sum(await barQuantities())).toBe(counted.length);
    expect(await seller.getByTestId('meter-total').textContent()).toBe(String(counted.length));
  });

  it('lists each customer’s consumed units, heaviest first, without widening the page', async () => {
    const rows = seller.getByTestId('customer-meter-row');
    const adaRow = rows.filter({ hasText: ada.name });
    // The refresher writes customer meters a moment after the events.
    await reloadUntilVisible(
      seller,
      adaRow.getByTestId('consumed-units').filter({ hasText: new RegExp(`^${adaCount}$`) }),
      'Ada’s customer meter',
      WORKFLOW_TIMEOUT_MS,
    );
    const longRow = rows.filter({ hasText: longName.slice(0, 20) });
    await reloadUntilVisible(
      seller,
      longRow.getByTestId('consumed-units').filter({ hasText: /^5$/ }),
      'the second customer meter',
      WORKFLOW_TIMEOUT_MS,
    );
    expect(await rows.count()).toBe(2);
    expect(await rows.first().textContent()).toContain(ada.name);
    expect(await adaRow.getByTestId('credited-units').textContent()).toBe('0');
    expect(await adaRow.getByTestId('balance').textContent()).toBe(String(-adaCount));
    expect(
      await seller.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth'),
    ).toBe(true);

    await adaRow.getByRole('link', { name: ada.name }).click();
    await seller.getByRole('heading', { level: 1, name: ada.email }).waitFor();
  });

  it('says when a meter has no usage in the range instead of drawing an empty chart', async () => {
    const idle = await polar.meters.create({
      name: `Exports ${suffix}`,
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'export' }] },
      aggregation: { func: 'count' },
    });
    await seller.goto(`${env.baseUrl}/dashboard/meters/${idle.id}`);
    await seller.getByText('No usage in this range.').waitFor();
    await seller.getByText('No customer has used this meter yet.').waitFor();
    expect(await seller.getByTestId('meter-chart').count()).toBe(0);
  });

  it('shows a metered plan’s usage this period and what it will bill so far', async () => {
    const plan = await polar.products.create({
      name: `Metered ${suffix}`,
      recurringInterval: 'month',
      prices: [
        { amountType: 'fixed', priceAmount: 1000, priceCurrency: 'usd' },
        { amountType: 'metered_unit', meterId, priceCurrency: 'usd', unitAmount: '0.5' },
      ],
    });
    const carol = await polar.customers.create({ email: `carol-${suffix}@example.test`, name: 'Carol' });
    // A clock ten days back: the plan's period began then, and usage dated since is accepted.
    const clocks = async (path: string, body: unknown) => {
      const response = await fetch(`${env.baseUrl}/v1/test-clocks/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`test clock ${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as { id: string };
    };
    const clock = await clocks('', {
      name: `Usage ${suffix}`,
      frozen_time: new Date(Date.now() - 10 * DAY_MS).toISOString(),
    });
    await clocks(`${clock.id}/customers`, { customer_id: carol.id });

    const checkout = await polar.checkouts.create({ products: [plan.id], customerId: carol.id });
    await new Polar({ serverURL: env.baseUrl }).checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerName: 'Carol',
        customerBillingAddress: ADDRESS,
        confirmationTokenId: 'pm_card_visa',
      },
    });
    const subscriptionId = await poll(
      'the paid checkout',
      async () => (await polar.checkouts.get({ id: checkout.id })).subscriptionId ?? undefined,
      WORKFLOW_TIMEOUT_MS,
    );
    const subscription = await polar.subscriptions.get({ id: subscriptionId });
    const periodStart = subscription.currentPeriodStart.getTime();

    const units = 7;
    await ingest([
      // Before the period: never billed.
      { name: 'api_call', customerId: carol.id, timestamp: new Date(periodStart - HOUR_MS) },
      ...Array.from({ length: units }, (_, index) => ({
        name: 'api_call',
        customerId: carol.id,
        timestamp: new Date(periodStart + (index + 1) * DAY_MS),
      })),
    ]);
    // 0.5 ¢ a unit, rounded half up once, on the line's total: 7 × 0.5 ¢ = 3.5 ¢ → 4 ¢.
    const cents = Math.floor((units * 5 + 5) / 10);
    const amount = `$0.${String(cents).padStart(2, '0')}`;

    await seller.goto(`${env.baseUrl}/dashboard/subscriptions/${subscriptionId}`);
    const card = seller.getByTestId('subscription-usage');
    const row = card.getByTestId('subscription-usage-row').filter({ hasText: meterName });
    await reloadUntilVisible(
      seller,
      row.getByTestId('usage-consumed').filter({ hasText: new RegExp(`^${units}$`) }),
      'the period’s usage',
      WORKFLOW_TIMEOUT_MS,
    );
    expect(await row.getByTestId('usage-credited').textContent()).toBe('0');
    expect(await row.getByTestId('usage-amount').textContent()).toBe(amount);
    expect(await card.getByTestId('subscription-usage-total').textContent()).toBe(amount);
    expect(await card.textContent()).toContain('billed at the end of the period on the renewal order');
    await seller.screenshot({ path: screenshotPath('usage-subscription'), fullPage: true });

    await row.getByRole('link', { name: meterName }).click();
    await seller.getByRole('heading', { level: 1, name: meterName }).waitFor();
  });
});
