import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { eventually } from '../test/eventually.js';
import { buyInSandbox, createAccessToken } from '../test/factories.js';
import { buyerContexts, hasNoHorizontalOverflow } from './portal-support.js';
import { poll, recordPolicyViolations, signUpSeller, useBrowserStack } from './support.js';

/** A clock's catch-up and the renewal it charges take seconds. */
const WORKFLOW_TIMEOUT_MS = 90_000;
const PHONE = { width: 390, height: 844 };

// A plan change waiting for the period's end (docs/subscriptions.md, "Changes at the next period"):
// shown in the portal (at 390 px) and on the seller's page, in words with its date; the buyer
// cancels it in the portal; the renewal then bills the plan they had, and the plan stays.
describe('a pending plan change in the portal and the dashboard, in Chromium', () => {
  const env = useBrowserStack('pending-change');
  const policyViolations: string[] = [];
  afterAll(() => expect(policyViolations).toEqual([]));
  const buyerContext = buyerContexts(() => env.browser, policyViolations, 150);
  const suffix = randomUUID().slice(0, 8);

  it('shows the next-period change on both sides, cancels it, and the renewal changes nothing', async () => {
    const sellerContext = await env.browser.newContext({
      locale: 'en-US',
      extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.151' },
    });
    recordPolicyViolations(sellerContext, policyViolations);
    const seller = await sellerContext.newPage();
    await signUpSeller(seller, env.baseUrl, {
      firstName: 'Ren',
      suffix,
      organizationName: `Later ${suffix}`,
    });
    const organization = await env.database.db.organization.findFirstOrThrow({
      where: { name: `Later ${suffix}` },
    });
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.baseUrl });
    const api = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${env.baseUrl}/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as { id: string; status: string; pending_update: unknown };
    };
    const product = (name: string, amount: number) =>
      polar.products.create({
        name,
        recurringInterval: 'month',
        prices: [{ amountType: 'fixed', priceAmount: amount, priceCurrency: 'usd' }],
      });
    const basic = await product(`Basic ${suffix}`, 1500);
    const pro = await product(`Pro ${suffix}`, 4000);
    const clock = await api('POST', '/test-clocks/', {
      name: 'Later',
      frozen_time: '2026-03-01T09:00:00.000Z',
    });
    const customer = await polar.customers.create({ email: `ren-buyer-${suffix}@example.test`, name: 'Uma' });
    await api('POST', `/test-clocks/${clock.id}/customers`, { customer_id: customer.id });
    const { subscriptionId } = await buyInSandbox(polar, env.baseUrl, basic.id, customer.id);
    const id = subscriptionId!;
    const scheduled = await api('PATCH', `/subscriptions/${id}`, {
      product_id: pro.id,
      proration_behavior: 'next_period',
    });
    expect(scheduled.pending_update).toMatchObject({ product_id: pro.id });

    // The seller's page says what waits for the renewal, and when.
    await seller.goto(`${env.baseUrl}/dashboard/subscriptions/${id}`);
    const sellerRow = seller.getByTestId('subscription-pending-change');
    await seller.getByText(`Changes to Pro ${suffix} (`, { exact: false }).first().waitFor();
    expect(await sellerRow.textContent()).toMatch(
      new RegExp(`^Changes to Pro ${suffix} \\(\\$40\\.00 / month from then\\) on .*2026$`),
    );
    await seller.getByTestId('pending-change').getByRole('button', { name: 'Cancel this change' }).waitFor();

    // The buyer, on a phone, reads it and cancels it.
    const buyer = await (await buyerContext({ viewport: PHONE })).newPage();
    await buyer.goto((await polar.customerSessions.create({ customerId: customer.id })).customerPortalUrl);
    const pending = buyer.getByTestId('portal-subscription').getByTestId('pending-change');
    await pending.waitFor();
    expect(await pending.textContent()).toContain(`Changes to Pro ${suffix} on`);
    expect(await pending.textContent()).toContain('$40.00');
    expect(await hasNoHorizontalOverflow(buyer)).toBe(true);
    await pending.getByRole('button', { name: 'Cancel this change' }).click();
    await buyer.getByText(`You stay on Basic ${suffix}.`).waitFor();
    expect(await buyer.getByTestId('pending-change').count()).toBe(0);
    expect((await api('GET', `/subscriptions/${id}`)).pending_update).toBeNull();

    await seller.reload();
    await seller.getByTestId('subscription-details').waitFor();
    expect(await seller.getByTestId('subscription-pending-change').count()).toBe(0);
    expect(await seller.getByTestId('subscription-plan').textContent()).toBe(`Basic ${suffix}`);

    // The renewal bills Basic again; the plan stays Basic.
    await api('POST', `/test-clocks/${clock.id}/advance`, { frozen_time: '2026-04-02T09:00:00.000Z' });
    await eventually(
      () => api('GET', `/test-clocks/${clock.id}`),
      (value) => value.status === 'ready',
      WORKFLOW_TIMEOUT_MS,
    );
    const orders = await poll(
      'the renewal',
      async () => {
        const found = await env.database.db.order.findMany({
          where: { subscriptionId: id },
          orderBy: { createdAt: 'asc' },
        });
        return found.length === 2 && found[1]!.status === 'paid' ? found : undefined;
      },
      WORKFLOW_TIMEOUT_MS,
    );
    expect(orders.map((order) => order.totalAmount)).toEqual([1500, 1500]);
    const row = await env.database.db.subscription.findUniqueOrThrow({ where: { id } });
    expect(row.productId).toBe(basic.id);
    expect(row.amount).toBe(1500);
  });
});
