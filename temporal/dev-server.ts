import type { ChildProcess } from 'node:child_process';
import { Connection } from '@temporalio/client';
import { spawnLogged, stopChild, waitFor } from '../infra/processes.js';
import { SEARCH_ATTRIBUTE_NAMES } from '../domain/operators/rules.js';

export type TemporalDevServer = {
  address: string;
  uiUrl: string | null;
  pid: number | undefined;
  stop(): Promise<void>;
};

/**
 * The Temporal CLI's dev server: the real Temporal server with SQLite persistence (in memory when
 * no `dbFile` is given) and, unless headless, the Web UI. Tollgate's search attributes are registered
 * at every start (the server keeps those it already has).
 */
export async function startTemporalDevServer(options: {
  binary: string;
  port: number;
  uiPort?: number;
  dbFile?: string;
  logFile: string;
}): Promise<TemporalDevServer> {
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(options.port),
    '--log-level',
    'warn',
  ];
  if (options.uiPort) args.push('--ui-port', String(options.uiPort));
  else args.push('--headless');
  if (options.dbFile) args.push('--db-filename', options.dbFile);
  for (const name of SEARCH_ATTRIBUTE_NAMES) args.push('--search-attribute', `${name}=Keyword`);

  const child: ChildProcess = spawnLogged(options.binary, args, { logFile: options.logFile });
  let exitCode: number | null | undefined;
  child.once('exit', (code) => (exitCode = code));

  const address = `127.0.0.1:${options.port}`;
  await waitFor(
    `the Temporal dev server on ${address} (log: ${options.logFile})`,
    async () => {
      if (exitCode !== undefined)
        throw new Error(`temporal exited with code ${exitCode}; see ${options.logFile}`);
      const connection = await Connection.connect({ address, connectTimeout: '1s' });
      try {
        await connection.workflowService.getSystemInfo({});
        return true;
      } finally {
        await connection.close();
      }
    },
    { timeoutMs: 60_000, intervalMs: 250 },
  );
  return {
    address,
    uiUrl: options.uiPort ? `http://localhost:${options.uiPort}` : null,
    pid: child.pid,
    stop: () => stopChild(child, { signal: 'SIGTERM', graceMs: 10_000 }),
  };
}
