import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import type { Locator, Page } from 'playwright-core';
import type { UpcomingInvoice } from '../domain/subscriptions/schemas.js';
import { createAccessToken } from '../test/factories.js';
import { buyerContexts, hasNoHorizontalOverflow, openPortalSection } from './portal-support.js';
import { poll, recordPolicyViolations, screenshotPath, signUpSeller, useBrowserStack } from './support.js';

/** Checkouts and meter credits are written by workflows within seconds. */
const WORKFLOW_TIMEOUT_MS = 90_000;
const DAY_MS = 24 * 60 * 60 * 1000;
const ADDRESS = { country: 'DE', city: 'Berlin', postalCode: '10117', line1: 'Unter den Linden 1' };
const WIDE = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };
/** The pages' dates as the buyer's and the seller's browsers write them (both in UTC, en-US). */
const dayOf = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso));

// A plan of $10.00 a month with tokens at $0.002 each (100 included by a benefit) and images at
// 2.5 ¢, a tenth off for ever: what the buyer's usage page and the seller's subscription page say.
describe('usage in money, and the next invoice, in Chromium', () => {
  const env = useBrowserStack('portal-usage');
  const policyViolations: string[] = [];
  afterAll(() => expect(policyViolations).toEqual([]));
  const buyerContext = buyerContexts(() => env.browser, policyViolations, 60);

  const suffix = randomUUID().slice(0, 8);
  // One word longer than a phone is wide: it must wrap, not widen the page.
  const tokensName = `Tokens-${'Supercalifragilistic'.repeat(5)}-${suffix}`;
  const imagesName = `Images ${suffix}`;
  const planName = `Pro API ${suffix}`;
  let seller: Page;
  let polar: Polar;
  let token = '';
  let customerId = '';
  let subscriptionId = '';
  let estimate: UpcomingInvoice;

  it('prepares a seller whose buyer used two meters this period', async () => {
    const context = await env.browser.newContext({ viewport: WIDE, locale: 'en-US', timezoneId: 'UTC' });
    recordPolicyViolations(context, policyViolations);
    seller = await context.newPage();
    const organizationName = `Metered ${suffix}`;
    await signUpSeller(seller, env.baseUrl, { firstName: 'Mia', suffix, organizationName });
    const organization = await env.database.db.organization.findFirstOrThrow({
      where: { name: organizationName },
    });
    token = await createAccessToken(env.database.db, organization.id);
    polar = new Polar({ accessToken: token, serverURL: env.baseUrl });

    const countOf = (name: string, event: string) =>
      polar.meters.create({
        name,
        filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: event }] },
        aggregation: { func: 'count' },
      });
    const tokens = await countOf(tokensName, 'token');
    const images = await countOf(imagesName, 'image');
    const included = await polar.benefits.create({
      type: 'meter_credit',
      description: '100 tokens a month',
      properties: { units: 100, rollover: false, meterId: tokens.id },
    });
    const plan = await polar.products.create({
      name: planName,
      recurringInterval: 'month',
      prices: [
        { amountType: 'fixed', priceAmount: 1000, priceCurrency: 'usd' },
        { amountType: 'metered_unit', meterId: tokens.id, priceCurrency: 'usd', unitAmount: '0.2' },
        {
          amountType: 'metered_unit',
          meterId: images.id,
          priceCurrency: 'usd',
          unitAmount: '2.5',
          capAmount: 500,
        },
      ],
    });
    await polar.products.updateBenefits({ id: plan.id, productBenefitsUpdate: { benefits: [included.id] } });
    const tenth = await polar.discounts.create({
      type: 'percentage',
      duration: 'forever',
      basisPoints: 1000,
      name: `A tenth off ${suffix}`,
    });
    const customer = await polar.customers.create({
      email: `uma-${suffix}@example.test`,
      name: 'Uma Usage',
      billingAddress: ADDRESS,
    });
    customerId = customer.id;
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
    await clocks(`${clock.id}/customers`, { customer_id: customerId });
    const checkout = await polar.checkouts.create({ products: [plan.id], customerId, discountId: tenth.id });
    await new Polar({ serverURL: env.baseUrl }).checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerName: 'Uma Usage',
        customerBillingAddress: ADDRESS,
        confirmationTokenId: 'pm_card_visa',
      },
    });
    subscriptionId = await poll(
      'the paid checkout',
      async () => (await polar.checkouts.get({ id: checkout.id })).subscriptionId ?? undefined,
      WORKFLOW_TIMEOUT_MS,
    );
    const { currentPeriodStart } = await polar.subscriptions.get({ id: subscriptionId });
    const at = (index: number) => new Date(currentPeriodStart.getTime() + DAY_MS + index * 1000);
    // 2,005 tokens (the figure) and 3 images.
    for (const [from, count] of [
      [0, 1000],
      [1000, 1000],
      [2000, 5],
    ] as const) {
      await polar.events.ingest({
        events: Array.from({ length: count }, (_, index) => ({
          name: 'token',
          customerId,
          timestamp: at(from + index),
        })),
      });
    }
    await polar.events.ingest({
      events: [0, 1, 2].map((index) => ({ name: 'image', customerId, timestamp: at(index) })),
    });
    // The benefit credits its 100 tokens a moment after the purchase.
    estimate = await poll(
      'the meter credit',
      async () => {
        const response = await fetch(`${env.baseUrl}/v1/subscriptions/${subscriptionId}/upcoming-invoice`, {
          headers: { authorization: `Bearer ${token}` },
        });
        const body = (await response.json()) as UpcomingInvoice;
        return body.meters[0]?.credited_units === 100 ? body : undefined;
      },
      WORKFLOW_TIMEOUT_MS,
    );
    // (2,005 − 100) × $0.002 = $3.81; 3 × 2.5 ¢ = 7.5 ¢ → 8 ¢; $10.00 less a tenth. No tax here.
    expect(estimate).toMatchObject({
      discount_amount: 100,
      net_amount: 1000 - 100 + 381 + 8,
      total_amount: 1289,
    });
  });

  const meterItem = (page: Page, name: string) =>
    page.getByTestId('portal-meter-usage').filter({ has: page.getByRole('heading', { level: 3, name }) });
  const text = async (locator: Locator) => ((await locator.textContent()) ?? '').trim();

  async function openUsage(viewport: { width: number; height: number }) {
    const context = await buyerContext({ viewport, timezoneId: 'UTC' });
    const page = await context.newPage();
    const { customerPortalUrl } = await polar.customerSessions.create({ customerId });
    await page.goto(customerPortalUrl);
    await page.getByRole('heading', { level: 1, name: 'Your purchases' }).waitFor();
    await openPortalSection(page, 'Usage');
    await page.getByTestId('portal-upcoming-invoice').waitFor();
    return { context, page };
  }

  it('shows the buyer, per meter, the period, the units used, the credits and the amount so far, then the next invoice', async () => {
    const { context, page } = await openUsage(WIDE);
    const plan = page.getByTestId('portal-plan-usage');
    expect(await text(plan.getByRole('heading', { level: 2 }))).toBe(planName);
    const period = `${dayOf(estimate.period_start)} – ${dayOf(estimate.period_end)}`;
    expect(await text(plan.getByTestId('usage-period'))).toBe(`This period: ${period}`);

    const tokens = meterItem(page, tokensName);
    expect(await text(tokens.getByTestId('meter-consumed'))).toBe('2,005');
    expect(await text(tokens.getByTestId('meter-credited'))).toBe('100');
    expect(await text(tokens.getByTestId('meter-amount'))).toBe(
      '$3.81 (2,005 used − 100 credited = 1,905 × $0.002)',
    );
    const images = meterItem(page, imagesName);
    expect(await text(images.getByTestId('meter-consumed'))).toBe('3');
    expect(await text(images.getByTestId('meter-credited'))).toBe('0');
    expect(await text(images.getByTestId('meter-amount'))).toBe('$0.08 (3 used × $0.025, up to $5.00)');

    const invoice = page.getByTestId('portal-upcoming-invoice');
    expect(await text(invoice.getByTestId('upcoming-invoice-summary'))).toBe(
      `$12.89 on ${dayOf(estimate.billed_at!)}`,
    );
    const lines = invoice.getByTestId('upcoming-invoice-line');
    expect(await lines.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-type')))).toEqual([
      'fixed',
      'metered',
      'metered',
    ]);
    expect(await text(lines.nth(0))).toContain(planName);
    expect(await text(lines.nth(0))).toContain(`${dayOf(estimate.period_end)} – `);
    expect(await text(lines.nth(0).getByTestId('upcoming-invoice-line-amount'))).toBe('$10.00');
    expect(await text(lines.nth(1).getByTestId('upcoming-invoice-line-amount'))).toBe('$3.81');
    expect(await text(lines.nth(2).getByTestId('upcoming-invoice-line-amount'))).toBe('$0.08');
    expect(await text(invoice.getByTestId('upcoming-invoice-subtotal'))).toBe('$13.89');
    expect(await text(invoice.getByTestId('upcoming-invoice-discount'))).toBe('−$1.00');
    expect(await text(invoice.getByTestId('upcoming-invoice-tax'))).toBe('$0.00');
    expect(await text(invoice.getByTestId('upcoming-invoice-total'))).toBe('$12.89');
    // The meter with credits also shows what is left of them; the long name wraps.
    expect(await text(page.getByTestId('portal-meter').getByTestId('meter-balance'))).toBe('0');
    expect(await hasNoHorizontalOverflow(page)).toBe(true);
    await page.screenshot({ path: screenshotPath('portal-usage-1366'), fullPage: true });
    await context.close();
  });

  it('fits a 390 px wide phone, the long meter name wrapped inside its card', async () => {
    const { context, page } = await openUsage(PHONE);
    expect(await text(meterItem(page, tokensName).getByTestId('meter-consumed'))).toBe('2,005');
    expect(await text(page.getByTestId('upcoming-invoice-total'))).toBe('$12.89');
    expect(await hasNoHorizontalOverflow(page)).toBe(true);
    // Every card stays inside the page.
    const widths = await page
      .getByTestId('portal-meter-usage')
      .evaluateAll((items) => items.map((item) => item.getBoundingClientRect().right));
    expect(Math.max(...widths)).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: screenshotPath('portal-usage-390'), fullPage: true });
    await context.close();
  });

  it('shows the seller the same estimate on the subscription page', async () => {
    await seller.goto(`${env.baseUrl}/dashboard/subscriptions/${subscriptionId}`);
    const card = seller.getByTestId('subscription-upcoming-invoice');
    await card.getByTestId('upcoming-invoice').waitFor();
    expect(await text(card.getByTestId('upcoming-invoice-summary'))).toBe(
      `$12.89 on ${dayOf(estimate.billed_at!)}`,
    );
    expect(await text(card.getByTestId('upcoming-invoice-discount'))).toBe('−$1.00');
    expect(await text(card.getByTestId('upcoming-invoice-total'))).toBe('$12.89');
    const usage = seller.getByTestId('subscription-usage');
    const row = usage.getByTestId('subscription-usage-row').first();
    expect(await text(row.getByTestId('usage-consumed'))).toBe('2,005');
    expect(await text(row.getByTestId('usage-credited'))).toBe('100');
    expect(await text(row.getByTestId('usage-amount'))).toBe('$3.81');
    expect(await text(usage.getByTestId('subscription-usage-total'))).toBe('$3.89');
    expect(await hasNoHorizontalOverflow(seller)).toBe(true);
    await seller.screenshot({ path: screenshotPath('subscription-upcoming-invoice'), fullPage: true });
  });
});
