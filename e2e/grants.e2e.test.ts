import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import type { Page } from 'playwright-core';
import { addMember, buyInSandbox, createAccessToken } from '../test/factories.js';
import {
  recordPolicyViolations,
  reloadUntilVisible,
  screenshotPath,
  signUpSeller,
  useBrowserStack,
} from './support.js';

/** Grants are given by the dispatcher and their workflows within seconds of the payment. */
const WORKFLOW_TIMEOUT_MS = 90_000;

// Page functions run in the browser; the e2e tsconfig has no DOM types, so they are written as text.
const hasNoHorizontalOverflow = (page: Page) =>
  page.evaluate<boolean>('document.documentElement.scrollWidth <= document.documentElement.clientWidth');
/** Whether every table of the card fits it: long text wraps or is cut rather than making it scroll. */
const tablesFit = (page: Page, card: string) =>
  page.evaluate<boolean>(
    `[...document.querySelectorAll(${JSON.stringify(`section[aria-label="${card}"] .data-table-scroll`)})]
      .every((element) => element.scrollWidth <= element.clientWidth)`,
  );

// What a subscriber was granted, as the seller sees it on the customer's and the benefit's pages
// (granted, waiting for the customer, failing); then the subscriber cancels and keeps the plan in
// the portal, and the seller's subscription page follows each step.
describe('benefit grants in the dashboard, and the portal’s cancel and keep, in Chromium', () => {
  const env = useBrowserStack('grants');
  // Every page works under its Content-Security-Policy: nothing it needs was refused.
  const policyViolations: string[] = [];
  afterAll(() => expect(policyViolations).toEqual([]));

  const suffix = randomUUID().slice(0, 8);
  // Long enough to be cut in every table cell it appears in.
  const buyerEmail = `subscriber-with-a-remarkably-long-address-${suffix}@example.test`;
  const benefitNames = {
    note: 'Reader support',
    license: 'Desktop app license',
    repository: 'Source code access',
  };
  let seller: Page;
  let polar: Polar;
  let organizationId = '';
  let customerId = '';
  let subscriptionId = '';
  let licenseBenefitId = '';

  const navigation = (page: Page, name: string) =>
    page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name, exact: true });
  const grantRow = (page: Page, benefit: string) =>
    page.getByTestId('customer-grant-row').filter({ hasText: benefit });

  async function openCustomer(page: Page) {
    await navigation(page, 'Customers').click();
    await page.getByRole('link', { name: buyerEmail }).click();
    await page.getByRole('region', { name: 'Benefits' }).waitFor();
  }

  it('prepares a seller with a monthly plan giving a note, a license key and repository access', async () => {
    const context = await env.browser.newContext({
      extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.61' },
    });
    recordPolicyViolations(context, policyViolations);
    seller = await context.newPage();
    const organizationName = `Grants ${suffix}`;
    await signUpSeller(seller, env.baseUrl, { firstName: 'Gil', suffix, organizationName });
    await navigation(seller, 'Benefits').waitFor();
    organizationId = (
      await env.database.db.organization.findFirstOrThrow({ where: { name: organizationName } })
    ).id;
    polar = new Polar({
      accessToken: await createAccessToken(env.database.db, organizationId),
      serverURL: env.baseUrl,
    });

    const note = await polar.benefits.create({
      type: 'custom',
      description: benefitNames.note,
      properties: { note: 'Write to help@example.test, we answer within a day.' },
    });
    const license = await polar.benefits.create({
      type: 'license_keys',
      description: benefitNames.license,
      properties: { prefix: 'GRANT', activations: { limit: 2, enableCustomerAdmin: true } },
    });
    licenseBenefitId = license.id;
    const repository = await polar.benefits.create({
      type: 'github_repository',
      description: benefitNames.repository,
      properties: { repositoryOwner: 'tollgate-dev', repositoryName: 'desktop', permission: 'pull' },
    });
    const plan = await polar.products.create({
      name: `Reader plan ${suffix}`,
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 1200, priceCurrency: 'usd' }],
    });
    await polar.products.updateBenefits({
      id: plan.id,
      productBenefitsUpdate: { benefits: [note.id, license.id, repository.id] },
    });
    customerId = (await polar.customers.create({ email: buyerEmail, name: 'Sam Subscriber' })).id;

    const paid = await buyInSandbox(polar, env.baseUrl, plan.id, customerId);
    subscriptionId = paid.subscriptionId ?? '';
    expect(subscriptionId).not.toBe('');
  });

  it('shows the customer the note and the key granted, and the repository waiting for their GitHub account', async () => {
    await openCustomer(seller);
    // The grants appear once the dispatcher has read the payment; the page then follows them.
    await reloadUntilVisible(
      seller,
      grantRow(seller, benefitNames.license)
        .getByTestId('grant-status')
        .filter({ hasText: /^Granted$/ }),
      'the license key granted',
      WORKFLOW_TIMEOUT_MS,
    );
    const note = grantRow(seller, benefitNames.note);
    await note
      .getByTestId('grant-status')
      .filter({ hasText: /^Granted$/ })
      .waitFor({ timeout: WORKFLOW_TIMEOUT_MS });
    expect(await note.textContent()).toContain('Custom');
    expect(await note.getByTestId('grant-dates').textContent()).toMatch(/^Granted on /);
    expect(await note.getByRole('link', { name: 'Subscription' }).count()).toBe(1);

    const license = grantRow(seller, benefitNames.license);
    // The key masked as the API shows it: its last characters, for matching what the customer reads out.
    expect(await license.getByTestId('grant-given').textContent()).toMatch(/^Key \*{4}-[0-9A-F]{6}$/);

    const repository = grantRow(seller, benefitNames.repository);
    await repository
      .getByTestId('grant-status')
      .filter({ hasText: 'Waiting for the customer' })
      .waitFor({ timeout: WORKFLOW_TIMEOUT_MS });
    const reason = await repository.getByTestId('grant-error').textContent();
    expect(reason).toContain('The customer needs to connect their GitHub account.');
    expect(reason).toContain('Last checked on ');
    expect(await repository.textContent()).toContain('GitHub repository access');

    expect(await seller.getByTestId('grant-summary').textContent()).toBe(
      '2 granted · 1 waiting for the customer',
    );
    // The state card is read again once the grants it counts have settled.
    await seller
      .getByTestId('granted-benefits')
      .filter({ hasText: '2 granted; every grant is listed under Benefits.' })
      .waitFor();
    expect(await hasNoHorizontalOverflow(seller)).toBe(true);
    await seller.screenshot({ path: screenshotPath('customer-grants'), fullPage: true });
  });

  it('shows a grant whose step fails, with the message and when, wrapped inside its cell', async () => {
    // A failure as the grant's workflow records it while it retries: an integration's long,
    // unbroken message (a later step of a granted grant, so the workflow has nothing to redo).
    const message = `License server unavailable: ${'upstream-connect-error-or-disconnect/reset-before-headers'.repeat(4)}`;
    const grant = await env.database.db.benefitGrant.findFirstOrThrow({
      where: { benefitId: licenseBenefitId, customerId },
    });
    await env.database.db.$executeRaw`UPDATE benefit_grants SET error = ${JSON.stringify({
      message,
      type: 'grant_failed',
      timestamp: new Date().toISOString(),
    })}::jsonb WHERE id = ${grant.id}::uuid`;
    await seller.reload();
    const license = grantRow(seller, benefitNames.license);
    await license.getByTestId('grant-status').filter({ hasText: 'Failed, retrying' }).waitFor();
    const error = await license.getByTestId('grant-error').textContent();
    expect(error).toMatch(/^A change to this grant failed on .+: License server unavailable: /);
    expect(error).toContain('It is tried again automatically.');
    expect(await seller.getByTestId('grant-summary').textContent()).toBe(
      '1 granted · 1 waiting for the customer · 1 failed, retrying',
    );
    expect(await tablesFit(seller, 'Benefits')).toBe(true);
    expect(await hasNoHorizontalOverflow(seller)).toBe(true);
    await seller.screenshot({ path: screenshotPath('customer-grant-failed'), fullPage: true });

    await env.database.db.$executeRaw`UPDATE benefit_grants SET error = NULL WHERE id = ${grant.id}::uuid`;
    await seller.reload();
    await license
      .getByTestId('grant-status')
      .filter({ hasText: /^Granted$/ })
      .waitFor();
  });

  it('lists a benefit’s grants on its page, with the customer, paged', async () => {
    await navigation(seller, 'Benefits').click();
    await seller.getByTestId('benefit-row').filter({ hasText: 'tollgate-dev/desktop (pull)' }).waitFor();
    await seller.getByRole('link', { name: benefitNames.repository }).click();
    await seller.getByRole('heading', { level: 1, name: benefitNames.repository }).waitFor();
    expect(await seller.getByTestId('benefit-details').textContent()).toContain('GitHub repository access');
    const row = seller.getByTestId('benefit-grant-row');
    await row.waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.getByRole('link', { name: buyerEmail }).count()).toBe(1);
    expect(await row.getByTestId('grant-status').textContent()).toBe('Waiting for the customer');
    expect(await seller.getByTestId('grant-count').textContent()).toBe('1 grant');
    // One page of grants: no pager.
    expect(await seller.getByRole('navigation', { name: 'Pages' }).count()).toBe(0);
    expect(await tablesFit(seller, 'Grants')).toBe(true);

    // A benefit nobody holds says so.
    const unused = await polar.benefits.create({
      type: 'custom',
      description: 'Launch party invite',
      properties: { note: null },
    });
    await navigation(seller, 'Benefits').click();
    await seller.getByRole('link', { name: unused.description }).click();
    await seller.getByText('No customer has been granted this benefit yet.').waitFor();
    expect(await seller.getByTestId('grant-count').count()).toBe(0);

    // From a grant to its customer.
    await seller.getByRole('link', { name: '← All benefits' }).click();
    await seller.getByRole('link', { name: benefitNames.note }).click();
    await seller.getByTestId('benefit-grant-row').getByRole('link', { name: buyerEmail }).click();
    await seller.getByRole('heading', { level: 1, name: buyerEmail }).waitFor();
  });

  it('follows the subscriber cancelling in the portal, then keeping the plan, on the subscription page', async () => {
    await seller
      .getByTestId('customer-subscription-row')
      .getByRole('link', { name: `Reader plan ${suffix}` })
      .click();
    const renewal = seller.getByTestId('subscription-renewal');
    await renewal.waitFor();
    expect(await renewal.textContent()).not.toMatch(/^Ends/);
    await seller.getByRole('button', { name: 'Cancel at period end' }).waitFor();

    const session = await polar.customerSessions.create({ customerId });
    const context = await env.browser.newContext({
      extraHTTPHeaders: { 'x-forwarded-for': '203.0.113.61' },
    });
    recordPolicyViolations(context, policyViolations);
    const buyer = await context.newPage();
    await buyer.goto(session.customerPortalUrl);
    const card = buyer.getByTestId('portal-subscription');
    await card.waitFor();
    await card.getByRole('button', { name: 'Cancel subscription' }).click();
    const dialog = buyer.getByTestId('cancel-dialog');
    await dialog.getByLabel('Why are you cancelling?').selectOption('unused');
    await dialog.getByRole('button', { name: 'Confirm cancellation' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await card
      .getByTestId('subscription-period')
      .filter({ hasText: /^Ends on / })
      .waitFor();

    await reloadUntilVisible(
      seller,
      renewal.filter({ hasText: /^Ends / }),
      'the cancellation on the seller’s page',
      WORKFLOW_TIMEOUT_MS,
    );
    expect(await seller.getByTestId('subscription-cancellation').textContent()).toContain(
      'Not using it enough',
    );
    await seller.getByRole('button', { name: 'Resume' }).waitFor();
    // Set to cancel at the period's end: the benefits stay until then.
    expect(await seller.getByRole('button', { name: 'Cancel at period end' }).count()).toBe(0);
    await seller.screenshot({ path: screenshotPath('subscription-canceled-in-portal'), fullPage: true });

    await card.getByRole('button', { name: 'Keep subscription' }).click();
    await card
      .getByTestId('subscription-period')
      .filter({ hasText: /^Renews on / })
      .waitFor();
    await reloadUntilVisible(
      seller,
      seller.getByRole('button', { name: 'Cancel at period end' }),
      'the kept plan on the seller’s page',
      WORKFLOW_TIMEOUT_MS,
    );
    expect(await renewal.textContent()).not.toMatch(/^Ends/);
    expect(await seller.getByTestId('subscription-cancellation').count()).toBe(0);
    expect(await seller.getByRole('button', { name: 'Resume' }).count()).toBe(0);
    await context.close();

    // The plan went on: the customer still holds what it gives.
    await seller.getByTestId('subscription-details').getByRole('link', { name: buyerEmail }).click();
    await grantRow(seller, benefitNames.note)
      .getByTestId('grant-status')
      .filter({ hasText: /^Granted$/ })
      .waitFor();
    expect(await seller.getByTestId('grant-summary').textContent()).toBe(
      '2 granted · 1 waiting for the customer',
    );
  });

  it('shows a member the grants, without the benefit form only owners and admins may use', async () => {
    const context = await env.browser.newContext({
      extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.62' },
    });
    recordPolicyViolations(context, policyViolations);
    const member = await context.newPage();
    await member.goto(`${env.baseUrl}/sign-up`);
    await member.getByLabel('Name', { exact: true }).fill(`Mia ${suffix}`);
    await member.getByLabel('Email', { exact: true }).fill(`mia-${suffix}@example.test`);
    await member.getByLabel('Username', { exact: true }).fill(`mia_${suffix}`);
    await member.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
    await member.getByRole('button', { name: 'Create account' }).click();
    await member.getByRole('heading', { level: 1, name: 'Overview', exact: true }).waitFor();
    const user = await env.database.db.user.findUniqueOrThrow({
      where: { email: `mia-${suffix}@example.test` },
    });
    await addMember(env.database.db, organizationId, user.id, 'member');
    await member.reload();
    await member.getByLabel('Active organization').selectOption(organizationId);

    await navigation(member, 'Benefits').click();
    await member.getByText('Only owners and admins can create and delete benefits.').waitFor();
    expect(await member.getByRole('button', { name: 'Create benefit' }).count()).toBe(0);
    expect(await member.getByRole('button', { name: /^Delete / }).count()).toBe(0);
    await member.getByRole('link', { name: benefitNames.license }).click();
    const row = member.getByTestId('benefit-grant-row');
    await row
      .getByTestId('grant-status')
      .filter({ hasText: /^Granted$/ })
      .waitFor();

    await openCustomer(member);
    await grantRow(member, benefitNames.repository)
      .getByTestId('grant-status')
      .filter({ hasText: 'Waiting for the customer' })
      .waitFor();
    await context.close();
  });
});
