import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { Polar } from 'polar-sdk-0481';
import { createAccessToken, createOrganization } from '../test/factories.js';
import { buyOnNewClock } from '../test/test-clocks.js';
import { PHONE } from './clock-support.js';
import { buyerContexts, hasNoHorizontalOverflow } from './portal-support.js';
import { poll, screenshotPath, useBrowserStack } from './support.js';

// A seat invitation (docs/seats.md): the emailed link opens the seller's claim page on a phone,
// without a session; accepting makes the seat the invited person's and signs them in to the portal.
// A used link says so instead of offering the button again.
describe('seats in the portal: the buyer invites, the invited person accepts, in Chromium', () => {
  const env = useBrowserStack('seat-claim');
  const policyViolations: string[] = [];
  afterAll(() => expect(policyViolations).toEqual([]));
  const buyerContext = buyerContexts(() => env.browser, policyViolations, 190);

  it('shows what the seat gives, accepts it, signs the holder in, and refuses the used link (390 px)', async () => {
    const suffix = randomUUID().slice(0, 8);
    const organization = await createOrganization(env.database.db, { name: `Orbit Tools ${suffix}` });
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.baseUrl });
    // A long product name must wrap on a phone, not widen the page.
    const productName = `Team workspace for engineering organisations ${suffix}`;
    const plan = await polar.products.create({
      name: productName,
      recurringInterval: 'month',
      prices: [
        {
          amountType: 'seat_based',
          priceCurrency: 'usd',
          seatTiers: { tiers: [{ minSeats: 1, maxSeats: 10, pricePerSeat: 1200 }] },
        },
      ],
    });
    const { subscriptionId } = await buyOnNewClock(polar, env.baseUrl, token, plan.id, { seats: 2 });
    const holderEmail = `grace-${suffix}@example.test`;
    const seat = await polar.customerSeats.assignSeat({ subscriptionId, email: holderEmail });

    const message = await poll(
      'the seat invitation',
      async () =>
        (await env.database.db.emailMessage.findFirst({ where: { toAddress: holderEmail } })) ?? undefined,
    );
    const link = /https?:\/\/\S+\/claim\?invitation_token=\S+/.exec(message.text)![0];
    expect(link.startsWith(`${env.baseUrl}/portal/${organization.slug}/claim?invitation_token=`)).toBe(true);

    const page = await (await buyerContext({ viewport: PHONE })).newPage();
    await page.goto(link);
    await page.getByRole('heading', { name: `Your seat of ${productName}` }).waitFor();
    await page
      .getByText(`Orbit Tools ${suffix} invites ${holderEmail} to a seat of ${productName}.`)
      .waitFor();
    expect(await hasNoHorizontalOverflow(page)).toBe(true);
    await page.screenshot({ path: screenshotPath('seat-claim-390'), fullPage: true });

    await page.getByRole('button', { name: 'Accept this seat' }).click();
    await page.getByTestId('seat-claimed').waitFor();
    expect((await polar.customerSeats.listSeats({ subscriptionId })).seats).toEqual([
      expect.objectContaining({ id: seat.id, status: 'claimed' }),
    ]);
    // Signed in as the holder: the account is theirs.
    await page.getByRole('link', { name: 'Go to your account' }).click();
    await page.getByText(holderEmail).first().waitFor();
    // Their seat shows as given to them, the plan's billing as someone else's.
    const held = page.getByTestId('held-seat');
    await held.getByRole('heading', { name: productName }).waitFor();
    expect(await held.getByTestId('held-seat-access').textContent()).toBe('For as long as the plan runs');
    expect(await page.getByTestId('portal-subscription').count()).toBe(0);
    expect(await hasNoHorizontalOverflow(page)).toBe(true);

    const again = await (await buyerContext({ viewport: PHONE })).newPage();
    await again.goto(link);
    await again
      .getByTestId('seat-claim-error')
      .filter({ hasText: 'This invitation link is invalid, used or expired' })
      .waitFor();
    expect(await again.getByRole('button', { name: 'Accept this seat' }).count()).toBe(0);
  });

  it('lets the buyer invite people to their seats, send again and take a seat back in the portal (390 px)', async () => {
    const suffix = randomUUID().slice(0, 8);
    const organization = await createOrganization(env.database.db, { name: `Orbit Teams ${suffix}` });
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.baseUrl });
    const plan = await polar.products.create({
      name: `Team ${suffix}`,
      recurringInterval: 'month',
      prices: [
        {
          amountType: 'seat_based',
          priceCurrency: 'usd',
          seatTiers: { tiers: [{ minSeats: 1, maxSeats: 10, pricePerSeat: 1200 }] },
        },
      ],
    });
    const { customer } = await buyOnNewClock(polar, env.baseUrl, token, plan.id, { seats: 2 });

    const page = await (await buyerContext({ viewport: PHONE })).newPage();
    await page.goto((await polar.customerSessions.create({ customerId: customer.id })).customerPortalUrl);
    const holders = page.getByTestId('portal-subscription').getByTestId('seat-holders');
    await holders.getByTestId('seat-count').filter({ hasText: '0 of 2 seats given.' }).waitFor();

    const field = holders.getByLabel('Email address to invite');
    await field.fill('not an address');
    await holders.getByRole('button', { name: 'Invite' }).click();
    await holders.getByText('Enter their email address, like name@example.com.').waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');

    // A long address wraps on a phone instead of widening the page.
    const invited = `annie.easley.from-the-propulsion-laboratory-${suffix}@example.test`;
    await field.fill(invited);
    await holders.getByRole('button', { name: 'Invite' }).click();
    await holders
      .getByTestId('seat-notice')
      .filter({ hasText: `We sent ${invited} a link` })
      .waitFor();
    const row = holders.getByTestId('seat-holder').filter({ hasText: invited });
    await row.filter({ hasText: 'Invited: has not accepted yet' }).waitFor();
    await holders.getByTestId('seat-count').filter({ hasText: '1 of 2 seats given.' }).waitFor();
    expect(await hasNoHorizontalOverflow(page)).toBe(true);
    await page.screenshot({ path: screenshotPath('portal-seats-390'), fullPage: true });

    await row.getByRole('button', { name: 'Send again' }).click();
    await holders.getByTestId('seat-notice').filter({ hasText: 'the earlier one no longer works' }).waitFor();
    await poll('two invitations', async () => {
      const sent = await env.database.db.emailMessage.count({ where: { toAddress: invited } });
      return sent === 2 ? true : undefined;
    });

    await row.getByRole('button', { name: `Take back the seat of ${invited}` }).click();
    await holders
      .getByTestId('seat-notice')
      .filter({ hasText: `${invited} no longer has a seat.` })
      .waitFor();
    await holders.getByTestId('seat-count').filter({ hasText: '0 of 2 seats given.' }).waitFor();
    expect(await holders.getByTestId('seat-holder').count()).toBe(0);
  });
});
