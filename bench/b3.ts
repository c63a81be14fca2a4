import os from 'node:os';
import { issueAccessToken } from '../domain/access-tokens/service.js';
import { createDb } from '../infra/db.js';
import { openToolingPostgres } from '../scripts/lib/local-database.js';
import {
  createBalance,
  createTokensMeter,
  freshBenchDatabase,
  loadTest,
  startServerProcess,
  type BenchmarkResult,
  type LoadResult,
} from './lib.js';

const LOAD = { connections: 32, durationSeconds: 10, warmupSeconds: 3 };
const cpus = os.availableParallelism();
/**
 * Pairs of off and on rounds of the metrics-cost figure: many short ones, each order as often,
 * so the figure (the median of the pairs' ratios) follows the cost rather than the machine's
 * drift, which on a shared two-core machine moves a 5 s round by more than the 5 % measured.
 */
const METRICS_PAIRS = 12;

/**
 * B3: token-authenticated one-row reads through the full middleware stack (the organization, and a
 * customer's state as a seller's app checks it on each of its requests) vs Express hello-world.
 * A second reference, the floor, is bare Express answering the same organization row read with
 * node-postgres: what one query over loopback costs on this machine with no Tollgate code at all.
 */
export async function runB3(): Promise<BenchmarkResult[]> {
  const postgres = await openToolingPostgres({ name: 'bench-postgres' });
  try {
    const databaseUrl = await freshBenchDatabase(postgres, 'b3');

    const db = createDb(databaseUrl);
    const organization = await db.organization.create({ data: { name: 'Bench Co', slug: 'bench-co' } });
    const customer = await db.customer.create({
      data: { organizationId: organization.id, email: 'app-user@example.test', externalId: 'user-1' },
    });
    await createBalance(db, await createTokensMeter(db, organization.id), customer.id);
    const { token } = await issueAccessToken(db, {
      organizationId: organization.id,
      comment: 'bench',
      createdById: null,
    });
    await db.$disconnect();

    const bare = await startServerProcess('bench/b3-server.ts', ['bare'], {});
    const baseline = await loadTest(`${bare.url}/hello`, LOAD);
    await bare.stop();

    const floorServer = await startServerProcess('bench/b3-server.ts', ['floor'], {
      DATABASE_URL: databaseUrl,
    });
    const floor = await loadTest(`${floorServer.url}/organizations/${organization.id}`, LOAD);
    await floorServer.stop();

    const full = await startServerProcess('bench/b3-server.ts', ['full'], { DATABASE_URL: databaseUrl });
    const authorized = { ...LOAD, headers: { authorization: `Bearer ${token}` } };
    const organizationRead = await loadTest(`${full.url}/v1/organizations/${organization.id}`, authorized);
    const stateRead = await loadTest(`${full.url}/v1/customers/${customer.id}/state`, authorized);
    await full.stop();

    // The cost of observability: the same read on two servers alive side by side, one with metrics
    // on (every request counted, /metrics scraped each second, beyond Prometheus' usual 15 s), loaded
    // in turn over alternating rounds so that the machine's drift (other work on its cores) falls
    // on both alike.
    const [unobserved, observed] = await Promise.all([
      startServerProcess('bench/b3-server.ts', ['full'], { DATABASE_URL: databaseUrl }),
      startServerProcess('bench/b3-server.ts', ['full'], {
        DATABASE_URL: databaseUrl,
        BENCH_METRICS: 'true',
      }),
    ]);
    let scrapes = 0;
    const scraper = setInterval(() => {
      void fetch(`${observed.url}/metrics`).then(async (answer) => {
        await answer.text();
        if (answer.ok) scrapes += 1;
      });
    }, 1000);
    type Round = { load: LoadResult; cpuMsPerRequest: number };
    const rounds: { off: Round; on: Round }[] = [];
    const round = { ...authorized, durationSeconds: 2, warmupSeconds: 0 };
    /** A round's throughput, and the CPU its server spent per request (what metrics add). */
    const measure = async (server: { url: string; cpuSeconds(): number }): Promise<Round> => {
      const url = `${server.url}/v1/organizations/${organization.id}`;
      await loadTest(url, { ...round, durationSeconds: 1 });
      const before = server.cpuSeconds();
      const load = await loadTest(url, round);
      const cpuSeconds = server.cpuSeconds() - before;
      return {
        load,
        cpuMsPerRequest: (cpuSeconds * 1000) / (load.requestsPerSecond * round.durationSeconds),
      };
    };
    // Each pair in the other order than the last (off-on, on-off, …): a drift during a pair then
    // falls on each side as often as on the other.
    for (let index = 0; index < METRICS_PAIRS; index += 1) {
      if (index % 2 === 0) {
        const off = await measure(unobserved);
        rounds.push({ off, on: await measure(observed) });
      } else {
        const on = await measure(observed);
        rounds.push({ on, off: await measure(unobserved) });
      }
    }
    clearInterval(scraper);
    await Promise.all([unobserved.stop(), observed.stop()]);
    const combined = (loads: LoadResult[]): LoadResult => ({
      requestsPerSecond: Math.round(
        loads.reduce((sum, load) => sum + load.requestsPerSecond, 0) / loads.length,
      ),
      p50Ms: Math.max(...loads.map((load) => load.p50Ms)),
      p99Ms: Math.max(...loads.map((load) => load.p99Ms)),
      non2xx: loads.reduce((sum, load) => sum + load.non2xx, 0),
      errors: loads.reduce((sum, load) => sum + load.errors, 0),
    });
    const metricsOff = combined(rounds.map((pair) => pair.off.load));
    const organizationReadObserved = combined(rounds.map((pair) => pair.on.load));
    const median = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      const middle = sorted.length / 2;
      return (sorted[middle - 1]! + sorted[middle]!) / 2;
    };
    const round3 = (value: number) => Math.round(value * 1000) / 1000;
    const throughputRatios = rounds.map(
      (pair) => pair.on.load.requestsPerSecond / pair.off.load.requestsPerSecond,
    );
    // Off's CPU over on's: 0.95 means 5 % more CPU per request with metrics, as throughput reads it.
    const cpuRatios = rounds.map((pair) => pair.off.cpuMsPerRequest / pair.on.cpuMsPerRequest);
    const cpuOff = median(rounds.map((pair) => pair.off.cpuMsPerRequest));
    const cpuOn = median(rounds.map((pair) => pair.on.cpuMsPerRequest));
    if (scrapes === 0) throw new Error('B3 with metrics: no scrape of /metrics succeeded during the load');

    // Scale-out: two API processes, the load split between them by the bench (half the
    // connections each, at once), as a load balancer in front of two replicas would.
    const replicas = await Promise.all(
      [0, 1].map(() => startServerProcess('bench/b3-server.ts', ['full'], { DATABASE_URL: databaseUrl })),
    );
    const halves = await Promise.all(
      replicas.map((replica) =>
        loadTest(`${replica.url}/v1/organizations/${organization.id}`, {
          ...authorized,
          connections: LOAD.connections / 2,
        }),
      ),
    );
    await Promise.all(replicas.map((replica) => replica.stop()));
    const twoProcesses: LoadResult = {
      requestsPerSecond: halves.reduce((sum, half) => sum + half.requestsPerSecond, 0),
      p50Ms: Math.max(...halves.map((half) => half.p50Ms)),
      p99Ms: Math.max(...halves.map((half) => half.p99Ms)),
      non2xx: halves.reduce((sum, half) => sum + half.non2xx, 0),
      errors: halves.reduce((sum, half) => sum + half.errors, 0),
    };

    for (const [name, load] of Object.entries({
      floor,
      organizationRead,
      metricsOff,
      organizationReadObserved,
      stateRead,
      twoProcesses,
    })) {
      if (load.non2xx > 0 || load.errors > 0) {
        throw new Error(`B3 ${name}: ${load.non2xx} non-2xx answers and ${load.errors} errors under load`);
      }
    }
    const measured = (name: string, load: LoadResult) => ({
      name,
      value: load.requestsPerSecond,
      unit: 'requests/s',
      details: { p50_ms: load.p50Ms, p99_ms: load.p99Ms },
    });
    const result = (name: string, load: LoadResult, what: string): BenchmarkResult => ({
      benchmark: 'B3',
      description: `${what} vs Express hello-world; autocannon, ${LOAD.connections} connections, ${LOAD.durationSeconds} s over loopback. Floor (bare Express + the organization row by node-postgres): ${floor.requestsPerSecond} requests/s, ratio ${ratio(floor, baseline)}`,
      figure: {
        ...measured(name, load),
        details: { p50_ms: load.p50Ms, p99_ms: load.p99Ms, share_of_floor: ratio(load, floor) },
      },
      baseline: measured('express hello-world', baseline),
      ratio: ratio(load, baseline),
    });
    return [
      result(
        'GET /v1/organizations/{id}',
        organizationRead,
        'token auth, org scope, one-row read, zod-validated response, access log',
      ),
      result(
        'GET /v1/organizations/{id} on two API processes',
        twoProcesses,
        `the organization read with the load split over two API processes (scale-out; on ${cpus} cores)`,
      ),
      result(
        'GET /v1/customers/{id}/state',
        stateRead,
        "a customer's state with one active meter (the balance check of a seller's app)",
      ),
      {
        benchmark: 'B3',
        description: `the organization read with metrics on (request counter and histogram, /metrics scraped each second: ${scrapes} scrapes) vs the same read with metrics off, same run, ${METRICS_PAIRS} pairs of ${round.durationSeconds} s rounds in alternating order; figure and baseline are the rounds' mean requests/s, the ratio the median of the pairs' ratios (${throughputRatios
          .map((each) => each.toFixed(2))
          .sort()
          .join(', ')}); the issue's budget is a ratio of at least 0.95`,
        figure: measured('GET /v1/organizations/{id} with metrics on', organizationReadObserved),
        baseline: measured('GET /v1/organizations/{id} with metrics off', metricsOff),
        ratio: round3(median(throughputRatios)),
      },
      {
        benchmark: 'B3',
        description: `the server's CPU per request of the same rounds (user + system, from /proc), metrics on vs off: less sensitive than throughput to what else the machine's cores run; ratio = off / on, the median of the pairs' (${cpuRatios
          .map((each) => each.toFixed(2))
          .sort()
          .join(', ')}), so 0.95 is 5 % more CPU per request with metrics`,
        figure: { name: 'CPU per request with metrics on', value: round3(cpuOn), unit: 'ms' },
        baseline: { name: 'CPU per request with metrics off', value: round3(cpuOff), unit: 'ms' },
        ratio: round3(median(cpuRatios)),
      },
    ];
  } finally {
    await postgres.stop();
  }
}

const ratio = (figure: { requestsPerSecond: number }, baseline: { requestsPerSecond: number }) =>
  Math.round((figure.requestsPerSecond / baseline.requestsPerSecond) * 1000) / 1000;
