import type { ChildProcess } from 'node:child_process';
import { findFreePort, spawnLogged, stopChild, waitFor } from '../../infra/processes.js';

export type StripeMock = { url: string; stop(): Promise<void> };

/**
 * stripe-mock on loopback: Stripe's API as its OpenAPI document describes it, answering fixtures and
 * refusing requests the document does not allow. `-strict-version-check` also refuses an SDK pinned
 * to another API version than the bundled document's, so an SDK upgrade cannot drift unnoticed.
 */
export async function startStripeMock(options: { binary: string; logFile: string }): Promise<StripeMock> {
  const httpPort = await findFreePort();
  // It always serves HTTPS as well; give that a free loopback port too, so runs never collide.
  const httpsPort = await findFreePort();
  const child: ChildProcess = spawnLogged(
    options.binary,
    ['-http-addr', `127.0.0.1:${httpPort}`, '-https-addr', `127.0.0.1:${httpsPort}`, '-strict-version-check'],
    { logFile: options.logFile },
  );
  let exitCode: number | null | undefined;
  child.once('exit', (code) => (exitCode = code));
  const url = `http://127.0.0.1:${httpPort}`;
  await waitFor(
    `stripe-mock on ${url} (log: ${options.logFile})`,
    async () => {
      if (exitCode !== undefined) throw new Error(`stripe-mock exited with code ${exitCode}`);
      const response = await fetch(`${url}/v1/balance`, {
        headers: { authorization: 'Bearer sk_test_mock' },
      });
      return response.ok ? true : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  );
  return { url, stop: () => stopChild(child, { signal: 'SIGTERM', graceMs: 5_000 }) };
}
