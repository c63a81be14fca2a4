import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { PHONE, sellerOnClock, WORKFLOW_TIMEOUT_MS } from './clock-support.js';
import { buyerContexts, hasNoHorizontalOverflow, openPortalSection } from './portal-support.js';
import { poll, reloadUntilVisible, useBrowserStack } from './support.js';

// Pause and resume in the portal (docs/subscriptions.md, "Pause and resume"; docs/portal.md): the
// seller allows it, the buyer pauses at the period's end at 390 px, the test clock passes that end,
// the portal says paused and nothing was charged, the seller's page shows the same state, the buyer
// resumes and the new period's order shows in the portal.
describe('pause and resume in the portal, in Chromium', () => {
  const env = useBrowserStack('subscription-pause');
  const policyViolations: string[] = [];
  afterAll(() => expect(policyViolations).toEqual([]));
  const buyerContext = buyerContexts(() => env.browser, policyViolations, 140);
  const suffix = randomUUID().slice(0, 8);

  it('the buyer pauses, is charged nothing while paused, the seller sees it, and resuming charges a new period', async () => {
    const owner = await sellerOnClock(
      env,
      { firstName: 'Pia', suffix, organizationName: `Pause ${suffix}`, address: '198.51.100.141' },
      policyViolations,
    );
    const { api, polar, organization, page: seller } = owner;
    // The owner allows buyers to pause on the settings page (Polar's portal setting).
    await seller.goto(`${env.baseUrl}/dashboard/settings`);
    const allowPause = seller.getByLabel('Customers may pause and resume their subscription in the portal', {
      exact: true,
    });
    expect(await allowPause.isChecked()).toBe(false);
    await allowPause.check();
    await seller.getByRole('button', { name: 'Save settings' }).click();
    await seller.getByText('Settings saved.').waitFor();
    expect(await api('GET', `/organizations/${organization.id}`)).toMatchObject({
      customer_portal_settings: { subscription: { pause: true, update_plan: true } },
    });
    const plan = await owner.monthlyPlan(`Radio ${suffix}`, 2000);
    const {
      customer,
      subscriptionId: id,
      advanceTo,
    } = await owner.subscribeOnClock(
      plan.id,
      { email: `pia-buyer-${suffix}@example.test`, name: 'Ola' },
      '2026-03-01T09:00:00.000Z',
    );
    const ordersOf = async () =>
      env.database.db.order.findMany({ where: { subscriptionId: id }, orderBy: { createdAt: 'asc' } });

    const buyer = await (await buyerContext({ viewport: PHONE })).newPage();
    await buyer.goto((await polar.customerSessions.create({ customerId: customer.id })).customerPortalUrl);
    const card = buyer.getByTestId('portal-subscription');
    await card.getByRole('button', { name: 'Pause at the end of this period' }).click();
    const form = card.getByTestId('pause-form');
    expect(await form.textContent()).toContain('nothing is charged from then until it resumes');
    expect(await form.textContent()).toContain('its benefits stop until it resumes');
    await form.getByRole('button', { name: 'Pause', exact: true }).click();
    await card.getByTestId('pause-state').waitFor();
    expect(await card.getByTestId('pause-state').textContent()).toMatch(/^Pauses on .*2026 until resumed$/);
    expect(await card.getByTestId('subscription-period').textContent()).toBe('When you resume');
    expect(await hasNoHorizontalOverflow(buyer)).toBe(true);
    expect((await env.database.db.subscription.findUniqueOrThrow({ where: { id } })).pauseAtPeriodEnd).toBe(
      true,
    );

    // The period ends on 1 April; the clock passes it: paused, no renewal order.
    await advanceTo('2026-04-05T09:00:00.000Z');
    await poll(
      'the pause',
      // 0.33.2's status enum predates `paused`: read the row.
      async () =>
        (await env.database.db.subscription.findUniqueOrThrow({ where: { id } })).status === 'paused'
          ? true
          : undefined,
      WORKFLOW_TIMEOUT_MS,
    );
    expect(await ordersOf()).toHaveLength(1);

    await buyer.reload();
    await card.getByTestId('pause-state').waitFor();
    expect(await card.getByTestId('pause-state').textContent()).toMatch(
      /^Paused since .*2026 — resume when you want$/,
    );
    expect(await card.textContent()).toContain('Nothing is charged while it is paused.');
    expect(await card.getByTestId('subscription-status').textContent()).toBe('Paused');
    const charge = await card.getByTestId('resume-charge').textContent();
    expect(charge).toMatch(/^Resuming charges \$20\.00 now, for a new period from .* to .*;/);

    // The seller (owner) reads the same state, with the resume offered.
    await seller.goto(`${env.baseUrl}/dashboard/subscriptions/${id}`);
    const sellerCard = seller.getByTestId('subscription-pause');
    await sellerCard.getByTestId('pause-state').waitFor();
    expect(await sellerCard.getByTestId('pause-state').textContent()).toMatch(/^Paused since .* — resume/);
    expect(await seller.getByTestId('subscription-renewal').textContent()).toBe('When it is resumed');
    await sellerCard.getByRole('button', { name: 'Resume now' }).waitFor();

    // The buyer resumes: the new period is charged at once and its order shows in the portal.
    await card.getByRole('button', { name: 'Resume now' }).click();
    await card.getByRole('button', { name: 'Pause at the end of this period' }).waitFor();
    const orders = await poll(
      'the resumed period’s order',
      async () => {
        const found = await ordersOf();
        return found.length === 2 && found[1]!.status === 'paid' ? found : undefined;
      },
      WORKFLOW_TIMEOUT_MS,
    );
    expect(orders[1]!.totalAmount).toBe(2000);
    expect((await polar.subscriptions.get({ id })).status).toBe('active');
    await openPortalSection(buyer, 'Orders');
    await reloadUntilVisible(
      buyer,
      buyer.getByTestId('portal-order').nth(1),
      'the second order in the portal',
      WORKFLOW_TIMEOUT_MS,
    );
    expect(await buyer.getByTestId('portal-order').count()).toBe(2);
    expect(await buyer.getByTestId('order-amount').allTextContents()).toEqual(['$20.00', '$20.00']);
    expect(await hasNoHorizontalOverflow(buyer)).toBe(true);
  });
});
