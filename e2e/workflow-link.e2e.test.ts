import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import type { Page } from 'playwright-core';
import { buyInSandbox, createAccessToken } from '../test/factories.js';
import { NARROW, hasNoHorizontalOverflow } from './portal-support.js';
import { poll, screenshotPath, signUpSeller, useBrowserStack } from './support.js';

/** A Temporal UI under a path, as behind an operator's reverse proxy; never fetched by the test. */
const TEMPORAL_UI_URL = 'http://operators.example.test/temporal';

// The operator's way from a subscription, a test clock and a benefit's grants to their workflows.
describe('links from the dashboard to workflows in the Temporal UI, in Chromium', () => {
  const env = useBrowserStack('workflow-link', { extraEnv: () => ({ TEMPORAL_UI_URL }) });

  it('shows each entity page’s workflow id, linked into the Temporal UI, without widening a narrow page', async () => {
    const suffix = randomUUID().slice(0, 8);
    const context = await env.browser.newContext({
      extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.91' },
    });
    const seller: Page = await context.newPage();
    const organizationName = `Operators ${suffix}`;
    await signUpSeller(seller, env.baseUrl, { firstName: 'Ona', suffix, organizationName });
    const organizationId = (
      await env.database.db.organization.findFirstOrThrow({ where: { name: organizationName } })
    ).id;
    const polar = new Polar({
      accessToken: await createAccessToken(env.database.db, organizationId),
      serverURL: env.baseUrl,
    });
    const benefit = await polar.benefits.create({
      type: 'custom',
      description: 'Operator note',
      properties: { note: 'Thanks for subscribing.' },
    });
    const plan = await polar.products.create({
      name: `Plan ${suffix}`,
      recurringInterval: 'month',
      prices: [{ amountType: 'fixed', priceAmount: 900, priceCurrency: 'usd' }],
    });
    await polar.products.updateBenefits({ id: plan.id, productBenefitsUpdate: { benefits: [benefit.id] } });
    const customer = await polar.customers.create({ email: `ops-${suffix}@example.test` });
    const paid = await buyInSandbox(polar, env.baseUrl, plan.id, customer.id);
    const subscriptionId = paid.subscriptionId ?? '';
    expect(subscriptionId).not.toBe('');

    await seller.goto(`${env.baseUrl}/dashboard/subscriptions/${subscriptionId}`);
    const link = seller.getByTestId('workflow-link');
    await link.waitFor();
    expect(await link.textContent()).toBe(`Workflow: subscription:${subscriptionId}`);
    expect(await link.getByRole('link').getAttribute('href')).toBe(
      `${TEMPORAL_UI_URL}/namespaces/default/workflows/subscription%3A${subscriptionId}`,
    );
    await seller.setViewportSize(NARROW);
    expect(await hasNoHorizontalOverflow(seller)).toBe(true);
    await seller.screenshot({ path: screenshotPath('workflow-link-subscription-narrow'), fullPage: true });

    // The grant's row is written by the grant dispatcher a moment after the purchase (longer on a
    // busy machine); the benefit page reads its grants when it opens.
    await poll(
      'the grant row',
      async () =>
        (await env.database.db.benefitGrant.findFirst({ where: { benefitId: benefit.id } })) ?? undefined,
      180_000,
    );
    await seller.goto(`${env.baseUrl}/dashboard/benefits/${benefit.id}`);
    const grantLink = seller.getByTestId('benefit-grant-row').getByTestId('workflow-link');
    await grantLink.first().waitFor({ timeout: 60_000 });
    expect(await grantLink.first().getByRole('link').getAttribute('href')).toBe(
      `${TEMPORAL_UI_URL}/namespaces/default/workflows/${encodeURIComponent(`benefit-grant:${customer.id}:${benefit.id}`)}`,
    );
    expect(await hasNoHorizontalOverflow(seller)).toBe(true);
    await seller.screenshot({ path: screenshotPath('workflow-link-grants-narrow'), fullPage: true });
    await context.close();
  });
});
