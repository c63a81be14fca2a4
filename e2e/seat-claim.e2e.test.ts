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
describe('accepting a seat from its invitation, in Chromium', () => {
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
    expect(await hasNoHorizontalOverflow(page)).toBe(true);

    const again = await (await buyerContext({ viewport: PHONE })).newPage();
    await again.goto(link);
    await again
      .getByTestId('seat-claim-error')
      .filter({ hasText: 'This invitation link is invalid, used or expired' })
      .waitFor();
    expect(await again.getByRole('button', { name: 'Accept this seat' }).count()).toBe(0);
  });
});
