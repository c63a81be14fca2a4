import { issueAccessToken } from '../domain/access-tokens/service.js';
import { createDb } from '../infra/db.js';
import { openToolingPostgres } from '../scripts/lib/local-database.js';
import { freshBenchDatabase, loadTest, startServerProcess, type BenchmarkResult } from './lib.js';

const LOAD = { connections: 32, durationSeconds: 10, warmupSeconds: 3 };

/** B3: a one-row /v1 read through the full middleware stack vs Express hello-world. */
export async function runB3(): Promise<BenchmarkResult> {
  const postgres = await openToolingPostgres({ name: 'bench-postgres' });
  try {
    const databaseUrl = await freshBenchDatabase(postgres, 'b3');

    const db = createDb(databaseUrl);
    const organization = await db.organization.create({ data: { name: 'Bench Co', slug: 'bench-co' } });
    const { token } = await issueAccessToken(db, {
      organizationId: organization.id,
      comment: 'bench',
      createdById: null,
    });
    await db.$disconnect();

    const bare = await startServerProcess('bench/b3-server.ts', ['bare'], {});
    const baseline = await loadTest(`${bare.url}/hello`, LOAD);
    await bare.stop();

    const full = await startServerProcess('bench/b3-server.ts', ['full'], { DATABASE_URL: databaseUrl });
    const figure = await loadTest(`${full.url}/v1/organizations/${organization.id}`, {
      ...LOAD,
      headers: { authorization: `Bearer ${token}` },
    });
    await full.stop();

    if (figure.non2xx > 0 || figure.errors > 0) {
      throw new Error(`B3: ${figure.non2xx} non-2xx answers and ${figure.errors} errors under load`);
    }
    return {
      benchmark: 'B3',
      description: `GET /v1/organizations/{id} (token auth, org scope, one-row read, zod-validated response, access log) vs Express hello-world; autocannon, ${LOAD.connections} connections, ${LOAD.durationSeconds} s over loopback`,
      figure: {
        name: 'GET /v1/organizations/{id}',
        value: figure.requestsPerSecond,
        unit: 'requests/s',
        details: { p50_ms: figure.p50Ms, p99_ms: figure.p99Ms },
      },
      baseline: {
        name: 'express hello-world',
        value: baseline.requestsPerSecond,
        unit: 'requests/s',
        details: { p50_ms: baseline.p50Ms, p99_ms: baseline.p99Ms },
      },
      ratio: Math.round((figure.requestsPerSecond / baseline.requestsPerSecond) * 1000) / 1000,
    };
  } finally {
    await postgres.stop();
  }
}
