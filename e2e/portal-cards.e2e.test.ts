import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import type { Locator, Page } from 'playwright-core';
import { eventually } from '../test/eventually.js';
import { buyInSandbox, createAccessToken, createOrganization } from '../test/factories.js';
import {
  buyerContexts,
  focusedLabel,
  focusedTextOnceOn,
  focusIsInOpenDialog,
  hasNoHorizontalOverflow,
  NARROW,
  openPortalSection,
  portalNav,
} from './portal-support.js';
import { poll, screenshotPath, useBrowserStack } from './support.js';

/** Saving a card, and a renewal charged by its workflow, take seconds; a clock's advance longer. */
const WORKFLOW_TIMEOUT_MS = 90_000;

// The buyer's cards in the portal: the card a subscription saved, adding (and a decline), the
// default, deleting (and the refusal for a plan's only card); a renewal that failed, "Retry now",
// and a new default card paying it.
describe('saved cards and failed payments in the customer portal, in Chromium', () => {
  const env = useBrowserStack('portal-cards');
  const policyViolations: string[] = [];
  afterAll(() => expect(policyViolations).toEqual([]));
  const buyerContext = buyerContexts(() => env.browser, policyViolations, 60);

  const suffix = randomUUID().slice(0, 8);
  let polar: Polar;
  let token = '';
  let planId = '';

  async function seller() {
    const organization = await createOrganization(env.database.db, { name: `Forest Radio ${suffix}` });
    token = await createAccessToken(env.database.db, organization.id);
    polar = new Polar({ accessToken: token, serverURL: env.baseUrl });
    planId = (
      await polar.products.create({
        name: `Listener ${suffix}`,
        recurringInterval: 'month',
        prices: [{ amountType: 'fixed', priceAmount: 1500, priceCurrency: 'usd' }],
      })
    ).id;
  }

  async function portalUrl(customerId: string) {
    return (await polar.customerSessions.create({ customerId })).customerPortalUrl;
  }

  const cardOfSubscription = async (id: string) =>
    (await env.database.db.subscription.findUniqueOrThrow({ where: { id } })).paymentMethodId;

  /** Types a card into the sandbox form of the open "Add a card" dialog and saves it. */
  async function saveCard(dialog: Locator, number: string) {
    await dialog.getByLabel('Card number', { exact: true }).fill(number);
    await dialog.getByLabel('Expiry date', { exact: true }).fill('12 / 34');
    await dialog.getByLabel('Security code', { exact: true }).fill('123');
    await dialog.getByRole('button', { name: /^Save card|^Saving card/ }).click();
  }

  const card = (page: Page, lastFour: string) =>
    page.getByTestId('portal-card').filter({ has: page.getByText(`•••• ${lastFour}`) });

  it('a subscriber adds a card (after a decline), makes it the default, deletes the old one, keeps the last', async () => {
    await seller();
    const customer = await polar.customers.create({ email: `ada-${suffix}@example.test`, name: 'Ada' });
    const { subscriptionId } = await buyInSandbox(polar, env.baseUrl, planId, customer.id, 'pm_card_visa');

    const context = await buyerContext({ viewport: NARROW });
    const page = await context.newPage();
    await page.goto(await portalUrl(customer.id));
    await page.getByRole('heading', { level: 1, name: 'Your purchases' }).waitFor();
    await openPortalSection(page, 'Billing');

    const cards = page.getByTestId('portal-card');
    await cards.first().waitFor();
    expect(await cards.count()).toBe(1);
    const visa = card(page, '4242');
    expect(await visa.getByTestId('card-label').textContent()).toMatch(
      /^Visa •••• 4242, expires \d\d\/\d{4}$/,
    );
    expect(await visa.getByTestId('card-default').textContent()).toBe('Default');
    expect(await page.getByText('Your subscriptions renew on your default card.').count()).toBe(1);
    expect(await hasNoHorizontalOverflow(page)).toBe(true);

    // By keyboard: the dialog takes the focus, Escape closes it and gives the focus back.
    const addButton = page.getByRole('button', { name: 'Add a card' });
    await addButton.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('add-card-dialog');
    await dialog.getByRole('heading', { name: 'Add a card' }).waitFor();
    expect(await focusIsInOpenDialog(page)).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await focusedTextOnceOn(page, 'Add a card')).toBe('Add a card');

    // A declined card: the refusal shows under the card number, which takes the focus.
    await addButton.click();
    const useForPlans = dialog.getByRole('checkbox', { name: 'Use this card for my subscriptions' });
    expect(await useForPlans.isChecked()).toBe(false);
    await saveCard(dialog, '4000 0000 0000 0002');
    const numberField = dialog.locator('.checkout-field', { has: page.getByLabel('Card number') });
    await numberField
      .locator('.field-error')
      .filter({ hasText: 'Your card was declined. Try another card.' })
      .waitFor();
    expect(await dialog.getByLabel('Card number', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await hasNoHorizontalOverflow(page)).toBe(true);
    await page.screenshot({ path: screenshotPath('portal-card-declined'), fullPage: true });

    await saveCard(dialog, '5555 5555 5555 4444');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Your Mastercard ending in 4444 is saved.').waitFor();
    const mastercard = card(page, '4444');
    await mastercard.waitFor();
    expect(await mastercard.getByTestId('card-label').textContent()).toMatch(
      /^Mastercard •••• 4444, expires /,
    );
    expect(await mastercard.getByTestId('card-default').count()).toBe(0);
    expect(await cardOfSubscription(subscriptionId!)).toBe('pm_card_visa');

    // Making it the default (by keyboard) moves the plan onto it; the default is listed first.
    await mastercard.getByRole('button', { name: 'Make default: Mastercard ending in 4444' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Your subscriptions now renew on your Mastercard ending in 4444.').waitFor();
    await mastercard.getByTestId('card-default').waitFor();
    expect(await cards.first().getByTestId('card-label').textContent()).toContain('•••• 4444');
    expect(await cardOfSubscription(subscriptionId!)).toBe('pm_card_mastercard');

    const deleteDialog = page.getByTestId('delete-card-dialog');
    await visa.getByRole('button', { name: 'Delete Visa ending in 4242' }).click();
    await deleteDialog.getByRole('heading', { name: 'Delete this card?' }).waitFor();
    expect(await hasNoHorizontalOverflow(page)).toBe(true);
    await deleteDialog.getByRole('button', { name: 'Delete card' }).click();
    await deleteDialog.waitFor({ state: 'hidden' });
    await page.getByText('Your Visa ending in 4242 is deleted.').waitFor();
    await visa.waitFor({ state: 'detached' });
    expect(await cards.count()).toBe(1);

    // The plan's only card stays; the reason shows beside it, and focus is back on its button.
    await mastercard.getByRole('button', { name: 'Delete Mastercard ending in 4444' }).click();
    await deleteDialog.getByRole('button', { name: 'Delete card' }).click();
    await deleteDialog.waitFor({ state: 'hidden' });
    expect(await mastercard.getByTestId('card-error').textContent()).toBe(
      'Your subscription renews on this card. Add another card first, then delete this one.',
    );
    expect(await focusedLabel(page)).toBe('Delete Mastercard ending in 4444');
    expect(await cards.count()).toBe(1);
    expect(await hasNoHorizontalOverflow(page)).toBe(true);
    await page.screenshot({ path: screenshotPath('portal-cards-narrow'), fullPage: true });
    await context.close();
  });

  it('pages through a long list of cards by keyboard; cards kept without details are named plainly', async () => {
    const customer = await polar.customers.create({ email: `mo-${suffix}@example.test`, name: 'Mo' });
    // Cards saved before their details were kept, as the backfill from subscriptions left them.
    const organizationId = (await polar.customers.get({ id: customer.id })).organizationId;
    await env.database.db.customerPaymentMethod.createMany({
      data: Array.from({ length: 21 }, (_, index) => ({
        organizationId,
        customerId: customer.id,
        processor: 'sandbox',
        processorCustomerId: `cus_sandbox_mo_${suffix}`,
        processorPaymentMethodId: `pm_backfilled_${index}`,
        isDefault: index === 0,
        createdAt: new Date(Date.UTC(2025, 0, 1 + index)),
      })),
    });

    const context = await buyerContext({ viewport: NARROW });
    const page = await context.newPage();
    await page.goto(await portalUrl(customer.id));
    await page.getByRole('heading', { level: 1, name: 'Your purchases' }).waitFor();
    await openPortalSection(page, 'Billing');
    const cards = page.getByTestId('portal-card');
    await cards.first().waitFor();
    expect(await cards.count()).toBe(20);
    expect(await cards.first().getByTestId('card-label').textContent()).toBe(
      'Card saved before expiry dates were kept',
    );
    const pager = page.getByTestId('portal-pager');
    expect(await pager.getByText('Page 1 of 2').count()).toBe(1);
    expect(await pager.getByRole('button', { name: 'Previous' }).getAttribute('aria-disabled')).toBe('true');

    // The next page replaces the list, which takes the focus; the last page's "Next" keeps it.
    await pager.getByRole('button', { name: 'Next' }).focus();
    await page.keyboard.press('Enter');
    await pager.getByText('Page 2 of 2').waitFor();
    await page.waitForFunction("document.activeElement?.id === 'portal-cards-list'");
    expect(await cards.count()).toBe(1);
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    const next = pager.getByRole('button', { name: 'Next' });
    expect(await next.getAttribute('aria-disabled')).toBe('true');
    await next.focus();
    await page.keyboard.press('Enter');
    expect(await focusedTextOnceOn(page, 'Next')).toBe('Next');
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    expect(await hasNoHorizontalOverflow(page)).toBe(true);

    await pager.getByRole('button', { name: 'Previous' }).click();
    await pager.getByText('Page 1 of 2').waitFor();
    expect(await cards.count()).toBe(20);
    expect(new URL(page.url()).searchParams.get('page')).toBeNull();
    await context.close();
  });

  it('a failed renewal offers "Retry now" (once an hour); a new default card pays it and the banner goes', async () => {
    const clockCall = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${env.baseUrl}/v1/test-clocks/${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await response.json()) as { id: string; status: string };
    };
    const clock = await clockCall('POST', '', { name: 'Dunning', frozen_time: '2026-03-01T09:00:00.000Z' });
    const customer = await polar.customers.create({ email: `lin-${suffix}@example.test`, name: 'Lin' });
    await clockCall('POST', `${clock.id}/customers`, { customer_id: customer.id });
    // Paid today; the renewals of this test card are declined.
    const { subscriptionId } = await buyInSandbox(
      polar,
      env.baseUrl,
      planId,
      customer.id,
      'pm_card_chargeCustomerFail',
    );
    await clockCall('POST', `${clock.id}/advance`, { frozen_time: '2026-04-01T12:00:00.000Z' });
    await eventually(
      () => clockCall('GET', clock.id),
      (value) => value.status === 'ready',
      WORKFLOW_TIMEOUT_MS,
    );
    await poll(
      'the failed renewal',
      async () =>
        (await polar.subscriptions.get({ id: subscriptionId! })).status === 'past_due' ? true : undefined,
      WORKFLOW_TIMEOUT_MS,
    );

    const context = await buyerContext();
    const page = await context.newPage();
    await page.goto(await portalUrl(customer.id));
    const plan = page.getByTestId('portal-subscription');
    const banner = plan.getByTestId('past-due-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toContain(
      'Your last payment for this subscription didn’t go through.',
    );
    expect(await plan.getByTestId('subscription-status').textContent()).toBe('Past due');

    await banner.getByRole('button', { name: 'Retry now' }).click();
    await banner.getByText('We’re trying your card now.', { exact: false }).waitFor();
    await poll(
      'the retried charge',
      async () => {
        const row = await env.database.db.subscription.findUniqueOrThrow({ where: { id: subscriptionId! } });
        return row.failedAttempts >= 2 ? true : undefined;
      },
      WORKFLOW_TIMEOUT_MS,
    );
    // Tried a moment ago (in the clock's time): the API's answer says when to try again.
    await page.reload();
    await banner.getByRole('button', { name: 'Retry now' }).click();
    await banner
      .getByTestId('retry-note')
      .filter({ hasText: 'We tried your card at 12:00 UTC. Try again after 13:00 UTC, or use another card.' })
      .waitFor();
    await page.screenshot({ path: screenshotPath('portal-past-due'), fullPage: true });

    await banner.getByRole('link', { name: 'Use another card' }).click();
    await page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
    await page.getByTestId('portal-card').first().waitFor();
    await page.getByRole('button', { name: 'Add a card' }).click();
    const dialog = page.getByTestId('add-card-dialog');
    await dialog.getByRole('checkbox', { name: 'Use this card for my subscriptions' }).check();
    await saveCard(dialog, '4242 4242 4242 4242');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Your Visa ending in 4242 is saved. Your subscriptions renew on it.').waitFor();

    // The plan was charged on the new card at once; the overview follows while it shows past_due.
    await portalNav(page).getByRole('link', { name: 'Overview', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Your purchases' }).waitFor();
    await plan
      .getByTestId('subscription-status')
      .filter({ hasText: 'Active' })
      .waitFor({ timeout: WORKFLOW_TIMEOUT_MS });
    expect(await plan.getByTestId('past-due-banner').count()).toBe(0);
    expect((await polar.subscriptions.get({ id: subscriptionId! })).status).toBe('active');
    await context.close();
  });
});
