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
/** Alternating off / on rounds of the metrics-cost figure. */
const METRICS_ROUNDS = 3;

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
    const rounds: { off: LoadResult; on: LoadResult }[] = [];
    const round = { ...authorized, durationSeconds: 5, warmupSeconds: 2 };
    for (let index = 0; index < METRICS_ROUNDS; index += 1) {
      const off = await loadTest(`${unobserved.url}/v1/organizations/${organization.id}`, round);
      const on = await loadTest(`${observed.url}/v1/organizations/${organization.id}`, round);
      rounds.push({ off, on });
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
    const metricsOff = combined(rounds.map((pair) => pair.off));
    const organizationReadObserved = combined(rounds.map((pair) => pair.on));
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
        description: `the organization read with metrics on (request counter and histogram, /metrics scraped each second: ${scrapes} scrapes) vs the same read with metrics off, same run, ${METRICS_ROUNDS} alternating rounds of ${round.durationSeconds} s each (mean requests/s); the issue's budget is a ratio of at least 0.95`,
        figure: measured('GET /v1/organizations/{id} with metrics on', organizationReadObserved),
        baseline: measured('GET /v1/organizations/{id} with metrics off', metricsOff),
        ratio: ratio(organizationReadObserved, metricsOff),
      },
    ];
  } finally {
    await postgres.stop();
  }
}

const ratio = (figure: { requestsPerSecond: number }, baseline: { requestsPerSecond: number }) =>
  Math.round((figure.requestsPerSecond / baseline.requestsPerSecond) * 1000) / 1000;
