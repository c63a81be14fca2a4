import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { findFreePort } from '../infra/processes.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { requireTestEnv } from '../test/env.js';
import {
  createDataDir,
  launchChromium,
  processesOf,
  screenshotPath,
  startTollgate,
  type RunningTollgate,
} from './support.js';

describe('status page in Chromium', () => {
  let database: TestDatabase;
  let dataDir: string;
  let tollgate: RunningTollgate;
  let browser: Browser;
  let baseUrl: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = createDataDir('status');
    const port = await findFreePort();
    baseUrl = `http://localhost:${port}`;
    tollgate = await startTollgate({
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      DATABASE_URL: database.url,
      TEMPORAL_ADDRESS: requireTestEnv('temporalAddress'),
      TEMPORAL_TASK_QUEUE: `e2e-${randomUUID()}`,
      LOG_LEVEL: 'info',
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    if (tollgate?.child.exitCode === null) await tollgate.stop('SIGTERM');
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows every check green and the sandbox banner', async () => {
    const page = await browser.newPage();
    await page.goto(baseUrl);
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
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/no/such/page`);
    await page.getByText('Page not found').waitFor();
    const api = await fetch(`${baseUrl}/api/nothing-here`);
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
  });

  it('stops on SIGINT leaving no process behind', async () => {
    expect(processesOf(dataDir).length).toBeGreaterThan(0);
    expect(await tollgate.stop('SIGINT')).toBe(130);
    expect(processesOf(dataDir)).toEqual([]);
  });
});
