import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import type { BrowserContext, Page } from 'playwright-core';
import { createAccessToken, createUploadedFile } from '../test/factories.js';
import {
  buyerContexts,
  focusedTextOnceOn,
  focusIsInOpenDialog,
  hasNoHorizontalOverflow,
  NARROW,
  openPortalSection,
  portalNav,
} from './portal-support.js';
import { poll, recordPolicyViolations, screenshotPath, signUpSeller, useBrowserStack } from './support.js';

/** Checkouts, grants and license keys are written by workflows within seconds. */
const WORKFLOW_TIMEOUT_MS = 90_000;
const ADDRESS = { country: 'DE', city: 'Berlin', postalCode: '10117', line1: 'Unter den Linden 1' };

// The buyer's side: hosted checkout → portal by a customer session link, and by an emailed code.
describe('customer portal in Chromium', () => {
  const env = useBrowserStack('portal');
  // Every page works under its Content-Security-Policy: nothing it needs was refused.
  const policyViolations: string[] = [];
  afterAll(() => expect(policyViolations).toEqual([]));

  const suffix = randomUUID().slice(0, 8);
  // One unbreakable word longer than a phone is wide: it must wrap, not widen the page.
  const bundleName = `Mushroom field guide Supercalifragilisticexpialidocious-${'Lichen'.repeat(8)} ${suffix}`;
  const sellerName = `Forest Books ${suffix}`;
  const ada = { name: 'Ada Buyer', email: `ada-${suffix}@example.test` };
  const sue = { name: 'Sue Subscriber', email: `sue-${suffix}@example.test` };
  let polar: Polar;
  let organizationId = '';
  let slug = '';
  let bundleId = '';
  let starterId = '';
  let proId = '';
  let adaId = '';
  let sueId = '';
  let subscriptionId = '';
  let licenseKey = '';
  let filesBenefitId = '';
  const buyerContext = buyerContexts(() => env.browser, policyViolations, 10);

  const portalToken = (page: Page) =>
    page.evaluate<string | null>(
      `sessionStorage.getItem(${JSON.stringify(`tollgate:portal-token:${slug}`)})`,
    );

  const nav = portalNav;
  const openSection = openPortalSection;

  /** The seller's app asks for a portal link for its customer (POST /v1/customer-sessions/). */
  async function customerPortalUrl(customerId: string): Promise<string> {
    const session = await polar.customerSessions.create({ customerId });
    return session.customerPortalUrl;
  }

  /** The latest sign-in code emailed to `email` (the dev mailbox keeps every email). */
  async function latestCode(email: string, after: Date): Promise<string> {
    const message = await poll('the sign-in code email', () =>
      env.database.db.emailMessage
        .findFirst({ where: { toAddress: email, createdAt: { gt: after } }, orderBy: { createdAt: 'desc' } })
        .then((row) => row ?? undefined),
    );
    // "Enter 123456 to sign in …": the subject and the body carry it; the port and slug may hold digits too.
    const code = /\bEnter (\d{6})\b/.exec(message.text)?.[1] ?? /: (\d{6})$/m.exec(message.subject)?.[1];
    if (!code) throw new Error(`no 6-digit code in: ${message.text}`);
    return code;
  }

  it('prepares a seller with a licensed download and two monthly plans', async () => {
    const context = await env.browser.newContext({
      extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.41' },
    });
    recordPolicyViolations(context, policyViolations);
    const seller = await context.newPage();
    await signUpSeller(seller, env.baseUrl, { firstName: 'Pia', suffix, organizationName: sellerName });
    // The sidebar's navigation shows once the new organization is the active one.
    await seller.getByRole('navigation', { name: 'Dashboard' }).waitFor();
    const organization = await env.database.db.organization.findFirstOrThrow({ where: { name: sellerName } });
    organizationId = organization.id;
    slug = organization.slug;
    polar = new Polar({
      accessToken: await createAccessToken(env.database.db, organizationId),
      serverURL: env.baseUrl,
    });

    const file = await createUploadedFile(env.database.db, organizationId, {
      service: 'downloadable',
      name: 'field-guide.pdf',
      mimeType: 'application/pdf',
      size: 2_500_000,
    });
    const license = await polar.benefits.create({
      type: 'license_keys',
      description: 'Field guide app license',
      properties: { activations: { limit: 2, enableCustomerAdmin: true }, limitUsage: 10 },
    });
    const files = await polar.benefits.create({
      type: 'downloadables',
      description: 'Printable edition',
      properties: { files: [file.id] },
    });
    filesBenefitId = files.id;
    const note = await polar.benefits.create({
      type: 'custom',
      description: 'Reader support',
      properties: { note: 'Write to help@forest-books.test, we answer within a day.' },
    });
    const bundle = await polar.products.create({
      name: bundleName,
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 2900, priceCurrency: 'usd' }],
    });
    bundleId = bundle.id;
    await polar.products.updateBenefits({
      id: bundle.id,
      productBenefitsUpdate: { benefits: [license.id, files.id, note.id] },
    });
    const plan = (name: string, priceAmount: number) =>
      polar.products.create({
        name: `${name} ${suffix}`,
        recurringInterval: 'month',
        prices: [{ amountType: 'fixed', priceAmount, priceCurrency: 'usd' }],
      });
    starterId = (await plan('Starter', 1000)).id;
    proId = (await plan('Pro', 3000)).id;
  });

  it('buys through the hosted checkout, whose confirmation links to the portal', async () => {
    const checkout = await polar.checkouts.create({ products: [bundleId] });
    const context = await buyerContext();
    const page = await context.newPage();
    await page.goto(checkout.url);
    await page.getByLabel('Email', { exact: true }).fill(ada.email);
    await page.getByLabel('Cardholder name', { exact: true }).fill(ada.name);
    await page.getByLabel('Country', { exact: true }).selectOption('DE');
    await page.getByLabel('Card number', { exact: true }).fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry date', { exact: true }).fill('12 / 34');
    await page.getByLabel('Security code', { exact: true }).fill('123');
    await page.getByRole('button', { name: 'Pay $29.00' }).click();
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor({ timeout: 60_000 });

    const link = page.getByTestId('portal-link');
    expect(await link.getAttribute('href')).toMatch(
      new RegExp(`^/portal/${slug}\\?customer_session_token=tollgate_cst_`),
    );
    await link.click();
    await page.getByRole('heading', { level: 1, name: 'Your purchases' }).waitFor();
    // The token left the address bar (and the history entry) as soon as it arrived.
    expect(page.url()).toBe(`${env.baseUrl}/portal/${slug}`);
    expect(await portalToken(page)).toMatch(/^tollgate_cst_/);
    expect(await page.getByTestId('seller-name').textContent()).toBe(sellerName);
    await page.getByTestId('no-subscriptions').waitFor();
    await openSection(page, 'Orders');
    const order = page.getByTestId('portal-order');
    await order.waitFor();
    expect(await order.getByTestId('order-amount').textContent()).toBe('$29.00');
    await context.close();

    adaId = await poll(
      'the paid checkout',
      async () => (await polar.checkouts.get({ id: checkout.id })).customerId ?? undefined,
      WORKFLOW_TIMEOUT_MS,
    );
    licenseKey = await poll(
      'the license key grant',
      async () => (await polar.licenseKeys.list({})).result.items[0]?.key,
      WORKFLOW_TIMEOUT_MS,
    );
    await poll(
      'the downloadable grant',
      async () =>
        (await polar.benefits.grants({ id: filesBenefitId })).result.items[0]?.isGranted || undefined,
      WORKFLOW_TIMEOUT_MS,
    );
  });

  it('opens customer_portal_url, reveals and copies the license key, lists the file and the invoice', async () => {
    // The seller's software activated the key on one device.
    const activation = await fetch(`${env.baseUrl}/v1/customer-portal/license-keys/activate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: licenseKey, organization_id: organizationId, label: 'Ada’s laptop' }),
    });
    expect(activation.status).toBe(200);

    const context = await buyerContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    const url = await customerPortalUrl(adaId);
    expect(url).toContain(`/portal/${slug}?customer_session_token=`);
    await page.goto(url);
    await page.getByRole('heading', { level: 1, name: 'Your purchases' }).waitFor();
    expect(page.url()).toBe(`${env.baseUrl}/portal/${slug}`);
    await page.getByText(`Signed in as ${ada.email}`).waitFor();

    await openSection(page, 'License keys');
    const item = page.getByTestId('portal-license-key');
    await item.waitFor();
    // Named after its benefit once the grants have loaded.
    await item.getByRole('heading', { level: 3, name: 'Field guide app license', exact: true }).waitFor();
    const value = item.getByTestId('license-key-value');
    expect(await value.textContent()).not.toContain(licenseKey);
    expect(await value.textContent()).toContain(licenseKey.slice(-4));
    await item.getByRole('button', { name: 'Show' }).click();
    expect(await value.textContent()).toBe(licenseKey);
    await item.getByRole('button', { name: 'Copy' }).click();
    await item.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(licenseKey);
    await item.getByRole('button', { name: 'Hide' }).click();
    expect(await value.textContent()).not.toContain(licenseKey);
    expect(await item.getByTestId('license-key-status').textContent()).toBe('Active');
    expect(await item.getByTestId('license-key-usage').textContent()).toBe('0 of 10 uses');
    expect(await item.getByTestId('license-key-expiry').textContent()).toBe('Never expires');

    // The device the buyer no longer uses is freed from here.
    const device = item.getByTestId('license-key-activation').filter({ hasText: 'Ada’s laptop' });
    await device.waitFor();
    expect(await item.getByTestId('license-key-activations').textContent()).toContain('1 of 2 in use');
    await device.getByRole('button', { name: 'Deactivate Ada’s laptop' }).click();
    await device.getByRole('button', { name: 'Confirm' }).click();
    await item.getByText('Not activated on any device yet.').waitFor();

    await openSection(page, 'Downloads');
    const download = page.getByTestId('portal-download');
    await download.waitFor();
    expect(await download.getByTestId('download-name').textContent()).toBe('field-guide.pdf');
    expect(await download.getByTestId('download-size').textContent()).toMatch(/MB$/);
    const href = await download.getByRole('link', { name: 'Download field-guide.pdf' }).getAttribute('href');
    expect(href).toMatch(/\/v1\/customer-portal\/downloadables\/[A-Za-z0-9._-]+$/);
    const followed = await page.request.get(href!, { maxRedirects: 0 });
    expect(followed.status()).toBe(302);

    await openSection(page, 'Benefits');
    const benefits = page.getByTestId('portal-benefit');
    await benefits.first().waitFor();
    expect(await benefits.count()).toBe(3);
    expect(await page.getByTestId('benefit-note').textContent()).toBe(
      'Write to help@forest-books.test, we answer within a day.',
    );

    await openSection(page, 'Orders');
    const order = page.getByTestId('portal-order');
    await order.waitFor();
    expect(await order.getByRole('heading', { level: 3 }).textContent()).toBe(bundleName);
    expect(await order.getByTestId('order-status').textContent()).toBe('Paid');
    await order.getByRole('button', { name: /^Download invoice/ }).click();
    const invoice = order.getByTestId('invoice-link');
    await invoice.waitFor();
    expect(await invoice.getAttribute('href')).toBeTruthy();
    await page.screenshot({ path: screenshotPath('portal-orders'), fullPage: true });

    await openSection(page, 'Usage');
    await page.getByText('No usage yet.').waitFor();

    // Signing out forgets the token of this tab.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to your purchases' }).waitFor();
    expect(await portalToken(page)).toBeNull();
    expect(await page.getByTestId('session-ended').count()).toBe(0);
    await context.close();
  });

  it('signs a subscriber in with an emailed code; they cancel with a reason and keep the plan', async () => {
    sueId = (await polar.customers.create({ email: sue.email, name: sue.name })).id;
    const checkout = await polar.checkouts.create({ products: [starterId], customerId: sueId });
    await new Polar({ serverURL: env.baseUrl }).checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerName: sue.name,
        customerBillingAddress: ADDRESS,
        confirmationTokenId: 'pm_card_visa',
      },
    });
    subscriptionId = await poll(
      'the subscription',
      async () => (await polar.checkouts.get({ id: checkout.id })).subscriptionId ?? undefined,
      WORKFLOW_TIMEOUT_MS,
    );

    const context = await buyerContext();
    const page = await context.newPage();
    await page.goto(`${env.baseUrl}/portal/${slug}`);
    await page.getByRole('heading', { name: 'Sign in to your purchases' }).waitFor();
    const requested = new Date(Date.now() - 1_000);
    await page.getByLabel('Email', { exact: true }).fill(sue.email);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByTestId('code-sent').waitFor();
    const code = await latestCode(sue.email, requested);

    // A wrong code: the API's message shows next to the field, which takes the focus.
    await page.getByLabel('6-digit code').fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const codeField = page.locator('.checkout-field', { has: page.getByLabel('6-digit code') });
    await codeField.locator('.field-error').filter({ hasText: 'wrong or has expired' }).waitFor();
    expect(await page.getByLabel('6-digit code').getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('6-digit code').fill(code);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(`Signed in as ${sue.email}`).waitFor();
    const card = page.getByTestId('portal-subscription');
    await card.waitFor();
    expect(await card.getByRole('heading', { level: 3 }).textContent()).toBe(`Starter ${suffix}`);
    expect(await card.getByTestId('subscription-amount').textContent()).toBe('$10.00 / month');
    expect(await card.getByTestId('subscription-status').textContent()).toBe('Active');
    expect(await card.getByTestId('subscription-period').textContent()).toMatch(/^Renews on /);

    // By keyboard: the dialog takes the focus, Escape closes it and gives the focus back.
    const cancelButton = card.getByRole('button', { name: 'Cancel subscription' });
    await cancelButton.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('cancel-dialog');
    await dialog.getByRole('heading', { name: 'Cancel subscription' }).waitFor();
    expect(await focusIsInOpenDialog(page)).toBe(true);
    for (let presses = 0; presses < 6; presses += 1) {
      await page.keyboard.press('Tab');
      expect(await focusIsInOpenDialog(page)).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await focusedTextOnceOn(page, 'Cancel subscription')).toBe('Cancel subscription');

    await cancelButton.click();
    await dialog.getByLabel('Why are you cancelling?').selectOption({ label: 'It’s too expensive' });
    await dialog.getByLabel('Anything else you’d like to tell us?').fill('Back when the budget allows.');
    await dialog.getByRole('button', { name: 'Confirm cancellation' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await card
      .getByTestId('subscription-period')
      .filter({ hasText: /^Ends on / })
      .waitFor();
    expect(await focusedTextOnceOn(page, 'Keep subscription')).toBe('Keep subscription');
    const canceled = await polar.subscriptions.get({ id: subscriptionId });
    expect(canceled.cancelAtPeriodEnd).toBe(true);
    expect(canceled.customerCancellationReason).toBe('too_expensive');
    expect(canceled.customerCancellationComment).toBe('Back when the budget allows.');
    await page.screenshot({ path: screenshotPath('portal-canceled'), fullPage: true });

    await card.getByRole('button', { name: 'Keep subscription' }).click();
    await card
      .getByTestId('subscription-period')
      .filter({ hasText: /^Renews on / })
      .waitFor();
    expect((await polar.subscriptions.get({ id: subscriptionId })).cancelAtPeriodEnd).toBe(false);

    // The session runs out: the next call's 401 brings the sign-in page back, saying why.
    await env.database.db.customerSession.updateMany({
      where: { customerId: sueId },
      data: { expiresAt: new Date(Date.now() - 1_000) },
    });
    await nav(page).getByRole('link', { name: 'Orders', exact: true }).click();
    await page.getByText('Your session has ended, sign in again.').waitFor();
    await page.getByRole('heading', { name: 'Sign in to your purchases' }).waitFor();
    expect(await portalToken(page)).toBeNull();
    await context.close();
  });

  it('shows why a plan change is refused, then previews and confirms one', async () => {
    const context = await buyerContext();
    const page = await context.newPage();
    await page.goto(await customerPortalUrl(sueId));
    const card = page.getByTestId('portal-subscription');
    await card.waitFor();
    const dialog = page.getByTestId('change-plan-dialog');

    await env.database.db.organization.update({
      where: { id: organizationId },
      data: { allowCustomerUpdates: false },
    });
    await card.getByRole('button', { name: 'Change plan' }).click();
    await dialog.getByRole('radio', { name: new RegExp(`Pro ${suffix}`) }).check();
    await dialog.getByText('This seller does not let customers change their plan').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    await env.database.db.organization.update({
      where: { id: organizationId },
      data: { allowCustomerUpdates: true },
    });
    await card.getByRole('button', { name: 'Change plan' }).click();
    expect(await dialog.getByText('$30.00 / month').count()).toBeGreaterThan(0);
    await dialog.getByRole('radio', { name: new RegExp(`Pro ${suffix}`) }).check();
    const preview = dialog.getByTestId('proration-preview');
    await preview.waitFor();
    expect(await preview.getByTestId('proration-new-amount').textContent()).toBe('$30.00 / month');
    await dialog.getByRole('button', { name: 'Confirm change' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText(`Your plan is now Pro ${suffix}.`).waitFor();
    expect(await card.getByTestId('subscription-amount').textContent()).toBe('$30.00 / month');
    expect((await polar.subscriptions.get({ id: subscriptionId })).productId).toBe(proId);
    await context.close();
  });

  it('fits a 375 px wide screen on every page, with the menu above the page', async () => {
    const context: BrowserContext = await buyerContext({ viewport: NARROW });
    const page = await context.newPage();
    await page.goto(await customerPortalUrl(adaId));
    await page.getByRole('heading', { level: 1, name: 'Your purchases' }).waitFor();
    const menu = await nav(page).boundingBox();
    const main = await page.locator('#portal-main').boundingBox();
    expect(menu && main && menu.y + menu.height <= main.y + 1).toBe(true);
    expect(await hasNoHorizontalOverflow(page)).toBe(true);
    for (const section of ['Orders', 'License keys', 'Downloads', 'Usage', 'Benefits', 'Billing']) {
      await openSection(page, section);
      await page
        .getByRole('status')
        .filter({ hasText: /^Loading/ })
        .waitFor({ state: 'detached' });
      expect({ section, fits: await hasNoHorizontalOverflow(page) }).toEqual({ section, fits: true });
    }
    await openSection(page, 'License keys');
    await page.getByRole('button', { name: 'Show' }).click();
    expect(await hasNoHorizontalOverflow(page)).toBe(true);
    await page.screenshot({ path: screenshotPath('portal-narrow-license-keys'), fullPage: true });

    // A billing detail the API refuses is explained under its field.
    await openSection(page, 'Billing');
    await page.getByLabel('Country').selectOption('DE');
    await page.getByLabel('Tax ID').fill('not-a-tax-number');
    await page.getByRole('button', { name: 'Save billing details' }).click();
    const taxField = page.locator('.checkout-field', { has: page.getByLabel('Tax ID') });
    await taxField
      .locator('.field-error')
      .filter({ hasText: 'This is not a tax number of your billing country.' })
      .waitFor();
    expect(await hasNoHorizontalOverflow(page)).toBe(true);
    await page.getByLabel('Tax ID').fill('');
    await page.getByRole('button', { name: 'Save billing details' }).click();
    await page.getByText('Your billing details are saved.').waitFor();

    // The subscriber's page with its dialog open, at the same width.
    const subscriber = await context.newPage();
    await subscriber.goto(await customerPortalUrl(sueId));
    await subscriber.getByTestId('portal-subscription').waitFor();
    expect(await hasNoHorizontalOverflow(subscriber)).toBe(true);
    await subscriber.getByRole('button', { name: 'Cancel subscription' }).click();
    await subscriber.getByTestId('cancel-dialog').getByRole('heading').waitFor();
    expect(await hasNoHorizontalOverflow(subscriber)).toBe(true);
    await subscriber.screenshot({ path: screenshotPath('portal-narrow-cancel'), fullPage: true });
    await context.close();
  });
});
