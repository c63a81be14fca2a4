import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { Polar } from 'polar-sdk-0481';
import { buyOnNewClock } from '../test/test-clocks.js';
import { PHONE, sellerOnClock } from './clock-support.js';
import { buyerContexts, hasNoHorizontalOverflow } from './portal-support.js';
import { poll, useBrowserStack } from './support.js';

// Seat changes (docs/subscriptions.md, "seat change"): where the seller allows it, the buyer
// changes the seats of a seat-priced plan in the portal on a phone (390 px), refused next to the
// field outside the plan's range; a change the seller schedules for the renewal shows on both sides.
describe('seat changes in the portal and the dashboard, in Chromium', () => {
  const env = useBrowserStack('seat-changes');
  const policyViolations: string[] = [];
  afterAll(() => expect(policyViolations).toEqual([]));
  const buyerContext = buyerContexts(() => env.browser, policyViolations, 170);
  const suffix = randomUUID().slice(0, 8);

  it('lets the buyer add seats, refuses a count the plan cannot hold, shows a scheduled change, and lets the seller change them', async () => {
    const seller = await sellerOnClock(
      env,
      { firstName: 'Sia', suffix, organizationName: `Seats ${suffix}`, address: '198.51.100.171' },
      policyViolations,
    );
    const { api, organization, token } = seller;
    const polar = new Polar({ accessToken: token, serverURL: env.baseUrl });
    const plan = await polar.products.create({
      name: `Team ${suffix}`,
      recurringInterval: 'month',
      prices: [
        {
          amountType: 'seat_based',
          priceCurrency: 'usd',
          seatTiers: { tiers: [{ minSeats: 1, maxSeats: 50, pricePerSeat: 1000 }] },
        },
      ],
    });
    await api('PATCH', `/organizations/${organization.id}`, {
      customer_portal_settings: { subscription: { update_seats: true, update_plan: false } },
    });
    const { customer, subscriptionId } = await buyOnNewClock(polar, env.baseUrl, token, plan.id, {
      seats: 2,
    });

    const buyer = await (await buyerContext({ viewport: PHONE })).newPage();
    await buyer.goto((await polar.customerSessions.create({ customerId: customer.id })).customerPortalUrl);
    const card = buyer.getByTestId('portal-subscription');
    await card.getByTestId('subscription-seats').filter({ hasText: '2 seats' }).waitFor();
    expect(await hasNoHorizontalOverflow(buyer)).toBe(true);

    const seats = card.getByLabel('Seats', { exact: true });
    await seats.fill('60');
    await card.getByRole('button', { name: 'Update seats' }).click();
    await card.getByText('Choose from 1 to 50 seats.').waitFor();

    await seats.fill('5');
    await card.getByRole('button', { name: 'Update seats' }).click();
    // The organization prorates by default: the seats added wait for the next invoice.
    await card
      .getByTestId('plan-change-outcome')
      .filter({ hasText: `Your plan is now Team ${suffix} (5 seats).` })
      .waitFor();
    await card.getByTestId('subscription-seats').filter({ hasText: '5 seats' }).waitFor();
    await poll('five seats stored', async () => {
      const row = await env.database.db.subscription.findUniqueOrThrow({ where: { id: subscriptionId } });
      return row.seats === 5 && row.amount === 5000 ? true : undefined;
    });

    // The seller schedules fewer seats for the renewal: both sides say so.
    await api('PATCH', `/subscriptions/${subscriptionId}`, { seats: 3, proration_behavior: 'next_period' });
    await buyer.reload();
    const pending = buyer.getByTestId('portal-subscription').getByTestId('pending-change');
    await pending.waitFor();
    expect(await pending.textContent()).toMatch(/^Changes to 3 seats on .*2026\./);
    expect(await hasNoHorizontalOverflow(buyer)).toBe(true);

    const holder = `holder-${suffix}@example.test`;
    await polar.customerSeats.assignSeat({ subscriptionId, email: holder });
    await seller.page.goto(`${env.baseUrl}/dashboard/subscriptions/${subscriptionId}`);
    await seller.page.getByTestId('subscription-seats').filter({ hasText: '5 seats' }).waitFor();
    // Who holds the seats; an owner can take one back.
    const given = seller.page.getByTestId('subscription-seat-holders');
    await given
      .getByTestId('seat-holders-count')
      .filter({ hasText: '1 of 5 seats given, 2 free.' })
      .waitFor();
    const row = given.getByTestId('seat-holder-row').filter({ hasText: holder });
    await row.getByRole('button', { name: `Take back the seat of ${holder}` }).click();
    await row.getByRole('button', { name: 'Confirm' }).click();
    await given
      .getByTestId('seat-holders-count')
      .filter({ hasText: '0 of 5 seats given, 3 free.' })
      .waitFor();
    expect(await seller.page.getByTestId('subscription-pending-change').textContent()).toMatch(
      /^Changes to 3 seats on .*2026$/,
    );
    // The seller changes them now instead: the change waiting for the renewal is replaced.
    const form = seller.page.getByTestId('seats-form');
    await form.getByLabel('Seats', { exact: true }).fill('6');
    await form.getByRole('button', { name: 'Change seats' }).click();
    await seller.page.getByText('The plan now has 6 seats.').waitFor();
    await seller.page.getByTestId('subscription-seats').filter({ hasText: '6 seats' }).waitFor();
    expect(await seller.page.getByTestId('subscription-pending-change').count()).toBe(0);
  });
});
