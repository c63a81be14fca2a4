import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import type { Db } from '../infra/db.js';
import { createAccessToken } from '../test/factories.js';
import { recordPolicyViolations, screenshotPath, signUpSeller, useBrowserStack } from './support.js';

/** The charge runs in a workflow the dashboard waits for. */
const WORKFLOW_TIMEOUT_MS = 60_000;

/** A card the customer saved, on a sandbox customer of its own: the test card decides the charge. */
async function saveCard(db: Db, organizationId: string, customerId: string, card: string, last4: string) {
  const processorCustomerId = `cus_sbx_${randomUUID().replaceAll('-', '')}`;
  await db.sandboxCustomer.create({
    data: {
      id: processorCustomerId,
      idempotencyKey: processorCustomerId,
      requestHash: 'e2e',
      customerId,
      email: 'e2e@example.test',
    },
  });
  return db.customerPaymentMethod.create({
    data: {
      organizationId,
      customerId,
      processor: 'sandbox',
      processorCustomerId,
      processorPaymentMethodId: card,
      brand: 'visa',
      last4,
      expMonth: 8,
      expYear: 2031,
      isDefault: last4 === '9995',
    },
  });
}

describe("the dashboard's Charge customer form, in Chromium at 390 px", () => {
  const env = useBrowserStack('charge-customer');
  const policyViolations: string[] = [];
  afterAll(() => expect(policyViolations).toEqual([]));

  it('shows the decline next to the form, then pays the same draft with another card', async () => {
    const suffix = randomUUID().slice(0, 8);
    const context = await env.browser.newContext({
      viewport: { width: 1366, height: 900 },
      extraHTTPHeaders: { 'x-forwarded-for': '192.0.2.31' },
    });
    recordPolicyViolations(context, policyViolations);
    const seller = await context.newPage();
    await signUpSeller(seller, env.baseUrl, {
      firstName: 'Olu',
      suffix,
      organizationName: `Tokens ${suffix}`,
    });
    const { db } = env.database;
    const organization = await db.organization.findFirstOrThrow({ where: { name: `Tokens ${suffix}` } });
    const polar = new Polar({
      accessToken: await createAccessToken(db, organization.id),
      serverURL: env.baseUrl,
    });
    await polar.products.create({
      name: `Token pack ${suffix}`,
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 2500, priceCurrency: 'usd' }],
    });
    const customer = await polar.customers.create({ email: `olu-buyer-${suffix}@example.test` });
    await saveCard(db, organization.id, customer.id, 'pm_card_chargeDeclinedInsufficientFunds', '9995');
    const good = await saveCard(db, organization.id, customer.id, 'pm_card_visa', '4242');

    await seller.setViewportSize({ width: 390, height: 844 });
    await seller.goto(`${env.baseUrl}/dashboard/customers/${customer.id}`);
    // Found by its card picker: its button's words change once a charge was declined.
    const form = seller.locator('form').filter({ has: seller.locator('[data-field="payment_method_id"]') });
    await form.getByLabel('Product', { exact: true }).selectOption({ label: `Token pack ${suffix}` });
    await form.getByLabel(/^Amount/).fill('12.50');
    await form.getByRole('button', { name: 'Charge', exact: true }).click();
    const error = seller.getByTestId('charge-error');
    await error.waitFor({ timeout: WORKFLOW_TIMEOUT_MS });
    expect(await error.textContent()).toMatch(/insufficient_funds.*kept as a draft/);

    await form.locator('[data-field="payment_method_id"]').selectOption(good.id);
    await form.getByRole('button', { name: 'Try again' }).click();
    await seller.getByTestId('charge-paid').waitFor({ timeout: WORKFLOW_TIMEOUT_MS });
    expect(await seller.getByTestId('charge-paid').textContent()).toContain('Charged $12.50');
    expect(await seller.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await seller.screenshot({ path: screenshotPath('charge-customer'), fullPage: true });
    const orders = await db.order.findMany({ where: { customerId: customer.id } });
    expect(orders.map((order) => [order.status, order.totalAmount])).toEqual([['paid', 1250]]);
    await context.close();
  });
});
