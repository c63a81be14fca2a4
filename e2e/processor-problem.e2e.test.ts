import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { addMember } from '../test/factories.js';
import { recordPolicyViolations, screenshotPath, signUpSeller, useBrowserStack } from './support.js';

describe("the payment processor's configuration problem in the dashboard (Chromium)", () => {
  const env = useBrowserStack('processor-problem');
  const policyViolations: string[] = [];
  afterAll(() => expect(policyViolations).toEqual([]));

  let clients = 0;
  /** A browser of its own, from an address of its own (Better Auth limits sign-ups per address). */
  async function newPage(viewport = { width: 1280, height: 800 }): Promise<Page> {
    clients += 1;
    const context = await env.browser.newContext({
      viewport,
      extraHTTPHeaders: { 'x-forwarded-for': `198.51.100.${clients}` },
    });
    recordPolicyViolations(context, policyViolations);
    return context.newPage();
  }

  const banner = (page: Page) => page.getByTestId('processor-problem');

  it('shows owners a banner while the processor refuses the key, never members, and none once it is fixed', async () => {
    const suffix = randomUUID().slice(0, 8);
    const owner = await newPage();
    const organizationName = `Held back ${suffix}`;
    await signUpSeller(owner, env.baseUrl, { firstName: 'Olga', suffix, organizationName });
    const organization = await env.database.db.organization.findFirstOrThrow({
      where: { name: organizationName },
    });
    const member = await newPage();
    await signUpSeller(member, env.baseUrl, {
      firstName: 'Milo',
      suffix,
      organizationName: `Milo's own ${suffix}`,
    });
    const milo = await env.database.db.user.findFirstOrThrow({ where: { username: `milo_${suffix}` } });
    await addMember(env.database.db, organization.id, milo.id, 'member');

    // As a workflow records it when Stripe refuses the key (workflows/retry.ts); a key excerpt
    // without spaces must wrap, not widen the page.
    const message = `Invalid API Key provided: sk_live_${'x'.repeat(60)}`;
    await env.database.db.processorConfigurationProblem.create({
      data: {
        organizationId: organization.id,
        processor: 'stripe',
        code: 'StripeAuthenticationError',
        message,
        since: new Date(),
        lastSeenAt: new Date(),
      },
    });

    // At a phone's width: the banner's long words must wrap there too.
    await owner.setViewportSize({ width: 390, height: 844 });
    await owner.reload();
    await banner(owner).waitFor();
    expect(await banner(owner).textContent()).toContain(
      `Stripe answered “${message}” (StripeAuthenticationError)`,
    );
    expect(await owner.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await owner.screenshot({ path: screenshotPath('processor-problem-owner-390'), fullPage: true });

    await member.reload();
    await member.getByLabel('Active organization').selectOption(organization.id);
    await member.getByRole('heading', { level: 1, name: 'Overview', exact: true }).waitFor();
    // The member's roles have loaded once the switcher shows the organization; give the page the
    // time the owner's banner took and check it never appears.
    await member.waitForLoadState('networkidle');
    expect(await banner(member).count()).toBe(0);

    await env.database.db.processorConfigurationProblem.delete({
      where: { organizationId: organization.id },
    });
    await owner.reload();
    await owner.getByRole('heading', { level: 1, name: 'Overview', exact: true }).waitFor();
    await owner.waitForLoadState('networkidle');
    expect(await banner(owner).count()).toBe(0);
  });
});
