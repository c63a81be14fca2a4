import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { signLinkState } from '../../domain/customer-accounts/rules.js';
import {
  buyInSandbox,
  createAccessToken,
  createLinkedAccount,
  createOrganization,
} from '../../test/factories.js';
import { eventually } from '../../test/eventually.js';
import {
  followLinkInBrowser,
  startFakeDiscord,
  startFakeGitHub,
  type FakeDiscord,
  type FakeGitHub,
} from '../../test/fake-platforms.js';
import { callV1 } from '../../test/http.js';
import { TEST_AUTH_SECRET, useTestStack } from '../../test/stack.js';

type RawGrant = {
  id: string;
  is_granted: boolean;
  is_revoked: boolean;
  properties: Record<string, unknown>;
  error: { message: string; type: string } | null;
};

const GUILD_A = '310000000000000001';
const GUILD_B = '320000000000000002';
const ROLE_A = '410000000000000001';
const ROLE_A2 = '410000000000000002';
const ROLE_B = '420000000000000001';
const ROLE_OTHER = '420000000000000009';

describe('GitHub and Discord benefits, granted to the account a customer links in the portal', () => {
  let github: FakeGitHub;
  let discord: FakeDiscord;
  const platformSettings: Record<string, string> = {};
  // Before the stack's own beforeAll (hooks run in order): it reads the fakes' settings.
  beforeAll(async () => {
    github = await startFakeGitHub();
    // Shorter than the renewal margin: every use of a customer's token renews it first.
    discord = await startFakeDiscord({ tokenLifetimeSeconds: 30 });
    Object.assign(platformSettings, github.settings, discord.settings);
  });
  afterAll(async () => {
    await github?.stop();
    await discord?.stop();
  });
  const env = useTestStack({ platformSettings });

  async function seller() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    return { organization, token, polar };
  }

  /** A one-time product with these benefits, bought by a new customer, and their portal session. */
  async function boughtBy(world: Awaited<ReturnType<typeof seller>>, benefitIds: string[], email: string) {
    const product = await world.polar.products.create({
      name: `Access ${email}`,
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 4900, priceCurrency: 'usd' }],
    });
    await world.polar.products.updateBenefits({
      id: product.id,
      productBenefitsUpdate: { benefits: benefitIds },
    });
    const customer = await world.polar.customers.create({ email });
    const session = await world.polar.customerSessions.create({ customerId: customer.id });
    return { product, customer, session: session.token };
  }

  const buy = (polar: Polar, productId: string, customerId: string) =>
    buyInSandbox(polar, env.stack.baseUrl, productId, customerId);

  const portal = () => new Polar({ serverURL: env.stack.baseUrl }).customerPortal;

  const grantsOf = async (token: string, benefitId: string) =>
    (await callV1(env.stack.baseUrl, token, 'GET', `/benefits/${benefitId}/grants`)).body.items as RawGrant[];

  const settled = (token: string, benefitId: string, done: (grant: RawGrant) => boolean) =>
    eventually(
      () => grantsOf(token, benefitId),
      (grants) => grants.length === 1 && done(grants[0]!),
      30_000,
    ).then((grants) => grants[0]!);

  const portalPage = (slug: string) => `${env.stack.baseUrl}/portal/${slug}?tab=benefits`;

  const authorize = (session: string, platform: string, returnTo: string) =>
    callV1(
      env.stack.baseUrl,
      session,
      'GET',
      `/customer-portal/oauth-accounts/authorize?platform=${platform}&return_to=${encodeURIComponent(returnTo)}`,
    );

  /** The customer links their account: the portal's button, the platform's page, the way back. */
  async function link(session: string, platform: 'github' | 'discord', returnTo: string) {
    const answer = await authorize(session, platform, returnTo);
    expect(answer.status).toBe(200);
    return followLinkInBrowser(answer.body.url as string);
  }

  async function refundAll(polar: Polar, productId: string) {
    const [order] = (await polar.orders.list({ productId })).result.items;
    await polar.refunds.create({
      orderId: order!.id,
      reason: 'customer_request',
      amount: 4900,
      revokeBenefits: true,
    });
  }

  it('GitHub: the grant waits for a linked account, then invites it; permission and repository follow the benefit; a revoke takes it all back', async () => {
    const world = await seller();
    const { polar, token, organization } = world;
    github.addRepository('acme', 'tools');
    github.addRepository('acme', 'tools-pro');
    const benefit = await polar.benefits.create({
      type: 'github_repository',
      description: 'Source access',
      properties: { repositoryOwner: 'acme', repositoryName: 'tools', permission: 'pull' },
    });
    const { product, customer, session } = await boughtBy(world, [benefit.id], 'octo@example.test');
    await buy(polar, product.id, customer.id);
    expect(await settled(token, benefit.id, (grant) => grant.error !== null)).toMatchObject({
      is_granted: false,
      error: { message: 'The customer needs to connect their GitHub account.', type: 'account_not_linked' },
    });

    const returnTo = portalPage(organization.slug);
    const authorized = await authorize(session, 'github', returnTo);
    const consentPage = new URL(authorized.body.url as string);
    expect(`${consentPage.origin}${consentPage.pathname}`).toBe(`${github.url}/login/oauth/authorize`);
    expect(consentPage.searchParams.get('redirect_uri')).toBe(
      `${env.stack.baseUrl}/v1/customer-portal/oauth-accounts/callback`,
    );
    github.signInAs({ id: 583231, login: 'octocat' });
    const browser = await followLinkInBrowser(authorized.body.url as string);
    expect(browser).toMatchObject({ status: 302, location: returnTo });

    const granted = await settled(token, benefit.id, (grant) => grant.is_granted);
    expect(granted).toMatchObject({
      error: null,
      properties: {
        account_id: '583231',
        account_username: 'octocat',
        repository_owner: 'acme',
        repository_name: 'tools',
        permission: 'pull',
      },
    });
    expect(github.invitations('acme', 'tools')).toEqual([{ login: 'octocat', permission: 'pull' }]);
    const security = { customerSession: session };
    expect((await portal().customers.get(security)).oauthAccounts).toEqual({
      github: { accountId: '583231', accountUsername: 'octocat' },
    });
    const [portalGrant] = (await portal().benefitGrants.list(security, {})).result.items;
    expect(portalGrant).toMatchObject({ id: granted.id, isGranted: true });
    expect(portalGrant!.customer.oauthAccounts).toEqual({
      github: { accountId: '583231', accountUsername: 'octocat' },
    });

    // Accepted on GitHub; then the seller raises the permission: the collaborator follows.
    github.acceptInvitation('acme', 'tools', 'octocat');
    await polar.benefits.update({
      id: benefit.id,
      requestBody: {
        type: 'github_repository',
        properties: { repositoryOwner: 'acme', repositoryName: 'tools', permission: 'push' },
      },
    });
    await eventually(
      async () => github.collaborators('acme', 'tools'),
      (collaborators) => collaborators.octocat === 'push',
    );
    expect(
      (await settled(token, benefit.id, (grant) => grant.properties.permission === 'push')).is_granted,
    ).toBe(true);

    // Another repository: invited there, removed here.
    await polar.benefits.update({
      id: benefit.id,
      requestBody: {
        type: 'github_repository',
        properties: { repositoryOwner: 'acme', repositoryName: 'tools-pro', permission: 'push' },
      },
    });
    await eventually(
      async () => ({
        before: github.collaborators('acme', 'tools'),
        after: github.invitations('acme', 'tools-pro'),
      }),
      (state) => state.before.octocat === undefined && state.after.length === 1,
    );
    expect(github.invitations('acme', 'tools-pro')).toEqual([{ login: 'octocat', permission: 'push' }]);

    // The refund takes it back: the invitation not yet accepted is withdrawn.
    await refundAll(polar, product.id);
    const revoked = await settled(token, benefit.id, (grant) => grant.is_revoked);
    expect(revoked.properties).toMatchObject({ repository_name: 'tools-pro', account_username: 'octocat' });
    expect(github.invitations('acme', 'tools-pro')).toEqual([]);
    expect(github.collaborators('acme', 'tools-pro')).toEqual({});
    expect(github.violations).toEqual([]);
  });

  it('Discord: linked first, joined with the role (or given it when already a member); role changes follow; a revoke kicks or only takes the role, as the benefit says', async () => {
    const world = await seller();
    const { polar, token, organization } = world;
    discord.addGuild(GUILD_A, [ROLE_A, ROLE_A2]);
    discord.addGuild(GUILD_B, [ROLE_B, ROLE_OTHER]);
    const user = { id: '80351110224678912', username: 'nelly' };
    discord.addMember(GUILD_B, user.id, [ROLE_OTHER]);
    // kick_member is not in @polar-sh/sdk 0.33.2: sent over HTTP.
    const keep = await callV1(env.stack.baseUrl, token, 'POST', '/benefits/', {
      type: 'discord',
      description: 'Supporters role',
      properties: { guild_token: GUILD_A, role_id: ROLE_A },
    });
    const kick = await callV1(env.stack.baseUrl, token, 'POST', '/benefits/', {
      type: 'discord',
      description: 'Members server',
      properties: { guild_token: GUILD_B, role_id: ROLE_B, kick_member: true },
    });
    expect(keep.body.properties).toMatchObject({ guild_id: GUILD_A, kick_member: false });
    expect(kick.body.properties).toMatchObject({ guild_id: GUILD_B, role_id: ROLE_B, kick_member: true });
    const keepId = keep.body.id as string;
    const kickId = kick.body.id as string;
    const { product, customer, session } = await boughtBy(world, [keepId, kickId], 'nelly@example.test');

    discord.signInAs(user);
    const returnTo = portalPage(organization.slug);
    expect(await link(session, 'discord', returnTo)).toMatchObject({ status: 302, location: returnTo });
    expect((await portal().customers.get({ customerSession: session })).oauthAccounts).toEqual({
      discord: { accountId: user.id, accountUsername: 'nelly' },
    });
    const refreshesBefore = discord.refreshes;
    await buy(polar, product.id, customer.id);
    for (const id of [keepId, kickId]) {
      expect(await settled(token, id, (grant) => grant.is_granted)).toMatchObject({
        error: null,
        properties: { account_id: user.id, account_username: 'nelly' },
      });
    }
    expect(discord.rolesOf(GUILD_A, user.id)).toEqual([ROLE_A]);
    expect(discord.rolesOf(GUILD_B, user.id)).toEqual([ROLE_B, ROLE_OTHER].sort());
    // Both steps renewed the short-lived token, one after the other (each refresh token works once).
    expect(discord.refreshes).toBeGreaterThan(refreshesBefore);

    // Another role in the same server: the bot moves it.
    const moved = await callV1(env.stack.baseUrl, token, 'PATCH', `/benefits/${keepId}`, {
      type: 'discord',
      properties: { guild_token: GUILD_A, role_id: ROLE_A2 },
    });
    expect(moved.status).toBe(200);
    await eventually(
      async () => discord.rolesOf(GUILD_A, user.id),
      (roles) => JSON.stringify(roles) === JSON.stringify([ROLE_A2]),
    );

    await refundAll(polar, product.id);
    for (const id of [keepId, kickId]) await settled(token, id, (grant) => grant.is_revoked);
    expect(discord.rolesOf(GUILD_A, user.id)).toEqual([]);
    expect(discord.rolesOf(GUILD_B, user.id)).toBeNull();
    expect(discord.violations).toEqual([]);
  });

  it("the grant PATCH moves a GitHub grant to one of the customer's linked accounts, and refuses any other; unlinking keeps what was granted", async () => {
    const world = await seller();
    const { polar, token, organization } = world;
    github.addRepository('acme', 'lib');
    const benefit = await polar.benefits.create({
      type: 'github_repository',
      description: 'Library access',
      properties: { repositoryOwner: 'acme', repositoryName: 'lib', permission: 'triage' },
    });
    const { product, customer, session } = await boughtBy(world, [benefit.id], 'two@example.test');
    const returnTo = portalPage(organization.slug);
    github.signInAs({ id: 1001, login: 'octo-one' });
    await link(session, 'github', returnTo);
    await buy(polar, product.id, customer.id);
    await settled(token, benefit.id, (grant) => grant.is_granted);
    expect(github.invitations('acme', 'lib')).toEqual([{ login: 'octo-one', permission: 'triage' }]);

    const security = { customerSession: session };
    const [grant] = (await portal().benefitGrants.list(security, {})).result.items;
    const refused = await callV1(
      env.stack.baseUrl,
      session,
      'PATCH',
      `/customer-portal/benefit-grants/${grant!.id}`,
      {
        benefit_type: 'github_repository',
        properties: { account_id: '1002' },
      },
    );
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'properties', 'account_id'] }),
    ]);

    // Linking another account replaces the link; the grant stays where it went until moved.
    github.signInAs({ id: 1002, login: 'octo-two' });
    await link(session, 'github', returnTo);
    expect((await portal().customers.get(security)).oauthAccounts).toEqual({
      github: { accountId: '1002', accountUsername: 'octo-two' },
    });
    const updated = await portal().benefitGrants.update(security, {
      id: grant!.id,
      customerBenefitGrantUpdate: { benefitType: 'github_repository', properties: { accountId: '1002' } },
    });
    expect(updated).toMatchObject({ id: grant!.id, benefitId: benefit.id, customerId: customer.id });
    expect(
      (await settled(token, benefit.id, (each) => each.properties.account_id === '1002' && !each.error))
        .properties,
    ).toMatchObject({ account_username: 'octo-two', repository_name: 'lib', permission: 'triage' });
    expect(github.invitations('acme', 'lib')).toEqual([{ login: 'octo-two', permission: 'triage' }]);

    // Unlinking: the link goes, what was granted stays.
    const unlinked = await fetch(`${env.stack.baseUrl}/v1/customer-portal/oauth-accounts/github`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${session}` },
    });
    expect(unlinked.status).toBe(204);
    expect((await portal().customers.get(security)).oauthAccounts).toEqual({});
    const again = await callV1(
      env.stack.baseUrl,
      session,
      'DELETE',
      '/customer-portal/oauth-accounts/github',
    );
    expect(again).toMatchObject({ status: 404, body: { error: 'ResourceNotFound' } });
    expect((await grantsOf(token, benefit.id))[0]!.is_granted).toBe(true);
    expect(github.violations).toEqual([]);
  });

  it('refuses a state that is missing, forged or expired, a return address elsewhere, and keeps nothing when the customer declines or the code is replayed', async () => {
    const world = await seller();
    const { organization } = world;
    const { customer, session } = await boughtBy(world, [], 'careful@example.test');
    const callback = `${env.stack.baseUrl}/v1/customer-portal/oauth-accounts/callback`;
    const returnTo = portalPage(organization.slug);

    const elsewhere = await authorize(session, 'github', 'https://evil.example/phish');
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.detail).toEqual([expect.objectContaining({ loc: ['query', 'return_to'] })]);
    expect((await authorize(session, 'gitlab', returnTo)).status).toBe(422);
    expect(
      (
        await fetch(
          `${env.stack.baseUrl}/v1/customer-portal/oauth-accounts/authorize?platform=github&return_to=${encodeURIComponent(returnTo)}`,
        )
      ).status,
    ).toBe(401);

    const noState = await fetch(`${callback}?code=abc`, { redirect: 'manual' });
    expect(noState.status).toBe(422);
    expect(await noState.json()).toEqual({
      detail: [expect.objectContaining({ loc: ['query', 'state'] })],
    });
    const state = { customerId: customer.id, platform: 'github' as const, returnTo };
    const forged = signLinkState('another-secret-that-is-long-enough-too', state, Date.now() + 60_000);
    const forgedAnswer = await fetch(`${callback}?code=abc&state=${forged}`, { redirect: 'manual' });
    expect(forgedAnswer.status).toBe(422);
    expect(await forgedAnswer.json()).toEqual({
      detail: [expect.objectContaining({ loc: ['query', 'state'], msg: expect.stringMatching(/not valid/) })],
    });
    const expired = signLinkState(TEST_AUTH_SECRET, state, Date.now() - 1);
    const expiredAnswer = await fetch(`${callback}?code=abc&state=${expired}`, { redirect: 'manual' });
    expect(expiredAnswer.status).toBe(422);
    expect(await expiredAnswer.json()).toEqual({
      detail: [expect.objectContaining({ loc: ['query', 'state'], msg: expect.stringMatching(/expired/) })],
    });

    github.declineNext();
    const declined = await link(session, 'github', returnTo);
    expect(declined).toMatchObject({ status: 302, location: `${returnTo}&oauth_error=access_denied` });
    expect((await portal().customers.get({ customerSession: session })).oauthAccounts).toEqual({});

    github.signInAs({ id: 77, login: 'replayer' });
    const linked = await link(session, 'github', returnTo);
    expect(linked.location).toBe(returnTo);
    const replayed = await fetch(linked.callback, { redirect: 'manual' });
    expect(replayed.headers.get('location')).toBe(`${returnTo}&oauth_error=invalid_code`);
    expect(github.violations).toEqual([]);
  });

  it('GitHub failing: the grant shows the error and is not granted, then is granted once GitHub is back, with one invitation', async () => {
    const world = await seller();
    const { polar, token, organization } = world;
    github.addRepository('acme', 'flaky');
    const benefit = await polar.benefits.create({
      type: 'github_repository',
      description: 'Flaky access',
      properties: { repositoryOwner: 'acme', repositoryName: 'flaky', permission: 'pull' },
    });
    const { product, customer, session } = await boughtBy(world, [benefit.id], 'flaky@example.test');
    github.signInAs({ id: 4242, login: 'flaky-dev' });
    await link(session, 'github', portalPage(organization.slug));
    github.fail(1_000, { status: 502 });
    const before = github.invitationsCreated;
    await buy(polar, product.id, customer.id);
    const failing = await settled(token, benefit.id, (grant) => grant.error !== null);
    expect(failing.is_granted).toBe(false);
    expect(failing.error).toMatchObject({
      type: 'grant_failed',
      message: expect.stringMatching(/^GitHub answered 502 to adding flaky-dev to acme\/flaky/),
    });

    github.recover();
    const granted = await eventually(
      () => grantsOf(token, benefit.id),
      (grants) => grants[0]?.is_granted === true,
      45_000,
    );
    expect(granted[0]!.error).toBeNull();
    expect(github.invitations('acme', 'flaky')).toEqual([{ login: 'flaky-dev', permission: 'pull' }]);
    expect(github.invitationsCreated - before).toBe(1);
    expect(github.violations).toEqual([]);
  });
});

describe('a deployment without GitHub or Discord settings', () => {
  const env = useTestStack();

  it('answers 501 to linking, and a grant to an account linked before says GitHub is not configured', async () => {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const customer = await polar.customers.create({ email: 'unconfigured@example.test' });
    const session = await polar.customerSessions.create({ customerId: customer.id });
    const answer = await callV1(
      env.stack.baseUrl,
      session.token,
      'GET',
      `/customer-portal/oauth-accounts/authorize?platform=github&return_to=${encodeURIComponent(`${env.stack.baseUrl}/portal/${organization.slug}`)}`,
    );
    expect(answer).toMatchObject({
      status: 501,
      body: { error: 'NotImplemented', detail: 'GitHub is not configured on this deployment.' },
    });

    await createLinkedAccount(env.database.db, { id: customer.id, organizationId: organization.id });
    const benefit = await polar.benefits.create({
      type: 'github_repository',
      description: 'Source',
      properties: { repositoryOwner: 'acme', repositoryName: 'tools', permission: 'pull' },
    });
    const product = await polar.products.create({
      name: 'Source',
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 900, priceCurrency: 'usd' }],
    });
    await polar.products.updateBenefits({
      id: product.id,
      productBenefitsUpdate: { benefits: [benefit.id] },
    });
    await buyInSandbox(polar, env.stack.baseUrl, product.id, customer.id);
    const [grant] = await eventually(
      async () =>
        (await callV1(env.stack.baseUrl, token, 'GET', `/benefits/${benefit.id}/grants`)).body
          .items as RawGrant[],
      (grants) => grants[0]?.error != null,
      30_000,
    );
    expect(grant).toMatchObject({
      is_granted: false,
      error: { type: 'grant_failed', message: 'GitHub is not configured on this deployment.' },
    });
  });
});
