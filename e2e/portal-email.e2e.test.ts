import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { createAccessToken, createOrganization } from '../test/factories.js';
import { buyerContexts, hasNoHorizontalOverflow, openPortalSection } from './portal-support.js';
import { poll, screenshotPath, useBrowserStack } from './support.js';

const PHONE = { width: 390, height: 844 };

// A buyer changes their email address on the portal's Billing page: refusals beside the field, a
// link to the new address, and the address changed once the link is opened in another browser.
describe("changing the buyer's email address in the customer portal, in Chromium", () => {
  const env = useBrowserStack('portal-email');
  const policyViolations: string[] = [];
  afterAll(() => expect(policyViolations).toEqual([]));
  const buyerContext = buyerContexts(() => env.browser, policyViolations, 140);

  it('refuses a taken address beside the field, emails a link to the new one, and the link changes it (390 px)', async () => {
    const suffix = randomUUID().slice(0, 8);
    const organization = await createOrganization(env.database.db, { name: `Fern Books ${suffix}` });
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.baseUrl });
    const oldEmail = `ada-${suffix}@example.test`;
    const newEmail = `ada.new-${suffix}@example.test`;
    const customer = await polar.customers.create({ email: oldEmail, name: 'Ada' });
    await polar.customers.create({ email: `taken-${suffix}@example.test` });

    const page = await (await buyerContext({ viewport: PHONE })).newPage();
    await page.goto((await polar.customerSessions.create({ customerId: customer.id })).customerPortalUrl);
    await openPortalSection(page, 'Billing');
    expect(await page.getByTestId('current-email').textContent()).toBe(oldEmail);

    await page.getByRole('button', { name: 'Change email address' }).click();
    const field = page.getByLabel('New email address');
    await field.fill('not an address');
    await page.getByRole('button', { name: 'Send confirmation link' }).click();
    await page.getByText('Enter the new email address, like name@example.com.').waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');

    await field.fill(`Taken-${suffix}@example.test`);
    await page.getByRole('button', { name: 'Send confirmation link' }).click();
    const taken = page.getByText(
      `Another customer of Fern Books ${suffix} already uses this email address. Use a different one.`,
    );
    await taken.waitFor();
    // Beside the field: its description names the message.
    const describedBy = (await field.getAttribute('aria-describedby')) ?? '';
    expect(await taken.getAttribute('id')).toBeTruthy();
    expect(describedBy).toContain((await taken.getAttribute('id'))!);
    expect(await hasNoHorizontalOverflow(page)).toBe(true);
    await page.screenshot({ path: screenshotPath('portal-email-refused-390'), fullPage: true });

    await field.fill(newEmail);
    await page.getByRole('button', { name: 'Send confirmation link' }).click();
    await page.getByTestId('email-update-sent').waitFor();
    expect(await page.getByTestId('email-update-sent').textContent()).toContain(newEmail);
    // Nothing changed yet.
    expect((await polar.customers.get({ id: customer.id })).email).toBe(oldEmail);

    const message = await poll(
      'the email change link',
      async () =>
        (await env.database.db.emailMessage.findFirst({ where: { toAddress: newEmail } })) ?? undefined,
    );
    const link = /https?:\/\/\S+\/verify-email\?token=\S+/.exec(message.text)![0];
    expect(link.startsWith(`${env.baseUrl}/portal/${organization.slug}/verify-email?token=`)).toBe(true);

    // Opened on another device: no session there.
    const phone = await (await buyerContext({ viewport: PHONE })).newPage();
    await phone.goto(link);
    await phone.getByRole('heading', { name: 'Confirm your new email address' }).waitFor();
    expect(await hasNoHorizontalOverflow(phone)).toBe(true);
    await phone.getByRole('button', { name: 'Confirm this email address' }).click();
    await phone.getByTestId('email-update-done').waitFor();
    await phone.screenshot({ path: screenshotPath('portal-email-confirmed-390'), fullPage: true });
    expect((await polar.customers.get({ id: customer.id })).email).toBe(newEmail);

    // Signed in with the new address there; the link is spent.
    await phone.getByRole('link', { name: 'Go to your billing details' }).click();
    await phone.getByTestId('current-email').waitFor();
    expect(await phone.getByTestId('current-email').textContent()).toBe(newEmail);
    const again = await (await buyerContext({ viewport: PHONE })).newPage();
    await again.goto(link);
    await again.getByTestId('email-update-error').waitFor();
    expect(await again.getByTestId('email-update-error').textContent()).toContain('invalid, used or expired');
  });
});
