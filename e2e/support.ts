import { rmSync } from 'node:fs';
import path from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Locator,
  type Page,
} from 'playwright-core';
import { afterAll, beforeAll } from '@jest/globals';
import { createDb, type Db } from '../infra/db.js';
import { findFreePort } from '../infra/processes.js';
import { projectRoot } from '../scripts/lib/paths.js';
import { createTestDatabase } from '../test/database.js';
import { SHARED_STACK_SERVICE_ENV, type SharedStack } from './shared-stack.js';
import {
  browserStackEnv,
  chromiumLaunchOptions,
  createDataDir,
  startTollgate,
  type RunningTollgate,
} from './stack-processes.js';

export async function poll<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/**
 * Signs a new seller up through the pages (`<first name> <suffix>`, username and email from them)
 * and creates their organization; returns once it is the active organization.
 */
export async function signUpSeller(
  page: Page,
  baseUrl: string,
  seller: { firstName: string; suffix: string; organizationName: string },
) {
  const handle = `${seller.firstName.toLowerCase()}_${seller.suffix}`;
  await page.goto(`${baseUrl}/sign-up`);
  await page.getByLabel('Name', { exact: true }).fill(`${seller.firstName} ${seller.suffix}`);
  await page.getByLabel('Email', { exact: true }).fill(`${handle.replace('_', '-')}@example.test`);
  await page.getByLabel('Username', { exact: true }).fill(handle);
  await page.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { level: 1, name: 'Overview', exact: true }).waitFor();
  await page.getByLabel('Organization name', { exact: true }).fill(seller.organizationName);
  await page.getByRole('button', { name: 'Create organization' }).click();
  // The sidebar's navigation is drawn once the new organization is the active one, so its row is
  // committed; attached rather than visible, since a phone-width page keeps it behind the menu.
  await page.getByRole('navigation', { name: 'Dashboard' }).waitFor({ state: 'attached' });
}

/** Reloads until `target` shows: what a workflow records appears a moment after the action. */
export async function reloadUntilVisible(page: Page, target: Locator, what: string, timeoutMs: number) {
  await poll(
    what,
    async () => {
      try {
        await target.first().waitFor({ timeout: 3_000 });
        return true;
      } catch {
        await page.reload();
        return undefined;
      }
    },
    timeoutMs,
  );
}

/**
 * Collects what the pages' Content-Security-Policy refused (Chromium reports each refusal as a
 * console error): a page that works only because nothing checked it would otherwise pass.
 */
export function recordPolicyViolations(context: BrowserContext, into: string[]): void {
  const watch = (page: Page) =>
    page.on('console', (message) => {
      if (message.type() === 'error' && message.text().includes('Content Security Policy')) {
        into.push(`${page.url()}: ${message.text()}`);
      }
    });
  context.pages().forEach(watch);
  context.on('page', watch);
}

export function screenshotPath(name: string): string {
  return path.join(projectRoot, '.data', 'e2e', `${name}.png`);
}

export type BrowserStack = {
  /** The stack's database, for what a test checks or arranges behind the pages. */
  database: { url: string; db: Db };
  dataDir: string;
  /** Only a stack of the test's own can be stopped by it. */
  tollgate: RunningTollgate | null;
  browser: Browser;
  baseUrl: string;
};

/**
 * For a describe block: the stack started by `npm start`'s supervisor on the harness's PostgreSQL
 * and Temporal, and Chromium; by default the ones every such file shares (e2e/global-setup.ts),
 * with pages at an address of the file's own. `own` starts a stack for this block alone, on a
 * database of its own: for settings (`extraEnv`, read when it starts, so it may come from fakes an
 * earlier hook started) or for a test that stops it.
 */
export function useBrowserStack(
  name: string,
  options: { own?: boolean; extraEnv?: () => Record<string, string> } = {},
) {
  const env = {} as BrowserStack;
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    if (options.own || options.extraEnv) await startOwnStack(name, env, cleanups, options.extraEnv);
    else await joinSharedStack(env, cleanups);
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  return env;
}

async function startOwnStack(
  name: string,
  env: BrowserStack,
  cleanups: (() => Promise<void>)[],
  extraEnv: () => Record<string, string> = () => ({}),
) {
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  env.database = database;
  env.dataDir = createDataDir(name);
  cleanups.push(async () => rmSync(env.dataDir, { recursive: true, force: true }));
  const port = await findFreePort();
  env.baseUrl = `http://localhost:${port}`;
  const tollgate = await startTollgate(
    browserStackEnv({ port, dataDir: env.dataDir, databaseUrl: database.url, extraEnv: extraEnv() }),
  );
  env.tollgate = tollgate;
  cleanups.push(async () => {
    if (tollgate.child.exitCode === null) await tollgate.stop('SIGTERM');
  });
  env.browser = await chromium.launch(chromiumLaunchOptions);
  cleanups.push(() => env.browser.close());
}

async function joinSharedStack(env: BrowserStack, cleanups: (() => Promise<void>)[]) {
  const service = process.env[SHARED_STACK_SERVICE_ENV];
  if (!service) throw new Error(`${SHARED_STACK_SERVICE_ENV} is unset: run through the e2e project`);
  const response = await fetch(`${service}/stack`, { method: 'POST' });
  if (!response.ok) throw new Error(`the shared stack did not start:\n${await response.text()}`);
  const shared = (await response.json()) as SharedStack;
  const db = createDb(shared.databaseUrl, { maxConnections: 5 });
  cleanups.push(() => db.$disconnect());
  env.database = { url: shared.databaseUrl, db };
  env.dataDir = shared.dataDir;
  env.tollgate = null;
  env.baseUrl = shared.baseUrl;
  const browser = await chromium.connect(shared.browserEndpoint);
  cleanups.push(() => browser.close());
  env.browser = withClientAddress(browser, sharedClientAddress(shared.client));
}

/**
 * An address from TEST-NET-2 per file: the stack's limits per address (Better Auth's three
 * sign-ins per ten seconds, the portal's and checkouts' per minute) then count each file alone, as
 * they did when each file had a stack of its own.
 */
const sharedClientAddress = (client: number) => `198.51.${Math.floor(client / 250)}.${(client % 250) + 1}`;

/** Pages of `browser` that send X-Forwarded-For `address`, unless a test sets one itself. */
function withClientAddress(browser: Browser, address: string): Browser {
  const newContext = browser.newContext.bind(browser);
  const contextAt = (options: BrowserContextOptions = {}) =>
    newContext({ ...options, extraHTTPHeaders: { 'x-forwarded-for': address, ...options.extraHTTPHeaders } });
  browser.newContext = contextAt;
  // As Browser.newPage: a page with a context of its own, closed with it.
  browser.newPage = async (options?: BrowserContextOptions) => {
    const context = await contextAt(options);
    const page = await context.newPage();
    page.once('close', () => void context.close());
    return page;
  };
  return browser;
}
