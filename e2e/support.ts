import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll } from '@jest/globals';
import { findFreePort } from '../infra/processes.js';
import { projectRoot, toolPaths } from '../scripts/lib/paths.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { requireTestEnv } from '../test/env.js';

export type RunningTollgate = {
  child: ChildProcess;
  output(): string;
  /** Sends `signal` to the supervisor and resolves with its exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
};

/** A DATA_DIR of the test's own; every process of the stack inherits it, which is how survivors are found. */
export function createDataDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `tollgate-${prefix}-`));
  chmodSync(dir, 0o755); // PostgreSQL runs as its own OS user when tests run as root.
  return dir;
}

/** Runs `npm start`'s supervisor (scripts/start.ts) and waits for its "running" banner. */
export async function startTollgate(env: NodeJS.ProcessEnv, timeoutMs = 180_000): Promise<RunningTollgate> {
  const child = spawn(path.join(projectRoot, 'node_modules', '.bin', 'tsx'), ['scripts/start.ts'], {
    cwd: projectRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Tollgate did not start within ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const poll = setInterval(() => {
      if (output.includes('Tollgate is running')) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve();
      }
    }, 100);
    void exited.then((code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`Tollgate exited with code ${code} during start-up:\n${output}`));
    });
  });

  return {
    child,
    output: () => output,
    async stop(signal = 'SIGINT') {
      child.kill(signal);
      return exited;
    },
  };
}

/** PIDs of live processes whose environment carries this DATA_DIR. */
export function processesOf(dataDir: string): number[] {
  const marker = `DATA_DIR=${dataDir}\0`;
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'utf8');
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      if (environ.includes(marker) && !/^State:\s+Z/m.test(status)) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

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
  await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
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

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: toolPaths.chromium,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
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

/**
 * For a describe block: a database of its own on the harness's PostgreSQL, the stack started by
 * `npm start`'s supervisor against it and the harness's Temporal, and Chromium; all torn down after.
 */
/** `extraEnv` is read when the stack starts: settings of fakes started by an earlier hook. */
export function useBrowserStack(name: string, extraEnv: () => Record<string, string> = () => ({})) {
  const env = {} as {
    database: TestDatabase;
    dataDir: string;
    tollgate: RunningTollgate;
    browser: Browser;
    baseUrl: string;
  };
  beforeAll(async () => {
    env.database = await createTestDatabase();
    env.dataDir = createDataDir(name);
    const port = await findFreePort();
    env.baseUrl = `http://localhost:${port}`;
    env.tollgate = await startTollgate({
      ...process.env,
      DATA_DIR: env.dataDir,
      PORT: String(port),
      PUBLIC_URL: env.baseUrl,
      DATABASE_URL: env.database.url,
      TEMPORAL_ADDRESS: requireTestEnv('temporalAddress'),
      TEMPORAL_TASK_QUEUE: `e2e-${randomUUID()}`,
      // Each test browser claims an address of its own through X-Forwarded-For, as clients of a
      // deployment behind a proxy on this machine would.
      TRUST_PROXY: 'loopback',
      ...extraEnv(),
    });
    env.browser = await launchChromium();
  });
  afterAll(async () => {
    await env.browser?.close();
    if (env.tollgate?.child.exitCode === null) await env.tollgate.stop('SIGTERM');
    await env.database?.drop();
    if (env.dataDir) rmSync(env.dataDir, { recursive: true, force: true });
  });
  return env;
}
