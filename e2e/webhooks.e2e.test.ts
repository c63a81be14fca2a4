import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { validateEvent } from '@polar-sh/sdk/webhooks';
import type { Page } from 'playwright-core';
import { startWebhookReceiver } from '../test/webhook-receiver.js';
import { hasNoHorizontalOverflow, NARROW } from './portal-support.js';
import { poll, recordPolicyViolations, screenshotPath, signUpSeller, useBrowserStack } from './support.js';

// A seller adds an endpoint whose receiver fails once and then accepts, sends it a test event, and
// reads the endpoint's health and the event's attempts; an endpoint without events is flagged.
describe('webhook endpoint health, attempts and test events in Chromium', () => {
  const env = useBrowserStack('webhooks');
  const policyViolations: string[] = [];
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let seller: Page;
  const suffix = randomUUID().slice(0, 8);

  beforeAll(async () => {
    receiver = await startWebhookReceiver((_request, index) => (index === 0 ? 503 : 200));
  });
  afterAll(async () => {
    await receiver.stop();
    expect(policyViolations).toEqual([]);
  });

  const label = (page: Page, text: string) => page.getByLabel(text, { exact: true });

  it('warns about an endpoint without events and shows the empty states', async () => {
    const context = await env.browser.newContext({
      locale: 'en-US',
      extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.71' },
    });
    recordPolicyViolations(context, policyViolations);
    seller = await context.newPage();
    await signUpSeller(seller, env.baseUrl, {
      firstName: 'Wanda',
      suffix,
      organizationName: `Hooks ${suffix}`,
    });
    await seller.getByRole('link', { name: 'Webhooks' }).click();
    await seller.getByText('No endpoints yet. Add one above').waitFor();

    // The empty form warns of nothing; once the seller fills it in without events, it says what
    // that means.
    const warning = seller.getByTestId('webhook-no-events');
    expect(await warning.count()).toBe(0);
    const urlField = seller.locator('.checkout-field', { has: label(seller, 'Endpoint URL') });

    // Not a web address, then plain http: two refusals in words, under the URL, without wire paths.
    await label(seller, 'Endpoint URL').fill('hooks.example.com/polar');
    await warning.waitFor();
    expect(await warning.textContent()).toContain('subscribes to no events, so nothing will be sent to it');
    await seller.getByRole('button', { name: 'Add endpoint' }).click();
    await urlField
      .locator('.field-error')
      .filter({ hasText: 'Enter a full web address, such as https://example.com/webhooks.' })
      .waitFor();
    expect(await label(seller, 'Endpoint URL').getAttribute('aria-invalid')).toBe('true');
    await label(seller, 'Endpoint URL').fill('http://hooks.example.com/polar');
    await seller.getByRole('button', { name: 'Add endpoint' }).click();
    await urlField
      .locator('.field-error')
      .filter({ hasText: 'Use an address starting with https://' })
      .waitFor();
    expect(await seller.locator('main').textContent()).not.toMatch(/url:/);

    await label(seller, 'organization.updated').check();
    await warning.waitFor({ state: 'detached' });
    await label(seller, 'organization.updated').uncheck();
    await warning.waitFor();

    await label(seller, 'Endpoint URL').fill(`${receiver.url}?quiet`);
    await seller.getByRole('button', { name: 'Add endpoint' }).click();
    await seller.getByRole('button', { name: 'Done' }).click();
    // Created: the form is empty again, without the warning or the old error.
    expect(await label(seller, 'Endpoint URL').inputValue()).toBe('');
    expect(await warning.count()).toBe(0);
    expect(await urlField.locator('.field-error').count()).toBe(0);
    const row = seller.getByTestId('webhook-row').filter({ hasText: `${receiver.url}?quiet` });
    await row.waitFor();
    await row.getByText('None', { exact: true }).waitFor();
    await row.getByText('No recent deliveries').waitFor();

    await row.getByRole('link').click();
    // The endpoint's own page warns as well, and its log says how to get a first delivery.
    await seller.getByTestId('webhook-no-events').waitFor();
    await seller.getByText('No deliveries yet.').waitFor();
    await seller.getByText('No attempts in the last 7 days').waitFor();
    await seller.screenshot({ path: screenshotPath('webhooks-no-events'), fullPage: true });
  });

  it('sends a test event that fails once, is retried, and shows in the health and the attempts', async () => {
    await seller.getByRole('link', { name: '← All endpoints' }).click();
    await label(seller, 'Endpoint URL').fill(receiver.url);
    await label(seller, 'All events').check();
    await seller.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = (await seller.getByTestId('webhook-secret').textContent()) ?? '';
    await seller.getByRole('button', { name: 'Done' }).click();
    const row = seller
      .getByTestId('webhook-row')
      .filter({ hasText: receiver.url })
      .filter({ hasNotText: 'quiet' });
    await row.waitFor();
    await row.getByRole('link').click();
    // Its payloads are rendered in the current API version unless the seller picks another.
    expect(await label(seller, 'API version of the payloads').inputValue()).toBe('2026-10');

    await seller.getByRole('button', { name: 'Send test event' }).click();
    await seller.getByText('Test event queued').waitFor();
    const [first] = await receiver.waitFor(1);
    expect(validateEvent(first!.body, first!.headers, secret).type).toBe('organization.updated');
    expect(first!.headers['webhook-api-version']).toBe('2026-10');

    // The receiver answered 503, then 200 on the retry 5 seconds later: one event, two attempts.
    const event = seller.getByTestId('delivery-row').filter({ hasText: 'organization.updated' });
    await event.filter({ hasText: 'Succeeded 200' }).waitFor({ timeout: 30_000 });
    expect(await event.count()).toBe(1);
    expect(await event.textContent()).toContain('2 attempts');
    expect(await event.textContent()).toContain('Test');
    await event.getByRole('button', { expanded: false }).click();
    const attempts = event.getByTestId('webhook-attempt');
    await poll('both attempts', async () => ((await attempts.count()) === 2 ? true : undefined));
    const cells = async (index: number) => attempts.nth(index).locator('td').allTextContents();
    expect((await cells(0)).slice(2, 3)).toEqual(['503']);
    expect((await cells(0))[3]).toMatch(/^\d+ ms$/);
    expect((await cells(1)).slice(2, 3)).toEqual(['200']);
    expect(await event.getByTestId('delivery-payload').textContent()).toContain(`Hooks ${suffix}`);
    expect(receiver.received[1]!.headers['webhook-id']).toBe(first!.headers['webhook-id']);

    // Health: one of two attempts failed, with the 503 as the last failure.
    const health = seller.getByTestId('webhook-health');
    await health.getByText('50 % of 2 attempts succeeded in the last 7 days').waitFor({ timeout: 15_000 });
    await health.getByText('Degraded').waitFor();
    expect(await health.getByTestId('webhook-last-failure').textContent()).toContain('HTTP 503');
    await seller.screenshot({ path: screenshotPath('webhooks-endpoint-attempts'), fullPage: true });

    // A second test event goes through at once.
    await seller.getByRole('button', { name: 'Send test event' }).click();
    await receiver.waitFor(3);
    await poll('the second test event', async () =>
      (await seller.getByTestId('delivery-row').count()) === 2 ? true : undefined,
    );
    await seller.getByText('2 events', { exact: true }).waitFor();

    await seller.getByRole('link', { name: '← All endpoints' }).click();
    await row.getByText('Degraded').waitFor();
    await row.getByText('66.6 % of 3 attempts').waitFor();
    await seller.screenshot({ path: screenshotPath('webhooks-endpoint-list'), fullPage: true });
  });

  it('says why delivery disabled an endpoint, and fits a narrow screen', async () => {
    const { db } = env.database;
    const endpoint = await db.webhookEndpoint.findFirstOrThrow({ where: { url: receiver.url } });
    await db.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: { enabled: false, disabledReason: 'failing', disabledAt: new Date() },
    });
    await seller.setViewportSize(NARROW);
    await seller.goto(`${env.baseUrl}/dashboard/webhooks/${endpoint.id}`);
    const reason = seller.getByTestId('webhook-disabled-reason');
    await reason.waitFor();
    expect(await reason.textContent()).toContain('because 10 events in a row failed every retry');
    expect(await seller.getByRole('button', { name: 'Send test event' }).isDisabled()).toBe(true);
    await seller.getByTestId('delivery-row').first().getByRole('button', { expanded: false }).click();
    expect(await hasNoHorizontalOverflow(seller)).toBe(true);
    await seller.screenshot({ path: screenshotPath('webhooks-disabled-narrow'), fullPage: true });
  });
});
