import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { totpCode } from '../test/totp.js';
import { poll, screenshotPath, useBrowserStack } from './support.js';

describe('identity in Chromium', () => {
  const env = useBrowserStack('identity');

  const password = 'correct horse battery staple';

  async function signUp(page: Page, person: { name: string; email: string; username: string }) {
    await page.goto(`${env.baseUrl}/sign-up`);
    await page.getByLabel('Name', { exact: true }).fill(person.name);
    await page.getByLabel('Email', { exact: true }).fill(person.email);
    await page.getByLabel('Username', { exact: true }).fill(person.username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview', exact: true }).waitFor();
  }

  /** The members and invitations cards have a page of their own, under Settings in the sidebar. */
  async function openMembers(page: Page) {
    await page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'Members', exact: true })
      .click();
    await page.getByRole('region', { name: 'Members' }).waitFor();
  }

  it('signs up, creates an organization, invites someone who accepts in another browser, and shows them as a member', async () => {
    const suffix = randomUUID().slice(0, 8);
    const owner = await (await env.browser.newContext()).newPage();
    await signUp(owner, {
      name: 'Olivia Owner',
      email: `olivia-${suffix}@example.test`,
      username: `olivia_${suffix}`,
    });
    await owner.getByLabel('Organization name', { exact: true }).fill(`Widgets ${suffix}`);
    await owner.getByRole('button', { name: 'Create organization' }).click();
    await openMembers(owner);
    await owner.getByTestId('member-row').filter({ hasText: 'Olivia Owner' }).waitFor();

    const inviteeEmail = `ivan-${suffix}@example.test`;
    await owner.getByLabel('Email to invite', { exact: true }).fill(inviteeEmail);
    await owner.getByLabel('Role', { exact: true }).selectOption('admin');
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    await owner.getByTestId('pending-invitation').filter({ hasText: inviteeEmail }).waitFor();

    // The link the invitee finds in the invitation email (kept in the dev mailbox).
    const email = await poll('the invitation email', () =>
      env.database.db.emailMessage
        .findFirst({ where: { toAddress: inviteeEmail, subject: { contains: 'invited you' } } })
        .then((row) => row ?? undefined),
    );
    const link = /(http:\/\/localhost:\d+\/invitations\/[0-9a-f-]+)/.exec(email.text)?.[1];
    expect(link).toBeDefined();

    const invitee = await (await env.browser.newContext()).newPage();
    await signUp(invitee, { name: 'Ivan Invitee', email: inviteeEmail, username: `ivan_${suffix}` });
    await invitee.goto(link ?? '');
    await invitee.getByText(`Widgets ${suffix}`).waitFor();
    await invitee.getByRole('button', { name: 'Accept invitation' }).click();
    await invitee.getByRole('heading', { level: 1, name: 'Overview', exact: true }).waitFor();

    await owner.reload();
    const inviteeRow = owner.getByTestId('member-row').filter({ hasText: inviteeEmail });
    await inviteeRow.waitFor();
    expect(await inviteeRow.textContent()).toContain('admin');
    await owner.screenshot({ path: screenshotPath('members'), fullPage: true });
  });

  it('resends an invitation; the invitee finds it on the dashboard when they sign in, and joins from there', async () => {
    const suffix = randomUUID().slice(0, 8);
    // Addresses of their own: the other tests' sign-ups count against the same per-address limit.
    const fromAddress = (last: number) =>
      env.browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': `198.51.100.${last}` } });
    const owner = await (await fromAddress(21)).newPage();
    await signUp(owner, {
      name: 'Rita Owner',
      email: `rita-${suffix}@example.test`,
      username: `rita_${suffix}`,
    });
    await owner.getByLabel('Organization name', { exact: true }).fill(`Gadgets ${suffix}`);
    await owner.getByRole('button', { name: 'Create organization' }).click();
    await openMembers(owner);
    await owner.getByTestId('member-row').filter({ hasText: 'Rita Owner' }).waitFor();

    const inviteeEmail = `nina-${suffix}@example.test`;
    await owner.getByLabel('Email to invite', { exact: true }).fill(inviteeEmail);
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    const pending = owner.getByTestId('pending-invitation').filter({ hasText: inviteeEmail });
    await pending.getByRole('button', { name: 'Resend' }).click();
    await owner.getByText(`We sent the invitation to ${inviteeEmail} again.`).waitFor();
    await poll('both invitation emails', async () => {
      const count = await env.database.db.emailMessage.count({
        where: { toAddress: inviteeEmail, subject: { contains: 'invited you' } },
      });
      return count === 2 ? count : undefined;
    });

    const invitee = await (await fromAddress(22)).newPage();
    await signUp(invitee, { name: 'Nina Invitee', email: inviteeEmail, username: `nina_${suffix}` });
    // Better Auth lists a user's invitations once their address is verified (tested in dashboard.e2e).
    await env.database.db.user.update({ where: { email: inviteeEmail }, data: { emailVerified: true } });
    await invitee.reload();
    const invitation = invitee.getByTestId('my-invitation');
    await invitation.filter({ hasText: `Gadgets ${suffix}` }).waitFor();
    expect(await invitation.textContent()).toContain('invited you as Member');
    await invitee.getByRole('button', { name: `Join Gadgets ${suffix}` }).click();
    await invitee.getByTestId('my-invitations').waitFor({ state: 'detached' });

    await owner.reload();
    await owner.getByTestId('member-row').filter({ hasText: inviteeEmail }).waitFor();
    expect(await owner.getByTestId('pending-invitation').count()).toBe(0);
  });

  it('turns on two-factor authentication, then signs in with a TOTP code', async () => {
    const suffix = randomUUID().slice(0, 8);
    const page = await (await env.browser.newContext()).newPage();
    const email = `tess-${suffix}@example.test`;
    await signUp(page, { name: 'Tess Totp', email, username: `tess_${suffix}` });

    await page.getByRole('link', { name: 'Security' }).click();
    await page.getByLabel('Current password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    await page.getByAltText('QR code for your authenticator app').waitFor();
    const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
    const uri = `otpauth://totp/Tollgate?secret=${secret}`;
    await page.getByLabel('Code from the app', { exact: true }).fill(totpCode(uri));
    await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
    await page.getByTestId('two-factor-status').waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Email or username', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Two-factor verification' }).waitFor();
    await page.getByLabel('Code from your authenticator app', { exact: true }).fill(totpCode(uri));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview', exact: true }).waitFor();
    expect(await page.getByText(`Signed in as ${email}`).isVisible()).toBe(true);
  });
});
