import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { eventually } from '../test/eventually.js';
import { buyInSandbox, createAccessToken, createOrganization } from '../test/factories.js';
import { startFakeGitHub, type FakeGitHub } from '../test/fake-platforms.js';
import { buyerContexts, openPortalSection } from './portal-support.js';
import { screenshotPath, useBrowserStack } from './support.js';

// A GitHub benefit in the portal: the buyer connects their account (OAuth through a fake GitHub),
// the repository invitation goes to it, and a declined connection says why.
describe('connecting a GitHub account in the customer portal, in Chromium', () => {
  let github: FakeGitHub;
  // Before the stack's own beforeAll: Tollgate starts with the fake's settings.
  beforeAll(async () => {
    github = await startFakeGitHub();
  });
  const env = useBrowserStack('portal-accounts', { extraEnv: () => github.settings });
  const policyViolations: string[] = [];
  afterAll(async () => {
    await github?.stop();
    expect(policyViolations).toEqual([]);
    expect(github?.violations ?? []).toEqual([]);
  });
  const buyerContext = buyerContexts(() => env.browser, policyViolations, 120);

  it('waits for the account, connects it through GitHub, and invites it to the repository', async () => {
    const suffix = randomUUID().slice(0, 8);
    const organization = await createOrganization(env.database.db, { name: `Octo Tools ${suffix}` });
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.baseUrl });
    github.addRepository('octo', 'tools');
    const benefit = await polar.benefits.create({
      type: 'github_repository',
      description: 'Source code access',
      properties: { repositoryOwner: 'octo', repositoryName: 'tools', permission: 'pull' },
    });
    const product = await polar.products.create({
      name: `Tools ${suffix}`,
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 4900, priceCurrency: 'usd' }],
    });
    await polar.products.updateBenefits({
      id: product.id,
      productBenefitsUpdate: { benefits: [benefit.id] },
    });
    const customer = await polar.customers.create({ email: `octo-${suffix}@example.test` });
    await buyInSandbox(polar, env.baseUrl, product.id, customer.id);
    await eventually(
      async () => (await polar.benefits.grants({ id: benefit.id })).result.items,
      (grants) => grants[0]?.error?.type === 'account_not_linked',
    );

    const page = await (await buyerContext()).newPage();
    await page.goto((await polar.customerSessions.create({ customerId: customer.id })).customerPortalUrl);
    await openPortalSection(page, 'Benefits');

    // Declined on GitHub's page: back in the portal, told why, nothing connected.
    github.declineNext();
    await page.getByRole('button', { name: 'Connect GitHub' }).click();
    await page.getByText('You did not allow the connection. Connect again when you are ready.').waitFor();
    expect(page.url()).not.toContain('oauth_error');

    github.signInAs({ id: 4242, login: `octo-${suffix}` });
    await page.getByRole('button', { name: 'Connect GitHub' }).click();
    await page.getByRole('heading', { level: 1, name: 'Benefits' }).waitFor();
    await eventually(
      () => Promise.resolve(github.invitations('octo', 'tools')),
      (invitations) => invitations.length === 1,
    );
    expect(github.invitations('octo', 'tools')).toEqual([{ login: `octo-${suffix}`, permission: 'pull' }]);
    // The page shows where access went once the grant is given (it reads the grants again).
    await eventually(
      async () => {
        await page.reload();
        // count() does not wait: the benefit must be on the page before its text is read.
        await page.getByTestId('portal-benefit').first().waitFor();
        return page.getByText(`Given to your GitHub account @octo-${suffix}.`).count();
      },
      (count) => count === 1,
      60_000,
    );
    await page.screenshot({ path: screenshotPath('portal-github-connected'), fullPage: true });

    await page.getByRole('button', { name: 'Disconnect GitHub' }).click();
    await page.getByRole('button', { name: 'Connect GitHub' }).waitFor();
    // Disconnecting keeps what was given.
    expect(github.invitations('octo', 'tools')).toHaveLength(1);
  });
});
