import { readFileSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import pg from 'pg';
import { stopChild } from '../infra/processes.js';
import type { Db } from '../infra/db.js';
import { migrateDeploy } from '../scripts/lib/prisma-cli.js';
import { projectRoot } from '../scripts/lib/paths.js';

export type Measurement = { name: string; value: number; unit: string; details?: Record<string, number> };

export type BenchmarkResult = {
  benchmark: string;
  description: string;
  figure: Measurement;
  baseline: Measurement;
  /** figure / baseline, in the figure's unit; B7, whose figure is a cost per workflow, gives it against its goal. */
  ratio: number;
};

export function printResult(result: BenchmarkResult) {
  console.log(JSON.stringify(result));
}

export type LoadResult = {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
};

/** Drives `url` over loopback; a short warm-up run (JIT, pools) is discarded first. */
export async function loadTest(
  url: string,
  options: {
    headers?: Record<string, string>;
    method?: 'GET' | 'POST';
    body?: string;
    connections: number;
    durationSeconds: number;
    warmupSeconds: number;
  },
): Promise<LoadResult> {
  const run = (duration: number) =>
    autocannon({
      url,
      // autocannon refuses an explicit `undefined` method (and then never settles): leave it out.
      ...(options.method ? { method: options.method } : {}),
      ...(options.body ? { body: options.body } : {}),
      headers: options.headers,
      connections: options.connections,
      duration,
    });
  await run(options.warmupSeconds);
  const result = await run(options.durationSeconds);
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/**
 * Starts a bench server script in its own process (the load generator must not share its event
 * loop), with `nodeArgs` for Node itself (e.g. --expose-gc); resolves when it prints `listening on`.
 */
export async function startServerProcess(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  nodeArgs: string[] = [],
): Promise<{ url: string; stop(): Promise<void>; cpuSeconds(): number }> {
  // BENCH_CPU_PROFILE_DIR=<dir>: each server writes a V8 CPU profile there when stopped (open it
  // in Chrome's DevTools or speedscope); the figures of a profiled run are not comparable.
  const profileDir = process.env.BENCH_CPU_PROFILE_DIR;
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
      ...nodeArgs,
      '--import',
      'tsx',
      script,
      ...args,
    ],
    {
      cwd: projectRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with code ${code}: ${output}`)));
  });
  return {
    url,
    // SIGKILL if it has not exited 30 s after SIGTERM, so a hung server never holds the bench.
    stop: () => stopChild(child, { signal: 'SIGTERM', graceMs: 30_000 }),
    cpuSeconds: () => processCpuSeconds(child.pid!),
  };
}

/** Linux's clock ticks per second (`getconf CLK_TCK`), which /proc/<pid>/stat counts in. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * The CPU a process has used so far (user and system), from /proc: what a server spent on the
 * work it served, whatever else the machine's cores were doing meanwhile.
 */
export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [utime, stime] = [Number(fields[11]), Number(fields[12])];
  return (utime + stime) / CLOCK_TICKS_PER_SECOND;
}

/** `tollgate_bench_<name>` dropped, created and migrated on the bench cluster; its URL. */
export async function freshBenchDatabase(
  postgres: { adminUrl: string; urlFor(database: string): string },
  name: string,
): Promise<string> {
  const database = `tollgate_bench_${name}`;
  const admin = new pg.Client({ connectionString: postgres.adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${database}`);
  } finally {
    await admin.end();
  }
  const databaseUrl = postgres.urlFor(database);
  await migrateDeploy(databaseUrl);
  return databaseUrl;
}

/**
 * A baseline without HTTP: `clients` loops calling `operation` back to back for `seconds`, after a
 * discarded warm-up as long as the load test's. Calls per second and per-call latency.
 */
export async function runConcurrently(
  operation: () => Promise<unknown>,
  options: { clients: number; durationSeconds: number; warmupSeconds: number },
): Promise<{ callsPerSecond: number; p50Ms: number; p99Ms: number }> {
  const run = async (seconds: number) => {
    const latencies: number[] = [];
    const deadline = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: options.clients }, async () => {
        while (performance.now() < deadline) {
          const began = performance.now();
          await operation();
          latencies.push(performance.now() - began);
        }
      }),
    );
    return latencies;
  };
  await run(options.warmupSeconds);
  const began = performance.now();
  const latencies = await run(options.durationSeconds);
  const seconds = (performance.now() - began) / 1000;
  const sorted = latencies.sort((a, b) => a - b);
  const nearestRank = (p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? Number.NaN;
  return {
    callsPerSecond: latencies.length / seconds,
    p50Ms: Math.round(nearestRank(0.5) * 10) / 10,
    p99Ms: Math.round(nearestRank(0.99) * 10) / 10,
  };
}

/** The meter a seller of an AI API bills by: the sum of `tokens` over `api_call` events. */
export function createTokensMeter(db: Db, organizationId: string) {
  return db.meter.create({
    data: {
      organizationId,
      name: 'Tokens',
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'api_call' }] },
      aggregation: { func: 'sum', property: 'tokens' },
    },
  });
}

/** A balance for customer state to read: the customer's meter as the refresher writes it. */
export function createBalance(db: Db, meter: { id: string; organizationId: string }, customerId: string) {
  return db.customerMeter.create({
    data: {
      organizationId: meter.organizationId,
      customerId,
      meterId: meter.id,
      consumedUnits: 1234,
      creditedUnits: 5000,
      balance: 3766,
    },
  });
}
