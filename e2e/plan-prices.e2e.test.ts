import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import type { BrowserContext, Page } from 'playwright-core';
import type { PricePhaseWire } from '../domain/subscriptions/schemas.js';
import { createAccessToken } from '../test/factories.js';
import { hasNoHorizontalOverflow } from './portal-support.js';
import { poll, recordPolicyViolations, screenshotPath, signUpSeller, useBrowserStack } from './support.js';

/** Checkouts, subscriptions and their emails are written by workflows within seconds. */
const WORKFLOW_TIMEOUT_MS = 90_000;
const WIDE = { width: 1366, height: 900 };
/** A phone: the narrowest the checkout is made for. */
const PHONE = { width: 390, height: 844 };

// Issue 31: a plan's price is said as it will be charged. A $20/month plan bought with a 20 % code
// that lasts once is "$16.00 today, then $20.00 / month" on the checkout, its Pay button, the
// confirmation, the welcome email, the portal and the seller's subscription page; never "$16.00 /
// month". Metered prices are listed at checkout with their unit price, cap and billing.
describe('plan prices over time in Chromium', () => {
  const env = useBrowserStack('plan-prices');
  const policyViolations: string[] = [];
  afterAll(() => expect(policyViolations).toEqual([]));

  const suffix = randomUUID().slice(0, 8);
  let polar: Polar;
  let token = '';
  let seller: Page;
  let proId = '';
  let apiId = '';
  let address = 60;

  /** Pages in English, in UTC, each buyer from an address of their own (the checkout is rate-limited). */
  async function newContext(viewport = WIDE): Promise<BrowserContext> {
    address += 1;
    const context = await env.browser.newContext({
      locale: 'en-US',
      timezoneId: 'UTC',
      viewport,
      extraHTTPHeaders: { 'x-forwarded-for': `203.0.113.${address}` },
    });
    recordPolicyViolations(context, policyViolations);
    return context;
  }

  /** The day a phase ends, as the pages write a day (`formatDate`: the reader's locale, medium). */
  const day = (iso: string) =>
    new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso));

  async function scheduleOf(subscriptionId: string): Promise<PricePhaseWire[]> {
    const response = await fetch(`${env.baseUrl}/v1/subscriptions/${subscriptionId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return ((await response.json()) as { price_schedule: PricePhaseWire[] }).price_schedule;
  }

  /** Opens a checkout of `productId`, fills the buyer and card, and applies `code`. */
  async function openCheckout(page: Page, productId: string, email: string, code: string | null) {
    const checkout = await polar.checkouts.create({ products: [productId] });
    await page.goto(checkout.url);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Cardholder name', { exact: true }).fill('Bea Buyer');
    await page.getByLabel('Country', { exact: true }).selectOption('DE');
    await page.getByLabel('Card number', { exact: true }).fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry date', { exact: true }).fill('12 / 34');
    await page.getByLabel('Security code', { exact: true }).fill('123');
    if (code) {
      await page.getByLabel('Discount code (optional)', { exact: true }).fill(code);
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByTestId('applied-discount').waitFor();
    }
    return checkout;
  }

  /** What the checkout's summary says of the plan, once the amounts have settled on `total`. */
  async function billingNote(page: Page, total: string): Promise<string | null> {
    await poll('the checkout’s total', async () =>
      (await page.getByTestId('total-amount').textContent()) === total ? true : undefined,
    );
    return page.getByTestId('billing-note').textContent();
  }

  /** Pays, and answers the subscription the checkout made. */
  async function subscribe(page: Page, checkoutId: string, label: string): Promise<string> {
    await page.getByRole('button', { name: label, exact: true }).click();
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor({ timeout: WORKFLOW_TIMEOUT_MS });
    return poll(
      'the subscription',
      async () => (await polar.checkouts.get({ id: checkoutId })).subscriptionId ?? undefined,
      WORKFLOW_TIMEOUT_MS,
    );
  }

  it('prepares a seller with a $20/month plan, a metered plan and two discount codes', async () => {
    const context = await env.browser.newContext({
      locale: 'en-US',
      timezoneId: 'UTC',
      extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.61' },
    });
    recordPolicyViolations(context, policyViolations);
    seller = await context.newPage();
    const organizationName = `Plans over time ${suffix}`;
    await signUpSeller(seller, env.baseUrl, { firstName: 'Lea', suffix, organizationName });
    const organization = await env.database.db.organization.findFirstOrThrow({
      where: { name: organizationName },
    });
    token = await createAccessToken(env.database.db, organization.id);
    polar = new Polar({ accessToken: token, serverURL: env.baseUrl });

    proId = (
      await polar.products.create({
        name: 'Pro',
        recurringInterval: 'month',
        prices: [{ amountType: 'fixed', priceAmount: 2000, priceCurrency: 'usd' }],
      })
    ).id;
    await polar.products.create({
      name: 'Pro yearly',
      recurringInterval: 'year',
      prices: [{ amountType: 'fixed', priceAmount: 20_000, priceCurrency: 'usd' }],
    });
    const meter = await polar.meters.create({
      name: 'Tokens',
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'tokens' }] },
      aggregation: { func: 'count' },
    });
    apiId = (
      await polar.products.create({
        name: 'API',
        recurringInterval: 'month',
        prices: [
          { amountType: 'fixed', priceAmount: 1000, priceCurrency: 'usd' },
          {
            amountType: 'metered_unit',
            meterId: meter.id,
            priceCurrency: 'usd',
            unitAmount: '0.2',
            capAmount: 5000,
          },
        ],
      })
    ).id;
    const discount = { type: 'percentage', basisPoints: 2000 } as const;
    await polar.discounts.create({
      ...discount,
      name: 'First month',
      code: `ONCE${suffix}`,
      duration: 'once',
    });
    await polar.discounts.create({
      ...discount,
      name: 'First quarter',
      code: `QUARTER${suffix}`,
      duration: 'repeating',
      durationInMonths: 3,
    });
  });

  it('shows the products a seller picks from with their price and interval', async () => {
    await seller.goto(`${env.baseUrl}/dashboard/checkout-links`);
    await seller.getByLabel('Pro · $20.00 / month', { exact: true }).waitFor();
    await seller.getByLabel('Pro yearly · $200.00 / year', { exact: true }).waitFor();
    await seller.getByLabel('API · $10.00 / month plus usage', { exact: true }).waitFor();
  });

  it('once: "$16.00 today, then $20.00 / month" on the checkout, its button, the confirmation, the email, the portal and the dashboard', async () => {
    const email = `once-${suffix}@example.test`;
    const context = await newContext();
    const page = await context.newPage();
    const checkout = await openCheckout(page, proId, email, `ONCE${suffix}`);
    expect(await billingNote(page, '$16.00')).toBe('$16.00 today, then $20.00 / month until you cancel.');
    const label = 'Subscribe: $16.00 today, then $20.00 / month';
    await page.getByRole('button', { name: label, exact: true }).waitFor();
    const subscriptionId = await subscribe(page, checkout.id, label);

    // The confirmation: what was paid, and the plan from here on (not "$16.00 / month").
    expect(await page.getByTestId('total-paid').textContent()).toBe('$16.00');
    expect(await page.getByTestId('plan-price').textContent()).toBe(
      'Your plan: $16.00 today, then $20.00 / month until you cancel.',
    );

    // The welcome email says it the same way, and what the next payment is.
    const started = await poll(
      'the subscription-started email',
      async () =>
        (await env.database.db.emailMessage.findFirst({
          where: { idempotencyKey: `subscription:${subscriptionId}:started` },
        })) ?? undefined,
      WORKFLOW_TIMEOUT_MS,
    );
    expect(started.toAddress).toBe(email);
    expect(started.text).toContain('You pay $16.00 today, then $20.00 / month.');
    expect(started.text).toMatch(/Your next payment, \$20\.00, is on /);

    // The portal card speaks of the plan as it stands: the discounted period ends, then $20.00.
    const [current] = await scheduleOf(subscriptionId);
    const running = `$16.00 until ${day(current!.ends_at!)}, then $20.00 / month`;
    await page.getByTestId('portal-link').click();
    const card = page.getByTestId('portal-subscription');
    await card.waitFor();
    expect(await card.getByTestId('subscription-amount').textContent()).toBe(running);
    await context.close();

    // And so does the seller's subscription page.
    await seller.goto(`${env.baseUrl}/dashboard/subscriptions/${subscriptionId}`);
    await seller.getByTestId('subscription-plan').filter({ hasText: 'Pro' }).waitFor();
    expect(await seller.getByTestId('subscription-amount').textContent()).toBe(running);
  });

  it('repeating 3 months: "$16.00 / month for 3 months, then $20.00 / month", and in the portal until when', async () => {
    const context = await newContext();
    const page = await context.newPage();
    const checkout = await openCheckout(page, proId, `quarter-${suffix}@example.test`, `QUARTER${suffix}`);
    expect(await billingNote(page, '$16.00')).toBe(
      '$16.00 / month for 3 months, then $20.00 / month until you cancel.',
    );
    const subscriptionId = await subscribe(
      page,
      checkout.id,
      'Subscribe: $16.00 / month for 3 months, then $20.00 / month',
    );
    const [discounted] = await scheduleOf(subscriptionId);
    expect(discounted).toMatchObject({ amount: 1600, periods: 3 });
    await page.getByTestId('portal-link').click();
    const card = page.getByTestId('portal-subscription');
    await card.waitFor();
    expect(await card.getByTestId('subscription-amount').textContent()).toBe(
      `$16.00 / month until ${day(discounted!.ends_at!)}, then $20.00 / month`,
    );
    await context.close();
  });

  it('lists a metered price at checkout with its unit price, cap and billing, without overflow at 1366 and 390 px', async () => {
    for (const [width, viewport] of [
      ['1366', WIDE],
      ['390', PHONE],
    ] as const) {
      const context = await newContext(viewport);
      const page = await context.newPage();
      await openCheckout(page, apiId, `metered-${width}-${suffix}@example.test`, `ONCE${suffix}`);
      expect(await billingNote(page, '$8.00')).toBe(
        '$8.00 today, then $10.00 / month plus usage until you cancel.',
      );
      const metered = page.getByTestId('metered-prices');
      expect(await metered.textContent()).toContain(
        'Plus usage, billed at the end of each month for what you used in it:',
      );
      expect(await metered.getByTestId('metered-price').textContent()).toBe(
        'Tokens: $0.002 per unit, at most $50.00 a month',
      );
      await page
        .getByRole('button', { name: 'Subscribe: $8.00 today, then $10.00 / month plus usage' })
        .waitFor();
      // Nothing is cut off: the page does not scroll sideways and the button's words fit in it.
      expect(await hasNoHorizontalOverflow(page)).toBe(true);
      expect(
        await page.evaluate<boolean>(
          "[...document.querySelectorAll('.pay-button, .billing-note, .metered-prices li')].every((element) => element.scrollWidth <= element.clientWidth)",
        ),
      ).toBe(true);
      await page.screenshot({ path: screenshotPath(`plan-prices-checkout-${width}`), fullPage: true });
      await context.close();
    }
  });
  it('sells seats: the buyer picks them, sees the tier math and the total follow, and the plan bills them (1366 and 390 px)', async () => {
    const api = async (method: string, path: string, body: unknown) => {
      const response = await fetch(`${env.baseUrl}/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.ok).toBe(true);
      return (await response.json()) as { id: string; url: string };
    };
    // Graduated: 1–10 seats at $10, 11–50 at $8.
    const team = await api('POST', '/products/', {
      name: 'Team plan',
      recurring_interval: 'month',
      prices: [
        {
          amount_type: 'seat_based',
          seat_tiers: {
            seat_tier_type: 'graduated',
            tiers: [
              { min_seats: 1, max_seats: 10, price_per_seat: 1000 },
              { min_seats: 11, max_seats: 50, price_per_seat: 800 },
            ],
          },
        },
      ],
    });
    for (const [width, viewport] of [
      ['1366', WIDE],
      ['390', PHONE],
    ] as const) {
      const context = await newContext(viewport);
      const page = await context.newPage();
      const checkout = await api('POST', '/checkouts/', { products: [team.id], seats: 2 });
      await page.goto(checkout.url);
      const math = page.getByTestId('seat-math');
      await math.getByRole('listitem').first().waitFor();
      expect(await math.getByRole('listitem').allTextContents()).toEqual(['2 seats × $10.00 = $20.00']);

      // Beyond the last tier: said next to the field, the checkout keeps its 2 seats.
      const seats = page.getByLabel('Seats', { exact: true });
      await seats.fill('60');
      await page.getByLabel('Email', { exact: true }).fill(`seats-${width}-${suffix}@example.test`);
      await page.getByLabel('Cardholder name', { exact: true }).fill('Bea Buyer');
      await page.getByLabel('Country', { exact: true }).selectOption('DE');
      await page.getByLabel('Card number', { exact: true }).fill('4242 4242 4242 4242');
      await page.getByLabel('Expiry date', { exact: true }).fill('12 / 34');
      await page.getByLabel('Security code', { exact: true }).fill('123');
      await page.getByRole('button', { name: /^Subscribe/ }).click();
      await page.getByText('Choose from 1 to 50 seats.').waitFor();
      expect(await seats.getAttribute('aria-invalid')).toBe('true');

      await seats.fill('12');
      await poll('the subtotal of 12 seats', async () =>
        (await page.getByTestId('subtotal-amount').textContent()) === '$116.00' ? true : undefined,
      );
      expect(await math.getByRole('listitem').allTextContents()).toEqual([
        '10 seats × $10.00 = $100.00',
        '2 seats × $8.00 = $16.00',
      ]);
      expect(await hasNoHorizontalOverflow(page)).toBe(true);
      await page.screenshot({ path: screenshotPath(`plan-prices-seats-${width}`), fullPage: true });
      await page.getByRole('button', { name: /^Subscribe: / }).click();
      await page
        .getByRole('heading', { name: 'Payment successful' })
        .waitFor({ timeout: WORKFLOW_TIMEOUT_MS });
      const subscription = await poll(
        'the plan of 12 seats',
        async () =>
          (await env.database.db.subscription.findFirst({ where: { checkoutId: checkout.id } })) ?? undefined,
        WORKFLOW_TIMEOUT_MS,
      );
      expect(subscription).toMatchObject({ seats: 12, amount: 11_600 });
      await context.close();
    }
  });

  it('a free trial: "$0.00 today, then $20.00 / month from <trial end>", nothing charged, the plan trialing', async () => {
    const created = await fetch(`${env.baseUrl}/v1/products/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Pro with a trial',
        recurring_interval: 'month',
        trial_interval: 'day',
        trial_interval_count: 14,
        prices: [{ amount_type: 'fixed', price_amount: 2000, price_currency: 'usd' }],
      }),
    });
    expect(created.status).toBe(201);
    const trialProductId = ((await created.json()) as { id: string }).id;
    const context = await newContext(PHONE);
    const page = await context.newPage();
    const checkout = await openCheckout(page, trialProductId, `tia-${suffix}@example.test`, null);
    const trialEnd = await poll('the trial end', async () => {
      const response = await fetch(`${env.baseUrl}/v1/checkouts/${checkout.id}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return ((await response.json()) as { trial_end: string | null }).trial_end ?? undefined;
    });
    const words = `$0.00 today, then $20.00 / month from ${day(trialEnd)}`;
    expect(await billingNote(page, '$0.00')).toBe(`${words} until you cancel.`);
    expect(await hasNoHorizontalOverflow(page)).toBe(true);
    await page.screenshot({ path: screenshotPath('plan-prices-trial-checkout'), fullPage: true });
    await page.getByRole('button', { name: `Subscribe: ${words}`, exact: true }).click();
    await page.getByRole('heading', { name: 'Order confirmed' }).waitFor({ timeout: WORKFLOW_TIMEOUT_MS });
    const subscriptionId = await poll(
      'the subscription',
      async () => (await polar.checkouts.get({ id: checkout.id })).subscriptionId ?? undefined,
      WORKFLOW_TIMEOUT_MS,
    );
    const response = await fetch(`${env.baseUrl}/v1/subscriptions/${subscriptionId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const subscription = (await response.json()) as { status: string; trial_end: string };
    expect(subscription.status).toBe('trialing');
    expect(subscription.trial_end.slice(0, 10)).toBe(trialEnd.slice(0, 10));
    const [trial, paid] = await scheduleOf(subscriptionId);
    expect(trial).toMatchObject({ amount: 0, periods: 1, trial: true });
    expect(paid).toMatchObject({ amount: 2000, periods: null });
    const [order] = (await polar.orders.list({ checkoutId: checkout.id })).result.items;
    expect(order!.totalAmount).toBe(0);
    await context.close();
  });
});
