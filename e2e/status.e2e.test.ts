import { describe, expect, it } from '@jest/globals';
import { processesOf } from './stack-processes.js';
import { screenshotPath, useBrowserStack } from './support.js';

describe('status page in Chromium', () => {
  // Its last test stops the stack.
  const env = useBrowserStack('status', { own: true });

  it('shows every check green and the sandbox banner', async () => {
    const page = await env.browser.newPage();
    await page.goto(env.baseUrl);
    const summary = page.getByTestId('status-summary');
    await summary.waitFor();
    expect(await summary.getAttribute('data-status')).toBe('ok');
    expect(await summary.textContent()).toBe('All systems operational');
    for (const check of ['postgres', 'temporal', 'worker']) {
      expect(await page.locator(`[data-check="${check}"]`).getAttribute('data-status')).toBe('ok');
    }
    expect(await page.getByTestId('sandbox-banner').isVisible()).toBe(true);
    await page.screenshot({ path: screenshotPath('status'), fullPage: true });
  });

  it('serves client-side routes from the same document and 404s unknown API paths as JSON', async () => {
    const page = await env.browser.newPage();
    await page.goto(`${env.baseUrl}/no/such/page`);
    await page.getByText('Page not found').waitFor();
    const api = await fetch(`${env.baseUrl}/api/nothing-here`);
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
  });

  it('shows the API reference from the OpenAPI document', async () => {
    const page = await env.browser.newPage();
    await page.goto(`${env.baseUrl}/api-reference`);
    await page.getByRole('heading', { name: 'API reference' }).waitFor();
    const create = page.locator('[data-operation="customers:create"]');
    await create.getByRole('button').click();
    await create.getByText('Request body').waitFor();
    // In the request body and in the response.
    expect(await create.locator('code', { hasText: /^email$/ }).count()).toBe(2);
    expect(await page.locator('[data-operation="organizations:get"]').count()).toBe(1);
    // An export answers CSV; our own operations say they are not Polar's.
    const exported = page.locator('[data-operation="subscriptions:export"]');
    await exported.getByRole('button').click();
    await exported.getByText('A text/csv body.').waitFor();
    const preview = page.locator('[data-operation="subscriptions:proration_preview"]');
    await preview.getByRole('button').click();
    await preview.getByText(/Tollgate extension, not in Polar/).waitFor();

    // Each dated version has its own document: a license key names its member from 2026-10 on.
    const memberFields = async () => {
      const licenseKey = page.locator('[data-operation="license_keys:get"]');
      await licenseKey.getByRole('button').click();
      await licenseKey.getByText('Response').first().waitFor();
      return licenseKey.locator('code', { hasText: /^member_id$/ }).count();
    };
    await page.getByLabel('API version').selectOption('2026-04');
    await page.getByRole('link', { name: '/2026-04/openapi.json' }).waitFor();
    expect(await memberFields()).toBe(0);
    await page.getByLabel('API version').selectOption('2026-10');
    await page.getByRole('link', { name: '/2026-10/openapi.json' }).waitFor();
    expect(await memberFields()).toBe(1);
  });

  it('stops on SIGINT leaving no process behind', async () => {
    expect(processesOf(env.dataDir).length).toBeGreaterThan(0);
    expect(await env.tollgate!.stop('SIGINT')).toBe(130);
    expect(processesOf(env.dataDir)).toEqual([]);
  });
});
