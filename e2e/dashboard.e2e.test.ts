import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { addMember } from '../test/factories.js';
import { poll, recordPolicyViolations, screenshotPath, useBrowserStack } from './support.js';

// One stack for every dashboard page: starting it is most of the run time.
describe('seller dashboard in Chromium', () => {
  const env = useBrowserStack('dashboard');
  // Every page works under its Content-Security-Policy: nothing it needs was refused.
  const policyViolations: string[] = [];
  afterAll(() => expect(policyViolations).toEqual([]));
  const password = 'correct horse battery staple';

  type Person = { name: string; email: string; username: string };

  function person(first: string): Person {
    const suffix = randomUUID().slice(0, 8);
    const lower = first.toLowerCase();
    return {
      name: `${first} ${suffix}`,
      email: `${lower}-${suffix}@example.test`,
      username: `${lower}_${suffix}`,
    };
  }

  let clients = 0;
  /**
   * A browser of its own, from an address of its own: Better Auth allows three sign-ups or sign-ins
   * per address until ten quiet seconds pass, and the stack believes X-Forwarded-For from loopback
   * (TRUST_PROXY), as it would from a proxy in front of it.
   */
  async function newPage(options: BrowserContextOptions = {}): Promise<Page> {
    clients += 1;
    const context = await env.browser.newContext({
      ...options,
      extraHTTPHeaders: { 'x-forwarded-for': `203.0.113.${clients}` },
    });
    recordPolicyViolations(context, policyViolations);
    return context.newPage();
  }

  async function signUp(page: Page, who: Person) {
    await page.goto(`${env.baseUrl}/sign-up`);
    await page.getByLabel('Name', { exact: true }).fill(who.name);
    await page.getByLabel('Email', { exact: true }).fill(who.email);
    await page.getByLabel('Username', { exact: true }).fill(who.username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview', exact: true }).waitFor();
  }

  async function signIn(page: Page, identifier: string, withPassword = password) {
    await page.goto(`${env.baseUrl}/sign-in`);
    await page.getByLabel('Email or username', { exact: true }).fill(identifier);
    await page.getByLabel('Password', { exact: true }).fill(withPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  async function createOrganization(page: Page, name: string) {
    await page.getByLabel('Organization name', { exact: true }).fill(name);
    await page.getByRole('button', { name: 'Create organization' }).click();
    // The sidebar's navigation shows once the new organization is the active one.
    await page.getByRole('navigation', { name: 'Dashboard' }).waitFor();
    return env.database.db.organization.findFirstOrThrow({ where: { name } });
  }

  /** The members card has a page of its own, under Settings in the sidebar. */
  async function openMembers(page: Page) {
    await page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'Members', exact: true })
      .click();
    await page.getByRole('region', { name: 'Members' }).waitFor();
  }

  /** Someone who only needs to exist (as a member to manage), never to sign in. */
  function createUser(who: Person) {
    return env.database.db.user.create({ data: { name: who.name, email: who.email } });
  }

  async function confirm(page: Page, label: string) {
    await page.getByRole('button', { name: label, exact: true }).click();
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  }

  const alert = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

  it('changes a member role, removes a member, offers the only owner no way out, and lets a member leave', async () => {
    const olivia = person('Olivia');
    const owner = await newPage();
    await signUp(owner, olivia);
    const organization = await createOrganization(owner, `Members ${olivia.username}`);

    const max = person('Max');
    const maxUser = await createUser(max);
    await addMember(env.database.db, organization.id, maxUser.id, 'member');
    const mia = person('Mia');
    const memberPage = await newPage();
    await signUp(memberPage, mia);
    const miaUser = await env.database.db.user.findUniqueOrThrow({ where: { email: mia.email } });
    await addMember(env.database.db, organization.id, miaUser.id, 'member');

    await owner.reload();
    await openMembers(owner);
    const maxRow = owner.getByTestId('member-row').filter({ hasText: max.email });
    await owner.getByLabel(`Change role of ${max.email}`, { exact: true }).selectOption('admin');
    await maxRow.getByTestId('member-role').getByText('admin', { exact: true }).waitFor();
    const promoted = await env.database.db.member.findFirstOrThrow({ where: { userId: maxUser.id } });
    expect(promoted.role).toBe('admin');

    await confirm(owner, `Remove ${max.email}`);
    await maxRow.waitFor({ state: 'detached' });
    expect(await env.database.db.member.count({ where: { userId: maxUser.id } })).toBe(0);

    // The only owner is not offered to leave (Better Auth would refuse it): a note says why.
    await owner.getByTestId('sole-owner-note').waitFor();
    expect(await owner.getByRole('button', { name: 'Leave organization', exact: true }).count()).toBe(0);
    expect(await env.database.db.member.count({ where: { organizationId: organization.id } })).toBe(2);

    await memberPage.reload();
    await memberPage.getByLabel('Active organization').selectOption(organization.id);
    await openMembers(memberPage);
    await memberPage.getByTestId('member-row').filter({ hasText: olivia.email }).waitFor();
    await confirm(memberPage, 'Leave organization');
    await memberPage.getByTestId('no-active-organization').waitFor();
    await memberPage.getByRole('option', { name: organization.name }).waitFor({ state: 'detached' });
    expect(await env.database.db.member.count({ where: { userId: miaUser.id } })).toBe(0);

    await owner.reload();
    await owner.getByTestId('member-row').first().waitFor();
    expect(await owner.getByTestId('member-row').allTextContents()).toEqual([
      expect.stringContaining(olivia.email),
    ]);
  });

  it('creates, renames and removes teams, manages team members, and refuses removing the last team', async () => {
    const tess = person('Tess');
    const page = await newPage();
    await signUp(page, tess);
    const organization = await createOrganization(page, `Teams ${tess.username}`);
    const mark = person('Mark');
    const markUser = await createUser(mark);
    await addMember(env.database.db, organization.id, markUser.id, 'member');

    await page.reload();
    await page.getByRole('link', { name: 'Teams' }).click();
    const teamRows = page.getByTestId('team-row');
    await teamRows.filter({ hasText: organization.name }).waitFor();

    await page.getByLabel('Team name', { exact: true }).fill('Design');
    await page.getByRole('button', { name: 'Create team' }).click();
    await teamRows.filter({ hasText: 'Design' }).waitFor();

    await page.getByRole('button', { name: 'Rename Design' }).click();
    await page.getByLabel('New name for Design').fill('Product design');
    await page.getByRole('button', { name: 'Save name' }).click();
    await teamRows.filter({ hasText: 'Product design' }).waitFor();
    const team = await env.database.db.team.findFirstOrThrow({
      where: { organizationId: organization.id, name: 'Product design' },
    });

    await page.getByRole('button', { name: 'Members of Product design' }).click();
    const teamCard = page.getByRole('region', { name: 'Members of Product design' });
    // Better Auth lists a team's members only to its members, so the owner joins first.
    await teamCard.getByText('Only members of a team can see who is in it').waitFor();
    await teamCard.getByLabel('Member to add').selectOption({ label: `${tess.name} (${tess.email})` });
    await teamCard.getByRole('button', { name: 'Add to team' }).click();
    await teamCard.getByTestId('team-member').filter({ hasText: tess.email }).waitFor();
    await teamCard.getByLabel('Member to add').selectOption({ label: `${mark.name} (${mark.email})` });
    await teamCard.getByRole('button', { name: 'Add to team' }).click();
    const markInTeam = teamCard.getByTestId('team-member').filter({ hasText: mark.email });
    await markInTeam.waitFor();
    expect(await env.database.db.teamMember.count({ where: { teamId: team.id } })).toBe(2);
    await teamCard.getByRole('button', { name: `Remove ${mark.email} from Product design` }).click();
    await markInTeam.waitFor({ state: 'detached' });
    expect(await env.database.db.teamMember.count({ where: { teamId: team.id, userId: markUser.id } })).toBe(
      0,
    );

    await confirm(page, 'Remove Product design');
    await teamRows.filter({ hasText: 'Product design' }).waitFor({ state: 'detached' });
    expect(await env.database.db.team.count({ where: { id: team.id } })).toBe(0);

    // The default team is this session's active team, which Better Auth refuses to remove before
    // it looks at the count; a fresh session has no active team.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
    await signIn(page, tess.email);
    await page.getByRole('heading', { level: 1, name: 'Overview', exact: true }).waitFor();
    await page.getByLabel('Active organization').selectOption(organization.id);
    await page.getByRole('link', { name: 'Teams' }).click();
    await confirm(page, `Remove ${organization.name}`);
    await alert(page, 'Unable to remove last team').waitFor();
    expect(await env.database.db.team.count({ where: { organizationId: organization.id } })).toBe(1);
  });

  it('saves the seller profile, shows validation errors from the API, and deletes the organization', async () => {
    const sam = person('Sam');
    const page = await newPage();
    await signUp(page, sam);
    const organization = await createOrganization(page, `Settings ${sam.username}`);
    await page.getByRole('link', { name: 'Organization', exact: true }).click();
    const name = page.getByLabel('Name', { exact: true });
    await poll('the profile form', async () =>
      (await name.inputValue()) === organization.name ? true : undefined,
    );

    const renamed = `Renamed ${sam.username}`;
    const slug = `renamed-${sam.username.replace('_', '-')}`;
    await name.fill(renamed);
    await page.getByLabel('Slug', { exact: true }).fill(slug);
    await page.getByLabel('Support email', { exact: true }).fill('billing@example.test');
    await page.getByLabel('Website', { exact: true }).fill('https://shop.example.test');
    await page.getByRole('button', { name: 'Add social link' }).click();
    await page.getByLabel('Platform 1', { exact: true }).selectOption('github');
    await page.getByLabel('Link 1', { exact: true }).fill('https://github.com/example');
    await page.getByLabel('Usage-based billing').check();
    await page.getByLabel('Customers may hold several subscriptions').check();
    await page.getByLabel('When a subscription changes').selectOption('invoice');
    await page.getByLabel('Customers may change their subscription').uncheck();
    // The postal address the invoices print: a US one asks for its state from a list.
    await page.getByLabel('Country', { exact: true }).selectOption('US');
    await page.getByLabel('Address line 1', { exact: true }).fill('1 Main St');
    await page.getByLabel('City', { exact: true }).fill('Springfield');
    await page.getByLabel('Postal code', { exact: true }).fill('62701');
    await page.getByLabel('State', { exact: true }).selectOption('IL');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();

    await page.reload();
    await poll('the saved profile', async () => ((await name.inputValue()) === renamed ? true : undefined));
    expect(await page.getByLabel('Slug', { exact: true }).inputValue()).toBe(slug);
    expect(await page.getByLabel('Support email', { exact: true }).inputValue()).toBe('billing@example.test');
    expect(await page.getByLabel('Website', { exact: true }).inputValue()).toBe('https://shop.example.test');
    expect(await page.getByLabel('Platform 1', { exact: true }).inputValue()).toBe('github');
    expect(await page.getByLabel('Link 1', { exact: true }).inputValue()).toBe('https://github.com/example');
    expect(await page.getByLabel('Usage-based billing').isChecked()).toBe(true);
    expect(await page.getByLabel('Issue funding').isChecked()).toBe(false);
    expect(await page.getByLabel('When a subscription changes').inputValue()).toBe('invoice');
    expect(await page.getByRole('option', { name: renamed }).count()).toBe(1);
    const stored = await env.database.db.organization.findUniqueOrThrow({ where: { id: organization.id } });
    expect(stored).toMatchObject({
      name: renamed,
      slug,
      email: 'billing@example.test',
      website: 'https://shop.example.test',
      usageBasedBillingEnabled: true,
      allowMultipleSubscriptions: true,
      allowCustomerUpdates: false,
      prorationBehavior: 'invoice',
      address: expect.objectContaining({ country: 'US', line1: '1 Main St', state: 'US-IL' }),
    });
    expect(await page.getByLabel('State', { exact: true }).inputValue()).toBe('IL');

    await page.getByLabel('Website', { exact: true }).fill('not a url');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page
      .locator('.field-error')
      .filter({ hasText: 'Enter a full web address, starting with https://.' })
      .waitFor();
    const unchanged = await env.database.db.organization.findUniqueOrThrow({
      where: { id: organization.id },
    });
    expect(unchanged.website).toBe('https://shop.example.test');
    await page.screenshot({ path: screenshotPath('organization-settings'), fullPage: true });

    await confirm(page, 'Delete organization');
    await page.getByTestId('no-active-organization').waitFor();
    expect(await env.database.db.organization.count({ where: { id: organization.id } })).toBe(0);
  });

  it('creates an access token shown once, which works against /v1 until it is revoked', async () => {
    const tom = person('Tom');
    const page = await newPage({ permissions: ['clipboard-read', 'clipboard-write'] });
    await signUp(page, tom);
    const organization = await createOrganization(page, `Tokens ${tom.username}`);
    await page.getByRole('link', { name: 'Access tokens' }).click();
    await page.getByText('No access tokens yet.').waitFor();

    const comment = `CI ${tom.username}`;
    await page.getByLabel('Comment', { exact: true }).fill(comment);
    await page.getByText('Scopes', { exact: true }).click();
    await page
      .getByRole('row', { name: /^organizations/ })
      .getByLabel('read')
      .check();
    await page.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByTestId('new-access-token');
    const token = (await shown.textContent()) ?? '';
    expect(token).toMatch(/^tollgate_oat_/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(token);

    const listOrganizations = () =>
      fetch(`${env.baseUrl}/v1/organizations/`, { headers: { authorization: `Bearer ${token}` } });
    const listed = await listOrganizations();
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { items: { id: string }[] }).items.map((item) => item.id)).toEqual([
      organization.id,
    ]);
    const stored = await env.database.db.organizationAccessToken.findFirstOrThrow({
      where: { organizationId: organization.id },
    });
    expect(stored.scopes).toEqual(['organizations:read']);

    await page.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
    await page.reload();
    const row = page.getByTestId('access-token-row').filter({ hasText: comment });
    await row.waitFor();
    expect(await page.content()).not.toContain(token);
    expect(await row.locator('td').nth(2).textContent()).not.toBe('never');
    expect(await row.locator('td').nth(3).textContent()).not.toBe('never');

    await confirm(page, `Revoke ${comment}`);
    await row.waitFor({ state: 'detached' });
    expect((await listOrganizations()).status).toBe(401);
  });

  it('lets an admin find users, set roles, ban and unban, end sessions, and impersonate', async () => {
    const ada = person('Ada');
    const admin = await newPage();
    await signUp(admin, ada);
    await admin.goto(`${env.baseUrl}/admin/users`);
    await alert(admin, 'You are not allowed here').waitFor();
    expect(await admin.getByRole('link', { name: 'Users', exact: true }).count()).toBe(0);

    const bob = person('Bob');
    const bobPage = await newPage();
    await signUp(bobPage, bob);
    await env.database.db.user.update({ where: { email: ada.email }, data: { role: 'admin' } });
    await admin.goto(`${env.baseUrl}/dashboard`);
    await admin.getByRole('link', { name: 'Users', exact: true }).click();
    await admin.getByRole('heading', { name: 'Users', exact: true }).waitFor();

    await admin.getByLabel('Search users').fill(bob.email);
    await admin.getByRole('button', { name: 'Search' }).click();
    await admin.getByTestId('user-row').filter({ hasText: bob.email }).waitFor();
    await poll('only Bob listed', async () =>
      (await admin.getByTestId('user-row').count()) === 1 ? true : undefined,
    );
    await admin.getByRole('link', { name: bob.name }).click();
    await admin.getByRole('heading', { name: bob.name }).waitFor();
    await admin.getByTestId('session-row').first().waitFor();

    const bobUser = () => env.database.db.user.findUniqueOrThrow({ where: { email: bob.email } });
    const role = admin.getByRole('combobox', { name: 'Role', exact: true });
    await role.selectOption('admin');
    await admin.getByRole('button', { name: 'Save role' }).click();
    await poll('Bob to be an admin', async () => ((await bobUser()).role === 'admin' ? true : undefined));
    await role.selectOption('user');
    await admin.getByRole('button', { name: 'Save role' }).click();
    await poll('Bob to be a user again', async () => ((await bobUser()).role === 'user' ? true : undefined));

    await admin.getByLabel('Reason', { exact: true }).fill('Spam');
    await admin.getByRole('button', { name: 'Ban user', exact: true }).click();
    await admin.getByTestId('ban-status').filter({ hasText: 'Banned: Spam' }).waitFor();
    expect((await bobUser()).banned).toBe(true);
    expect(await env.database.db.session.count({ where: { user: { email: bob.email } } })).toBe(0);
    await bobPage.reload();
    await bobPage.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
    await signIn(bobPage, bob.email);
    await alert(bobPage, 'banned').waitFor();

    await admin.getByRole('button', { name: 'Unban user', exact: true }).click();
    await admin.getByRole('button', { name: 'Ban user', exact: true }).waitFor();
    expect((await bobUser()).banned).toBe(false);
    await signIn(bobPage, bob.email);
    await bobPage.getByRole('heading', { level: 1, name: 'Overview', exact: true }).waitFor();

    await admin.reload();
    await admin.getByTestId('session-row').first().waitFor();
    await confirm(admin, 'Revoke all sessions');
    await admin.getByText('No active sessions.').waitFor();
    await bobPage.reload();
    await bobPage.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();

    await admin.getByRole('button', { name: `Impersonate ${bob.name}` }).click();
    await admin.getByText(`You are impersonating ${bob.name} (${bob.email})`).waitFor();
    await admin.getByText(`Signed in as ${bob.email}`).waitFor();
    await admin.getByRole('button', { name: 'Stop impersonating' }).click();
    await admin.getByRole('heading', { name: 'Users', exact: true }).waitFor();
    expect(await admin.getByTestId('impersonation-banner').count()).toBe(0);
    await admin.goto(`${env.baseUrl}/dashboard`);
    await admin.getByText(`Signed in as ${ada.email}`).waitFor();
  });

  it('keeps the verification email in the dev mailbox, whose link verifies the address', async () => {
    const vera = person('Vera');
    const page = await newPage();
    await signUp(page, vera);
    const notice = page.getByTestId('verify-email-notice');
    await notice.waitFor();
    await page.getByRole('button', { name: 'Resend verification email' }).click();
    await page.getByText(`We sent a new verification link to ${vera.email}.`).waitFor();

    await page.getByRole('link', { name: 'Mailbox' }).click();
    await page.getByRole('heading', { name: 'Dev mailbox' }).waitFor();
    const rows = page.getByTestId('mailbox-row');
    await rows.first().waitFor();
    // Other tests' users have emails in the same table; a non-admin sees only their own.
    for (const text of await rows.allTextContents()) expect(text).toContain(vera.email);
    await page.getByRole('link', { name: 'Verify your email address' }).first().click();
    const link = page
      .getByTestId('message-text')
      .getByRole('link', { name: /\/api\/auth\/verify-email\?token=/ });
    await link.click();
    await page.getByText(`Your email address ${vera.email} is verified.`).waitFor();
    expect(
      (await env.database.db.user.findUniqueOrThrow({ where: { email: vera.email } })).emailVerified,
    ).toBe(true);
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await page.getByText(`Signed in as ${vera.email}`).waitFor();
    expect(await notice.count()).toBe(0);

    await page.goto(`${env.baseUrl}/api/auth/verify-email?token=forged&callbackURL=%2Fverify-email`);
    await alert(page, 'This verification link is invalid. (error code: INVALID_TOKEN)').waitFor();
  });

  it('resets a forgotten password through the emailed link', async () => {
    const rita = person('Rita');
    const page = await newPage();
    await signUp(page, rita);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Email', { exact: true }).fill(rita.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText(`If an account uses ${rita.email}, we sent it a reset link.`).waitFor();

    // Signed out, Rita cannot open the mailbox; an administrator reads everyone's.
    const ada = person('Ada');
    const admin = await newPage();
    await signUp(admin, ada);
    await env.database.db.user.update({ where: { email: ada.email }, data: { role: 'admin' } });
    await admin.goto(`${env.baseUrl}/dev/mailbox`);
    const resetRow = admin
      .getByTestId('mailbox-row')
      .filter({ hasText: rita.email })
      .filter({ hasText: 'Reset your Tollgate password' });
    await resetRow.getByRole('link').click();
    const link = await admin
      .getByTestId('message-text')
      .getByRole('link', { name: /\/api\/auth\/reset-password\// })
      .getAttribute('href');
    expect(link).toContain(env.baseUrl);

    await page.goto(link ?? '');
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    expect(new URL(page.url()).searchParams.get('token')).toBeTruthy();
    const newPassword = 'a brand new passphrase';
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Repeat the new password', { exact: true }).fill('something else entirely');
    await page.getByRole('button', { name: 'Change password' }).click();
    await alert(page, 'The two passwords differ.').waitFor();
    await page.getByLabel('Repeat the new password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password has been changed.').waitFor();

    await page.getByRole('link', { name: 'Sign in with your new password' }).click();
    await page.getByLabel('Email or username', { exact: true }).fill(rita.email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await alert(page, 'Invalid email or password').waitFor();
    await page.getByLabel('Password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview', exact: true }).waitFor();

    // The same link again: its token was used up.
    await page.goto(link ?? '');
    await alert(page, 'This reset link is invalid or has expired (INVALID_TOKEN)').waitFor();
  });
});
