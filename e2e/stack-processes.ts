// The processes an e2e test runs: Tollgate started as `npm start` starts it, and Chromium. No Jest
// here: the e2e project's global set-up (e2e/global-setup.ts) starts the shared stack with these.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LaunchOptions } from 'playwright-core';
import { projectRoot, toolPaths } from '../scripts/lib/paths.js';
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

/** The environment of a stack a browser test drives, on the harness's PostgreSQL and Temporal. */
export function browserStackEnv(stack: {
  port: number;
  dataDir: string;
  databaseUrl: string;
  extraEnv?: Record<string, string>;
}): NodeJS.ProcessEnv {
  const baseUrl = `http://localhost:${stack.port}`;
  return {
    ...process.env,
    DATA_DIR: stack.dataDir,
    PORT: String(stack.port),
    PUBLIC_URL: baseUrl,
    DATABASE_URL: stack.databaseUrl,
    TEMPORAL_ADDRESS: requireTestEnv('temporalAddress'),
    TEMPORAL_TASK_QUEUE: `e2e-${randomUUID()}`,
    // Each test browser claims an address of its own through X-Forwarded-For, as clients of a
    // deployment behind a proxy on this machine would.
    TRUST_PROXY: 'loopback',
    ...stack.extraEnv,
  };
}

export const chromiumLaunchOptions: LaunchOptions = {
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
};
