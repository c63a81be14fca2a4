// `npm start`: the whole stack on one machine, supervised. `npm run dev`: the same with hot reload.
//   At once: PostgreSQL (DATABASE_URL, else a cluster under DATA_DIR) → migrations; the Temporal
//   dev server (unless TEMPORAL_ADDRESS); the build (skipped when nothing changed since the last).
//   Then worker and API (serving the web app) side by side → ready.
// Ctrl-C / SIGTERM stop everything in reverse order; data under DATA_DIR survives restarts.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfigOrExit } from '../config/config.js';
import { waitFor } from '../infra/processes.js';
import { startTemporalDevServer } from '../temporal/dev-server.js';
import { build, checkBuild } from './build.js';
import { projectRoot, resolveDataDir } from './lib/paths.js';
import { ensureDatabase, startLocalPostgres } from './lib/postgres.js';
import { migrateDeploy } from './lib/prisma-cli.js';
import { SupervisedProcess, stopLeftover } from './lib/supervised.js';
import { MissingToolError, ensureTemporalCli } from './lib/tools.js';

const isDev = process.argv.includes('--dev');
const config = loadConfigOrExit();
const dataDir = resolveDataDir(config.DATA_DIR);
const logsDir = path.join(dataDir, 'logs');
const runDir = path.join(dataDir, 'run');
const bin = (name: string) => path.join(projectRoot, 'node_modules', '.bin', name);

const stopActions: { name: string; stop: () => Promise<void> }[] = [];
let shuttingDown = false;
const stopBuild = new AbortController();

function step<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  process.stdout.write(`  … ${label}\n`);
  return work().then((value) => {
    console.log(`  ✓ ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return value;
  });
}

/**
 * Services still starting. Their stop action exists only once they are up, so a shutdown waits for
 * them first; otherwise one started beside a step that failed would outlive the supervisor.
 */
const starting = new Set<Promise<unknown>>();
function whileStarting<T>(start: Promise<T>): Promise<T> {
  starting.add(start);
  start.then(
    () => starting.delete(start),
    () => starting.delete(start),
  );
  return start;
}

async function shutdown(exitCode: number, reason: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  console.log(`\n  ${reason}: stopping Tollgate…`);
  stopBuild.abort();
  await Promise.allSettled(starting);
  for (const { name, stop } of stopActions.reverse()) {
    await stop().catch((error: unknown) => console.error(`  ✗ stopping ${name}: ${String(error)}`));
    console.log(`  ✓ ${name} stopped`);
  }
  process.exit(exitCode);
}
process.on('SIGINT', () => void shutdown(130, 'SIGINT'));
process.on('SIGTERM', () => void shutdown(143, 'SIGTERM'));

function parseLogLine(line: string): { level: number; message: string } {
  try {
    const entry = JSON.parse(line) as {
      level?: number;
      msg?: string;
      err?: { message?: string };
      method?: string;
      path?: string;
      status?: number;
    };
    const request = entry.method ? `${entry.method} ${entry.path} → ${entry.status}` : undefined;
    return {
      level: entry.level ?? 30,
      message: [entry.msg, request, entry.err?.message].filter(Boolean).join(': '),
    };
  } catch {
    return { level: /error|fatal|panic/i.test(line) ? 50 : 30, message: line };
  }
}

/** Child logs are JSON (pino); the console gets warnings and errors, the log files get everything. */
function relayImportant(name: string) {
  return (line: string) => {
    if (!line.trim()) return;
    const { level, message } = parseLogLine(line);
    if (level >= 40) console.log(`  [${name}] ${message}`);
  };
}

/** One secret per installation, kept across restarts so sessions survive them. */
function readOrCreateAuthSecret(file: string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

async function startDatabase(env: NodeJS.ProcessEnv) {
  if (config.DATABASE_URL) {
    env.DATABASE_URL = config.DATABASE_URL;
  } else {
    const postgres = await whileStarting(
      step(
        `PostgreSQL on port ${config.EMBEDDED_POSTGRES_PORT} (${path.relative(projectRoot, dataDir) || '.'}/postgres)`,
        () =>
          startLocalPostgres({
            dataDir: path.join(dataDir, 'postgres'),
            port: config.EMBEDDED_POSTGRES_PORT,
            logFile: path.join(logsDir, 'postgres.log'),
            log: (line) => console.log(`    ${line}`),
          }),
      ),
    );
    stopActions.push({ name: 'PostgreSQL', stop: postgres.stop });
    await ensureDatabase(postgres.superuserUrl('postgres'), 'tollgate');
    env.DATABASE_URL = postgres.superuserUrl('tollgate');
  }
  await step('database migrations', () => migrateDeploy(env.DATABASE_URL ?? ''));
}

/** The Temporal dev server, unless TEMPORAL_ADDRESS names another; resolves to its Web UI's URL. */
async function startTemporal(env: NodeJS.ProcessEnv): Promise<string | null> {
  if (config.TEMPORAL_ADDRESS) return null;
  const binary = await step('Temporal CLI', () => ensureTemporalCli((line) => console.log(`    ${line}`)));
  if (await stopLeftover(runDir, 'temporal', 'temporal'))
    console.log('    stopped a Temporal dev server left by an earlier run');
  const temporal = await whileStarting(
    step(`Temporal dev server on port ${config.TEMPORAL_DEV_PORT}`, () =>
      startTemporalDevServer({
        binary,
        port: config.TEMPORAL_DEV_PORT,
        uiPort: config.TEMPORAL_UI_PORT,
        dbFile: path.join(dataDir, 'temporal.db'),
        logFile: path.join(logsDir, 'temporal.log'),
      }),
    ),
  );
  stopActions.push({
    name: 'Temporal dev server',
    stop: async () => {
      await temporal.stop();
      rmSync(path.join(runDir, 'temporal.pid'), { force: true });
    },
  });
  if (temporal.pid) writeFileSync(path.join(runDir, 'temporal.pid'), String(temporal.pid));
  env.TEMPORAL_ADDRESS = temporal.address;
  if (temporal.uiUrl) env.TEMPORAL_UI_URL = temporal.uiUrl;
  return temporal.uiUrl;
}

async function buildUnlessCurrent() {
  // Hashing the build's inputs blocks for ~0.1 s: let the servers be spawned first.
  await new Promise((resolve) => setImmediate(resolve));
  await step('build (server, workflows, web app)', async () => {
    const { reason, inputs } = checkBuild();
    if (reason === undefined) {
      console.log('    up to date: no input changed since the last build');
      return;
    }
    console.log(`    building: ${reason}`);
    await build((name, ms) => console.log(`    ${name} (${(ms / 1000).toFixed(1)} s)`), {
      inputs,
      signal: stopBuild.signal,
    });
  });
}

async function main() {
  console.log(`Starting Tollgate${isDev ? ' (dev mode, hot reload)' : ''}`);
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  mkdirSync(runDir, { recursive: true });
  env.AUTH_SECRET = config.AUTH_SECRET ?? readOrCreateAuthSecret(path.join(dataDir, 'auth-secret'));
  // Before anything starts: a worker or API left by a SIGKILLed run would hold the port.
  for (const name of ['worker', 'api', 'web']) await stopLeftover(runDir, name, projectRoot);

  // Independent of one another, so they overlap.
  const [, temporalUiUrl] = await Promise.all([
    startDatabase(env),
    startTemporal(env),
    isDev ? undefined : buildUnlessCurrent(),
  ]);

  const [workerEntry, apiEntry] = isDev
    ? [
        [bin('tsx'), 'watch', '--clear-screen=false', 'temporal/main.ts'],
        [bin('tsx'), 'watch', '--clear-screen=false', 'api/main.ts'],
      ]
    : [
        [process.execPath, 'dist/temporal/main.js'],
        [process.execPath, 'dist/api/main.js'],
      ];

  const supervised = (name: string, [command, ...args]: string[], extraEnv: NodeJS.ProcessEnv = {}) => {
    const processHandle = new SupervisedProcess({
      name,
      command: command ?? process.execPath,
      args,
      env: { ...env, ...extraEnv },
      runDir,
      logFile: path.join(logsDir, `${name}.log`),
      restart: true,
      onLine: relayImportant(name),
    });
    return processHandle;
  };

  const worker = supervised('worker', workerEntry ?? []).start();
  stopActions.push({ name: 'worker', stop: () => worker.stop() });
  const api = supervised('api', apiEntry ?? []).start();
  stopActions.push({ name: 'API', stop: () => api.stop() });

  let appUrl = `http://localhost:${config.PORT}`;
  if (isDev) {
    const web = supervised('web', [bin('vite'), '--config', 'web/vite.config.ts'], {
      TOLLGATE_API_URL: `http://127.0.0.1:${config.PORT}`,
    }).start();
    stopActions.push({ name: 'web dev server', stop: () => web.stop() });
    appUrl = `http://localhost:${process.env.TOLLGATE_WEB_PORT ?? 5173}`;
  }

  await step('API ready (PostgreSQL, Temporal and a worker answering /readyz)', () =>
    waitFor(
      `http://127.0.0.1:${config.PORT}/readyz to answer 200 (logs: ${logsDir})`,
      async () => ((await fetch(`http://127.0.0.1:${config.PORT}/readyz`)).status === 200 ? true : undefined),
      { timeoutMs: 120_000, intervalMs: 100 },
    ),
  );
  worker.markHealthy();
  api.markHealthy();

  const lines = [
    `Tollgate is running${config.isSandbox ? ' in sandbox mode' : ''}`,
    `  App:          ${appUrl}`,
    `  API:          http://localhost:${config.PORT}/v1   (health: /healthz, readiness: /readyz)`,
    `  Temporal UI:  ${temporalUiUrl ?? `(external Temporal at ${config.TEMPORAL_ADDRESS})`}`,
    `  Logs:         ${logsDir}`,
    'Press Ctrl-C to stop.',
  ];
  console.log(`\n${lines.join('\n')}`);
}

main().catch(async (error: unknown) => {
  // A step cut short by Ctrl-C (the build, say) fails too; that is no news.
  if (shuttingDown) return;
  const message = error instanceof MissingToolError || error instanceof Error ? error.message : String(error);
  console.error(`tollgate: ${message}`);
  await shutdown(1, 'start-up failed');
});
