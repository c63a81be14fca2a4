// B1: usage events ingested per second through POST /v1/events/ingest (batches of 1,000 events,
// 8 concurrent clients) against the same rows written by the bare statement the endpoint runs,
// from 8 connections of this process, in the same run on the same database.
//
// The figure's server is B3's `full` server (the API as deployed: token auth, scope, rate limit,
// zod validation of every event, customer checks, one INSERT … unnest, response validation), in
// its own process. The baseline skips HTTP, JSON and every check: `insertEvents` on a pool.
import { issueAccessToken } from '../domain/access-tokens/service.js';
import { insertEvents, type NewEvent } from '../domain/usage/repository.js';
import { createDb } from '../infra/db.js';
import { openToolingPostgres } from '../scripts/lib/local-database.js';
import {
  freshBenchDatabase,
  loadTest,
  runConcurrently,
  startServerProcess,
  type BenchmarkResult,
} from './lib.js';

const BATCH = 1000;
const CLIENTS = 8;
const LOAD = { connections: CLIENTS, durationSeconds: 10, warmupSeconds: 3 };

export async function runB1(): Promise<BenchmarkResult> {
  const postgres = await openToolingPostgres({ name: 'bench-postgres' });
  try {
    const databaseUrl = await freshBenchDatabase(postgres, 'b1');

    const db = createDb(databaseUrl, { maxConnections: CLIENTS });
    const organization = await db.organization.create({ data: { name: 'Bench Co', slug: 'bench-b1' } });
    const customer = await db.customer.create({
      data: { organizationId: organization.id, email: 'usage@example.test', externalId: 'user-1' },
    });
    const { token } = await issueAccessToken(db, {
      organizationId: organization.id,
      comment: 'bench',
      createdById: null,
    });
    // Half by id, half by external id: both lookups are exercised.
    const body = JSON.stringify({
      events: Array.from({ length: BATCH }, (_, index) => ({
        name: 'api_call',
        ...(index % 2 === 0 ? { customer_id: customer.id } : { external_customer_id: 'user-1' }),
        metadata: { route: '/v1/chat/completions', tokens: index, model: 'gpt-4o' },
      })),
    });

    const baseline = await bareInserts(db, organization.id, customer.id);

    const full = await startServerProcess('bench/b3-server.ts', ['full'], { DATABASE_URL: databaseUrl });
    const figure = await loadTest(`${full.url}/v1/events/ingest`, {
      ...LOAD,
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    await full.stop();
    const stored = await db.event.count({ where: { organizationId: organization.id } });
    await db.$disconnect();

    if (figure.non2xx > 0 || figure.errors > 0) {
      throw new Error(`B1: ${figure.non2xx} non-2xx answers and ${figure.errors} errors under load`);
    }
    const eventsPerSecond = figure.requestsPerSecond * BATCH;
    return {
      benchmark: 'B1',
      description: `POST /v1/events/ingest, ${BATCH} events per call, ${CLIENTS} concurrent clients (autocannon, ${LOAD.durationSeconds} s over loopback, the API in its own process) vs the endpoint's own INSERT … unnest of ${BATCH} rows from ${CLIENTS} connections without HTTP or checks, same database, same run`,
      figure: {
        name: 'events ingested',
        value: eventsPerSecond,
        unit: 'events/s',
        details: { batch_p50_ms: figure.p50Ms, batch_p99_ms: figure.p99Ms, rows_stored: stored },
      },
      baseline: {
        name: 'bare INSERT … unnest',
        value: baseline.rowsPerSecond,
        unit: 'events/s',
        details: { batch_p50_ms: baseline.p50Ms, batch_p99_ms: baseline.p99Ms },
      },
      ratio: Math.round((eventsPerSecond / baseline.rowsPerSecond) * 1000) / 1000,
    };
  } finally {
    await postgres.stop();
  }
}

/** The endpoint's statement alone: 8 connections inserting batches back to back. */
async function bareInserts(db: ReturnType<typeof createDb>, organizationId: string, customerId: string) {
  const rows: NewEvent[] = Array.from({ length: BATCH }, (_, index) => ({
    organizationId,
    name: 'api_call',
    source: 'user',
    timestamp: new Date(),
    customerId,
    externalCustomerId: index % 2 === 0 ? null : 'user-1',
    externalId: null,
    metadata: { route: '/v1/chat/completions', tokens: index, model: 'gpt-4o' },
  }));
  const measured = await runConcurrently(() => insertEvents(db.sql, rows), {
    clients: CLIENTS,
    durationSeconds: LOAD.durationSeconds,
    warmupSeconds: LOAD.warmupSeconds,
  });
  return {
    rowsPerSecond: Math.round(measured.callsPerSecond * BATCH),
    p50Ms: measured.p50Ms,
    p99Ms: measured.p99Ms,
  };
}
