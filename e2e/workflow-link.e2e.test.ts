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

  it('shows platform admins stuck work with its workflow and dashboard links, fitting 390 px, and no one else', async () => {
    const suffix = randomUUID().slice(0, 8);
    const context = await env.browser.newContext({
      extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.92' },
    });
    const operator: Page = await context.newPage();
    // A long name with no spaces must be cut, not widen the page.
    const organizationName = `Stuck${'e'.repeat(70)}${suffix}`;
    await signUpSeller(operator, env.baseUrl, { firstName: 'Opal', suffix, organizationName });
    const organization = await env.database.db.organization.findFirstOrThrow({
      where: { name: organizationName },
    });
    const polar = new Polar({
      accessToken: await createAccessToken(env.database.db, organization.id),
      serverURL: env.baseUrl,
    });
    const product = await polar.products.create({
      name: `Atlas ${suffix}`,
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 900, priceCurrency: 'usd' }],
    });
    const checkout = await polar.checkouts.create({ products: [product.id] });
    // As a checkout whose charge never came back: confirmed two hours ago, neither paid nor failed.
    await env.database.db.checkout.update({
      where: { id: checkout.id },
      data: { status: 'confirmed', modifiedAt: new Date(Date.now() - 2 * 60 * 60 * 1000) },
    });

    // A seller who is not a platform admin is told the page is not theirs, and has no link to it.
    await operator.goto(`${env.baseUrl}/admin/stuck-work`);
    await operator.getByRole('alert').filter({ hasText: 'You are not allowed here' }).waitFor();
    expect(await operator.getByRole('link', { name: 'Stuck work' }).count()).toBe(0);

    const operatorUser = await env.database.db.user.findFirstOrThrow({
      where: { username: `opal_${suffix}` },
    });
    await env.database.db.user.update({ where: { id: operatorUser.id }, data: { role: 'admin' } });
    await operator.goto(`${env.baseUrl}/dashboard`);
    await operator.getByRole('link', { name: 'Stuck work' }).click();
    await operator.getByRole('heading', { level: 1, name: 'Stuck work' }).waitFor();
    const card = operator.getByTestId('stuck-kind-checkout_unsettled');
    const entry = card.getByTestId('stuck-item').filter({ hasText: organizationName });
    await entry.waitFor();
    expect(await entry.textContent()).toContain('Checkout of $9.00 confirmed, not charged');
    expect(await card.textContent()).toContain('the charge’s outcome never reached Tollgate');
    expect(await entry.getByTestId('workflow-link').getByRole('link').getAttribute('href')).toBe(
      `${TEMPORAL_UI_URL}/namespaces/default/workflows/${encodeURIComponent(`checkout:${checkout.id}`)}`,
    );
    expect(
      await entry.getByRole('link', { name: 'Open in the organization’s dashboard' }).getAttribute('href'),
    ).toBe(`${env.baseUrl}/dashboard/checkouts`);
    expect(await operator.getByTestId('stuck-count-checkout_unsettled').textContent()).toMatch(
      /^1 checkout confirmed, not charged \(confirmed more than 60 minutes ago\)$/,
    );
    await operator.setViewportSize({ width: 390, height: 844 });
    expect(await hasNoHorizontalOverflow(operator)).toBe(true);
    await operator.screenshot({ path: screenshotPath('stuck-work-390'), fullPage: true });
    await context.close();
  });
});
