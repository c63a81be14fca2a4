// One Tollgate stack and one Chromium that every browser test without settings of its own shares,
// started when the first test file asks for them (the e2e project's global set-up starts this
// service: e2e/global-setup.js). A stack and a browser per file cost ~5 s and ~7 CPU-seconds
// apiece (docs/performance.md).
//
// Test files run in sandboxes of their own, so they cannot share objects: they ask a small HTTP
// service here for the stack's coordinates (`SharedStack`), connect to the browser over its
// WebSocket, and get a client number that gives their pages an address of their own.
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type BrowserServer } from 'playwright-core';
import { findFreePort } from '../infra/processes.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import {
  browserStackEnv,
  chromiumLaunchOptions,
  createDataDir,
  startTollgate,
  type RunningTollgate,
} from './stack-processes.js';

/** Where test files find the service (set before any of them runs). */
export const SHARED_STACK_SERVICE_ENV = 'TOLLGATE_E2E_SHARED_STACK';

export type SharedStack = {
  baseUrl: string;
  databaseUrl: string;
  dataDir: string;
  browserEndpoint: string;
  /** Counts the files that asked: each file's pages claim an address of their own from it. */
  client: number;
};

type Running = {
  database: TestDatabase;
  dataDir: string;
  tollgate: RunningTollgate;
  browser: BrowserServer;
  coordinates: Omit<SharedStack, 'client'>;
};

/** Kept from set-up to teardown: both run in Jest's own realm, outside the tests' sandboxes. */
type SharedStackState = { service: Server; running: Promise<Running> | null };
const sharedStackState = Symbol.for('tollgate.e2e.sharedStack');

async function start(): Promise<Running> {
  const database = await createTestDatabase();
  const dataDir = createDataDir('shared');
  const port = await findFreePort();
  const [tollgate, browser] = await Promise.allSettled([
    startTollgate(browserStackEnv({ port, dataDir, databaseUrl: database.url })),
    chromium.launchServer(chromiumLaunchOptions),
  ]);
  if (tollgate.status === 'rejected' || browser.status === 'rejected') {
    await stop({
      database,
      dataDir,
      tollgate: tollgate.status === 'fulfilled' ? tollgate.value : null,
      browser: browser.status === 'fulfilled' ? browser.value : null,
    });
    throw tollgate.status === 'rejected' ? tollgate.reason : (browser as PromiseRejectedResult).reason;
  }
  return {
    database,
    dataDir,
    tollgate: tollgate.value,
    browser: browser.value,
    coordinates: {
      baseUrl: `http://localhost:${port}`,
      databaseUrl: database.url,
      dataDir,
      browserEndpoint: browser.value.wsEndpoint(),
    },
  };
}

async function stop(running: {
  database: TestDatabase;
  dataDir: string;
  tollgate: RunningTollgate | null;
  browser: BrowserServer | null;
}): Promise<void> {
  await running.browser?.close();
  if (running.tollgate?.child.exitCode === null) await running.tollgate.stop('SIGTERM');
  await running.database.drop();
  rmSync(running.dataDir, { recursive: true, force: true });
}

export async function startSharedStackService(): Promise<void> {
  let clients = 0;
  const state: SharedStackState = { service: createServer(), running: null };
  state.service.on('request', (req, res) => {
    if (req.method !== 'POST' || req.url !== '/stack') {
      res.writeHead(404).end();
      return;
    }
    state.running ??= start();
    state.running.then(
      ({ coordinates }) => {
        clients += 1;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ...coordinates, client: clients } satisfies SharedStack));
      },
      (error: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(error instanceof Error ? (error.stack ?? error.message) : String(error));
      },
    );
  });
  await new Promise<void>((resolve) => state.service.listen(0, '127.0.0.1', resolve));
  const { port } = state.service.address() as AddressInfo;
  process.env[SHARED_STACK_SERVICE_ENV] = `http://127.0.0.1:${port}`;
  (globalThis as Record<symbol, unknown>)[sharedStackState] = state;
}

export async function stopSharedStackService(): Promise<void> {
  const state = (globalThis as Record<symbol, SharedStackState | undefined>)[sharedStackState];
  if (!state) return;
  await new Promise((resolve) => state.service.close(resolve));
  const running = await state.running?.catch(() => null);
  if (!running) return;
  // Nothing stops it before this: the tests that failed beside it need its account of why.
  if (running.tollgate.child.exitCode !== null) {
    console.error(`The shared e2e stack exited early:\n${running.tollgate.output()}`);
  }
  await stop(running);
}
