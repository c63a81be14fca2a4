// B2: reading usage back. (1) `GET /v1/meters/{id}/quantities` for one customer's month by day in a
// table of B2_EVENTS events (10 million by default) against the hand-written SQL for the same
// answer, from the same number of clients; (2) `GET /v1/customers/{id}/state` (what a seller's app
// checks a balance with on every request) against an Express hello-world. A floor for (1): bare
// Express running the hand-written SQL behind the same HTTP load, which is what any HTTP API
// in front of that query can reach on this machine.
//
// The events are written by one INSERT … SELECT over generate_series (ids in UUIDv7 order, as
// ingestion makes them), their indexes built afterwards as a restore would: a fresh table's
// writes are not what this measures. Takes a few minutes for 10 million rows on 2 cores.
import { issueAccessToken } from '../domain/access-tokens/service.js';
import { createDb, type Db } from '../infra/db.js';
import { openToolingPostgres } from '../scripts/lib/local-database.js';
import { HAND_WRITTEN_QUANTITIES_SQL } from './b2-sql.js';
import {
  createBalance,
  createTokensMeter,
  freshBenchDatabase,
  loadTest,
  runConcurrently,
  startServerProcess,
  type BenchmarkResult,
} from './lib.js';

const EVENTS = Number(process.env.B2_EVENTS ?? 10_000_000);
const CUSTOMERS = 1000;
/** The events span this year: one customer's month is ~EVENTS / CUSTOMERS / 12 events. */
const YEAR_START = Date.UTC(2026, 0, 1);
const YEAR_MS = 365 * 24 * 3_600_000;
const LOAD = { connections: 8, durationSeconds: 10, warmupSeconds: 3 };
const STATE_LOAD = { connections: 32, durationSeconds: 10, warmupSeconds: 3 };

export async function runB2(): Promise<BenchmarkResult[]> {
  const postgres = await openToolingPostgres({ name: 'bench-postgres' });
  try {
    const databaseUrl = await freshBenchDatabase(postgres, 'b2');
    const db = createDb(databaseUrl, { maxConnections: LOAD.connections });
    const organization = await db.organization.create({ data: { name: 'Bench Co', slug: 'bench-b2' } });
    await db.customer.createMany({
      data: Array.from({ length: CUSTOMERS }, (_, index) => ({
        organizationId: organization.id,
        email: `user${index}@example.test`,
        externalId: `user-${index}`,
      })),
    });
    const customer = await db.customer.findFirstOrThrow({
      where: { organizationId: organization.id, externalId: 'user-7' },
    });
    const meter = await createTokensMeter(db, organization.id);
    const loadSeconds = await loadEvents(db, organization.id);
    await createBalance(db, meter, customer.id);
    const { token } = await issueAccessToken(db, {
      organizationId: organization.id,
      comment: 'bench',
      createdById: null,
    });

    const start = new Date(Date.UTC(2026, 5, 1));
    const end = new Date(Date.UTC(2026, 6, 1) - 1);
    const query = new URLSearchParams({
      start_timestamp: start.toISOString(),
      end_timestamp: end.toISOString(),
      interval: 'day',
      customer_id: customer.id,
    });
    const baseline = await runConcurrently(() => handWrittenQuantities(db, customer.id, start, end), {
      clients: LOAD.connections,
      durationSeconds: LOAD.durationSeconds,
      warmupSeconds: LOAD.warmupSeconds,
    });
    const monthEvents = await db.event.count({
      where: { customerId: customer.id, timestamp: { gte: start, lte: end } },
    });
    await db.$disconnect();

    const bare = await startServerProcess('bench/b3-server.ts', ['bare'], {});
    const hello = await loadTest(`${bare.url}/hello`, STATE_LOAD);
    await bare.stop();

    const floorServer = await startServerProcess('bench/b3-server.ts', ['quantities-floor'], {
      DATABASE_URL: databaseUrl,
    });
    const floor = await loadTest(
      `${floorServer.url}/quantities?${new URLSearchParams({ customer_id: customer.id, start: start.toISOString(), end: end.toISOString() })}`,
      LOAD,
    );
    await floorServer.stop();
    const stateFloorServer = await startServerProcess('bench/b3-server.ts', ['state-floor'], {
      DATABASE_URL: databaseUrl,
    });
    const stateFloor = await loadTest(
      `${stateFloorServer.url}/customers/${customer.id}/state?organization_id=${organization.id}`,
      STATE_LOAD,
    );
    await stateFloorServer.stop();

    const full = await startServerProcess('bench/b3-server.ts', ['full'], { DATABASE_URL: databaseUrl });
    const headers = { authorization: `Bearer ${token}` };
    const quantities = await loadTest(`${full.url}/v1/meters/${meter.id}/quantities?${query}`, {
      ...LOAD,
      headers,
    });
    const state = await loadTest(`${full.url}/v1/customers/${customer.id}/state`, { ...STATE_LOAD, headers });
    await full.stop();
    for (const [name, result] of [
      ['quantities floor', floor],
      ['state floor', stateFloor],
      ['quantities', quantities],
      ['state', state],
    ] as const) {
      if (result.non2xx > 0 || result.errors > 0) {
        throw new Error(
          `B2 ${name}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`,
        );
      }
    }
    const round = (value: number) => Math.round(value * 1000) / 1000;
    return [
      {
        benchmark: 'B2',
        description: `GET /v1/meters/{id}/quantities (sum meter, one customer's month by day: ${monthEvents} events of ${EVENTS} in the table, loaded in ${loadSeconds} s) through the API in its own process vs the hand-written SQL for the same buckets and total from this process without HTTP; ${LOAD.connections} clients each, ${LOAD.durationSeconds} s. Floor (bare Express running the hand-written SQL with node-postgres, same load): ${floor.requestsPerSecond} requests/s, ratio ${round(floor.requestsPerSecond / baseline.callsPerSecond)}`,
        figure: {
          name: 'meter quantities',
          value: quantities.requestsPerSecond,
          unit: 'requests/s',
          details: {
            p50_ms: quantities.p50Ms,
            p99_ms: quantities.p99Ms,
            share_of_floor: round(quantities.requestsPerSecond / floor.requestsPerSecond),
          },
        },
        baseline: {
          name: 'hand-written SQL',
          value: Math.round(baseline.callsPerSecond),
          unit: 'queries/s',
          details: { p50_ms: baseline.p50Ms, p99_ms: baseline.p99Ms },
        },
        ratio: round(quantities.requestsPerSecond / baseline.callsPerSecond),
      },
      {
        benchmark: 'B2',
        description: `GET /v1/customers/{id}/state (token auth, the customer, subscriptions, grants and meter balances) vs Express hello-world; autocannon, ${STATE_LOAD.connections} connections, ${STATE_LOAD.durationSeconds} s over loopback, same table. Floor (bare Express running customer state's statement with node-postgres): ${stateFloor.requestsPerSecond} requests/s, ratio ${round(stateFloor.requestsPerSecond / hello.requestsPerSecond)}`,
        figure: {
          name: 'customer state (balance check)',
          value: state.requestsPerSecond,
          unit: 'requests/s',
          details: {
            p50_ms: state.p50Ms,
            p99_ms: state.p99Ms,
            share_of_floor: round(state.requestsPerSecond / stateFloor.requestsPerSecond),
          },
        },
        baseline: {
          name: 'express hello-world',
          value: hello.requestsPerSecond,
          unit: 'requests/s',
          details: { p50_ms: hello.p50Ms, p99_ms: hello.p99Ms },
        },
        ratio: round(state.requestsPerSecond / hello.requestsPerSecond),
      },
    ];
  } finally {
    await postgres.stop();
  }
}

/** EVENTS events spread evenly over the year and the customers; seconds it took. */
async function loadEvents(db: Db, organizationId: string): Promise<number> {
  const began = performance.now();
  const indexes = await db.sql.query<{ indexdef: string; indexname: string }>(
    `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'events' AND indexname <> 'events_pkey'`,
  );
  for (const index of indexes.rows) await db.sql.query(`DROP INDEX ${index.indexname}`);
  await db.sql.query(
    `WITH customers_in_order AS (
       SELECT array_agg(id ORDER BY external_id) AS ids FROM customers WHERE organization_id = $1
     )
     INSERT INTO events (id, organization_id, name, source, timestamp, customer_id, external_customer_id, metadata)
     SELECT (lpad(to_hex(i), 12, '0') || '7000' || '8000' || lpad(to_hex(i), 12, '0'))::uuid,
            $1, CASE WHEN i % 10 = 0 THEN 'storage' ELSE 'api_call' END, 'user',
            to_timestamp(($2::bigint + (i::bigint * $3::bigint / $4::bigint)) / 1000.0),
            c.ids[1 + (i % ${CUSTOMERS})], NULL,
            jsonb_build_object('tokens', i % 997, 'model', 'gpt-4o')
     FROM customers_in_order c, generate_series(1, $4::bigint) AS i`,
    [organizationId, YEAR_START, YEAR_MS, EVENTS],
  );
  for (const index of indexes.rows) await db.sql.query(index.indexdef);
  await db.sql.query('ANALYZE events');
  return Math.round((performance.now() - began) / 1000);
}

/** The same buckets and total, written by hand for this one meter (sum of tokens of api_call). */
async function handWrittenQuantities(db: Db, customerId: string, start: Date, end: Date) {
  const { rows } = await db.sql.query(HAND_WRITTEN_QUANTITIES_SQL, [customerId, start, end]);
  return rows;
}
