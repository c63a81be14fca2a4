import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { PHONE, sellerOnClock, WORKFLOW_TIMEOUT_MS } from './clock-support.js';
import { buyerContexts, hasNoHorizontalOverflow } from './portal-support.js';
import { poll, useBrowserStack } from './support.js';

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
    const seller = await sellerOnClock(
      env,
      { firstName: 'Ren', suffix, organizationName: `Later ${suffix}`, address: '198.51.100.151' },
      policyViolations,
    );
    const { api, polar } = seller;
    const basic = await seller.monthlyPlan(`Basic ${suffix}`, 1500);
    const pro = await seller.monthlyPlan(`Pro ${suffix}`, 4000);
    const {
      customer,
      subscriptionId: id,
      advanceTo,
    } = await seller.subscribeOnClock(
      basic.id,
      { email: `ren-buyer-${suffix}@example.test`, name: 'Uma' },
      '2026-03-01T09:00:00.000Z',
    );
    const scheduled = await api('PATCH', `/subscriptions/${id}`, {
      product_id: pro.id,
      proration_behavior: 'next_period',
    });
    expect(scheduled.pending_update).toMatchObject({ product_id: pro.id });

    // The seller's page says what waits for the renewal, and when.
    const sellerPage = seller.page;
    await sellerPage.goto(`${env.baseUrl}/dashboard/subscriptions/${id}`);
    const sellerRow = sellerPage.getByTestId('subscription-pending-change');
    await sellerPage.getByText(`Changes to Pro ${suffix} (`, { exact: false }).first().waitFor();
    expect(await sellerRow.textContent()).toMatch(
      new RegExp(`^Changes to Pro ${suffix} \\(\\$40\\.00 / month from then\\) on .*2026$`),
    );
    await sellerPage
      .getByTestId('pending-change')
      .getByRole('button', { name: 'Cancel this change' })
      .waitFor();

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

    await sellerPage.reload();
    await sellerPage.getByTestId('subscription-details').waitFor();
    expect(await sellerPage.getByTestId('subscription-pending-change').count()).toBe(0);
    expect(await sellerPage.getByTestId('subscription-plan').textContent()).toBe(`Basic ${suffix}`);

    // The renewal bills Basic again; the plan stays Basic.
    await advanceTo('2026-04-02T09:00:00.000Z');
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
