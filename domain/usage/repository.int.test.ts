// Property tests: the SQL of meter filters, aggregations, buckets and customer meters against a
// naive computation in memory over random events (a seeded generator, so a failure names the seed that found it).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { createOrganization } from '../../test/factories.js';
import { refreshStaleCustomerMeters } from '../customer-meters/service.js';
import type { Aggregation, Filter, FilterClause } from '../meters/schemas.js';
import { insertEvents, listEventRows, meterQuantityRows, type NewEvent } from './repository.js';
import { eventMatches, SYSTEM_EVENT_NAMES } from './rules.js';
import type { TimeInterval } from './schemas.js';
import { markCustomerMetersStale } from '../customers/repository.js';

let database: TestDatabase;
let organizationId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  organizationId = (await createOrganization(database.db)).id;
});
afterAll(async () => {
  await database.drop();
});

/** Mulberry32: small, seeded, good enough to pick test data. */
function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!;
  return { next, int, pick };
}

type Random = ReturnType<typeof generator>;

const NAMES = ['api_call', 'storage', 'api_error', 'login'];
const WORDS = ['alpha', 'beta', 'gamma', 'al', 'ta', 't', 'f', '5', '12'];
const KEYS = ['model', 'tokens', 'cached', 'region'];

function randomValue(random: Random): string | number | boolean {
  switch (random.int(0, 3)) {
    case 0:
      return random.pick(WORDS);
    case 1:
      return random.int(-5, 20);
    case 2:
      return random.int(0, 200) / 8;
    default:
      return random.next() < 0.5;
  }
}

function randomEvent(random: Random, startMs: number, spanMs: number): NewEvent {
  const metadata: Record<string, string | number | boolean> = {};
  for (const key of KEYS) if (random.next() < 0.7) metadata[key] = randomValue(random);
  return {
    organizationId,
    name: random.pick(NAMES),
    source: 'user',
    timestamp: new Date(startMs + Math.floor(random.next() * spanMs)),
    customerId: null,
    externalCustomerId: null,
    externalId: null,
    metadata,
  };
}

function randomClause(random: Random): FilterClause {
  const property = random.pick(['name', 'source', ...KEYS, 'metadata.tokens']);
  const operator = random.pick(['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'like', 'not_like'] as const);
  const value =
    property === 'name' && random.next() < 0.6
      ? random.pick(NAMES)
      : ((): string | number | boolean => {
          const value = randomValue(random);
          // A clause takes integers only (spec §4).
          return typeof value === 'number' ? Math.round(value) : value;
        })();
  return { property, operator, value };
}

function randomFilter(random: Random, depth = 0): Filter {
  const clauses = Array.from({ length: random.int(0, 3) }, () =>
    depth < 2 && random.next() < 0.3 ? randomFilter(random, depth + 1) : randomClause(random),
  );
  return { conjunction: random.pick(['and', 'or'] as const), clauses };
}

describe('meter filters, aggregations and buckets in SQL', () => {
  const START = Date.UTC(2026, 0, 1);
  const SPAN = 45 * 24 * 3_600_000;
  let events: NewEvent[] = [];

  beforeAll(async () => {
    const random = generator(20261124);
    events = Array.from({ length: 600 }, () => randomEvent(random, START, SPAN));
    await insertEvents(database.db.sql, events);
  });

  it('selects exactly the events a random filter matches in memory (300 filters)', async () => {
    const random = generator(7);
    for (let round = 0; round < 300; round += 1) {
      const filter = randomFilter(random);
      const { rows } = await listEventRows(
        database.db.sql,
        { organizationIds: [organizationId], filter },
        'asc',
        { skip: 0, take: 1000 },
      );
      const expected = events.filter((event) => eventMatches(filter, event)).length;
      expect({ round, filter, count: rows.length }).toEqual({ round, filter, count: expected });
    }
  });

  it('aggregates each bucket and the whole range as the meter says (100 random questions)', async () => {
    const random = generator(11);
    const DAY = 24 * 3_600_000;
    for (let round = 0; round < 100; round += 1) {
      const interval = random.pick([
        'hour',
        'day',
        'week',
        'month',
      ] as const satisfies readonly TimeInterval[]);
      const startMs = START + random.int(0, 40) * DAY + random.int(0, 23) * 3_600_000;
      const lengthMs = (interval === 'hour' ? random.int(1, 48) * 3_600_000 : random.int(1, 60) * DAY) - 1;
      const func = random.pick(['count', 'sum', 'max', 'min', 'avg'] as const);
      const aggregation: Aggregation = func === 'count' ? { func } : { func, property: 'tokens' };
      const filter = randomFilter(random);
      const answer = await meterQuantityRows(database.db.sql, {
        where: { organizationIds: [organizationId], filter },
        aggregation,
        interval,
        timeZone: 'UTC',
        start: new Date(startMs),
        end: new Date(startMs + lengthMs),
      });
      const inRange = events.filter(
        (event) =>
          event.timestamp.getTime() >= startMs &&
          event.timestamp.getTime() <= startMs + lengthMs &&
          eventMatches(filter, event),
      );
      const expectedStarts = bucketStarts(interval, startMs, startMs + lengthMs);
      const expectedBuckets = expectedStarts.map((bucketStart, index) => {
        const bucketEnd = expectedStarts[index + 1] ?? Number.POSITIVE_INFINITY;
        return aggregate(
          aggregation,
          inRange.filter(
            (event) => event.timestamp.getTime() >= bucketStart && event.timestamp.getTime() < bucketEnd,
          ),
        );
      });
      const close = (value: number) => Math.round(value * 1e9) / 1e9;
      expect({
        round,
        starts: answer.buckets.map((bucket) => bucket.timestamp.getTime()),
        quantities: answer.buckets.map((bucket) => close(bucket.quantity)),
        total: close(answer.total),
      }).toEqual({
        round,
        starts: expectedStarts,
        quantities: expectedBuckets.map(close),
        total: close(aggregate(aggregation, inRange)),
      });
    }
  });
});

describe('customer meters recomputed from events', () => {
  const START = Date.UTC(2026, 2, 1);
  const SPAN = 20 * 24 * 3_600_000;
  type Customer = { id: string; externalId: string | null };
  type Meter = { id: string; filter: Filter; aggregation: Aggregation };
  let tenantId: string;
  let customers: Customer[];
  let meters: Meter[];
  const events: NewEvent[] = [];

  beforeAll(async () => {
    const random = generator(20261125);
    tenantId = (await createOrganization(database.db)).id;
    customers = [];
    for (let index = 0; index < 6; index += 1) {
      const row = await database.db.customer.create({
        data: {
          organizationId: tenantId,
          email: `c${index}@example.test`,
          externalId: index % 2 === 0 ? `user-${index}` : null,
        },
      });
      customers.push({ id: row.id, externalId: row.externalId });
    }
    meters = [];
    for (let index = 0; index < 8; index += 1) {
      const func = random.pick(['count', 'sum', 'max', 'min', 'avg'] as const);
      const aggregation: Aggregation = func === 'count' ? { func } : { func, property: 'tokens' };
      const filter = randomFilter(random);
      const row = await database.db.meter.create({
        data: { organizationId: tenantId, name: `m${index}`, filter, aggregation },
      });
      meters.push({ id: row.id, filter, aggregation });
    }
  });

  /** Random usage, credits and resets for the organization's customers (some by external id only). */
  function randomBatch(random: Random, count: number): NewEvent[] {
    return Array.from({ length: count }, () => {
      const customer = random.pick(customers);
      const unattached = customer.externalId !== null && random.next() < 0.3;
      const owner = {
        organizationId: tenantId,
        customerId: unattached ? null : customer.id,
        externalCustomerId: customer.externalId,
      };
      const roll = random.next();
      if (roll < 0.1) {
        const meter = random.pick(meters);
        const name = roll < 0.03 ? SYSTEM_EVENT_NAMES.meterReset : SYSTEM_EVENT_NAMES.meterCredited;
        return {
          ...randomEvent(random, START, SPAN),
          ...owner,
          customerId: customer.id,
          name,
          source: 'system',
          metadata: {
            meter_id: meter.id,
            ...(name === 'meter.credited' ? { units: random.int(1, 50) } : {}),
          },
        };
      }
      return { ...randomEvent(random, START, SPAN), ...owner, organizationId: tenantId };
    });
  }

  /** What a customer meter should say, from the events alone. */
  function expectedMeters() {
    const expected: { customerId: string; meterId: string; consumed: number; credited: number }[] = [];
    for (const customer of customers) {
      const own = events.filter(
        (event) =>
          event.customerId === customer.id ||
          (event.customerId === null &&
            customer.externalId !== null &&
            event.externalCustomerId === customer.externalId),
      );
      for (const meter of meters) {
        const ofMeter = (event: NewEvent) =>
          event.source === 'system' && event.metadata.meter_id === meter.id;
        const resets = own
          .filter((event) => ofMeter(event) && event.name === SYSTEM_EVENT_NAMES.meterReset)
          .map((event) => event.timestamp.getTime());
        const from = resets.length > 0 ? Math.max(...resets) : Number.NEGATIVE_INFINITY;
        const window = own.filter((event) => event.timestamp.getTime() >= from);
        const counted = window.filter(
          (event) => event.source === 'user' && eventMatches(meter.filter, event),
        );
        const credits = window.filter(
          (event) => ofMeter(event) && event.name === SYSTEM_EVENT_NAMES.meterCredited,
        );
        if (counted.length === 0 && !window.some(ofMeter)) continue;
        expected.push({
          customerId: customer.id,
          meterId: meter.id,
          consumed: aggregate(meter.aggregation, counted),
          credited: credits.reduce((sum, event) => sum + (event.metadata.units as number), 0),
        });
      }
    }
    return expected;
  }

  async function storedMeters() {
    const rows = await database.db.customerMeter.findMany({ where: { organizationId: tenantId } });
    return rows.map((row) => ({
      customerId: row.customerId,
      meterId: row.meterId,
      consumed: row.consumedUnits.toNumber(),
      credited: row.creditedUnits.toNumber(),
      balance: row.balance.toNumber(),
    }));
  }

  const close = (value: number) => Math.round(value * 1e9) / 1e9;
  const normalized = <T extends { customerId: string; meterId: string; consumed: number; credited: number }>(
    rows: T[],
  ) =>
    rows
      .map((row) => ({ ...row, consumed: close(row.consumed), credited: close(row.credited) }))
      .sort((a, b) => `${a.customerId}${a.meterId}`.localeCompare(`${b.customerId}${b.meterId}`));

  async function drain() {
    while ((await refreshStaleCustomerMeters(database.db)).customers > 0);
  }

  it('says what the events say after every batch, windows since the last reset, credits included', async () => {
    const random = generator(99);
    // Marks for the customers whose events arrive by external id only come from `insertEvents`
    // only for attached events; the unattached ones are theirs through the external id.
    await markCustomerMetersStale(
      database.db,
      customers.map((customer) => customer.id),
    );
    for (let round = 0; round < 4; round += 1) {
      const batch = randomBatch(random, 150);
      events.push(...batch);
      await insertEvents(database.db.sql, batch);
      await markCustomerMetersStale(
        database.db,
        customers.map((customer) => customer.id),
      );
      await drain();
      const stored = await storedMeters();
      for (const row of stored) expect(close(row.balance)).toBe(close(row.credited - row.consumed));
      // A row that existed stays (at zero if its events left the window); the others match exactly.
      const expected = normalized(expectedMeters());
      const withoutEmpty = normalized(stored).filter(
        (row) =>
          expected.some((want) => want.customerId === row.customerId && want.meterId === row.meterId) ||
          row.consumed !== 0 ||
          row.credited !== 0,
      );
      expect({ round, meters: withoutEmpty.map(({ balance: _, ...row }) => row) }).toEqual({
        round,
        meters: expected,
      });
    }
  });

  it('records customer.state_changed once per customer whose meters moved, and not when none did', async () => {
    const [customer] = customers;
    const stateChanges = () =>
      database.db.outboxEvent.count({
        where: { organizationId: tenantId, type: 'customer.state_changed' },
      });
    await drain();
    const before = await stateChanges();
    const usage = Array.from({ length: 5 }, (_, index) => ({
      organizationId: tenantId,
      name: 'api_call',
      source: 'user',
      timestamp: new Date(START + SPAN + index * 1000),
      customerId: customer!.id,
      externalCustomerId: null,
      externalId: null,
      metadata: { tokens: 3 },
    }));
    events.push(...usage);
    await insertEvents(database.db.sql, usage.slice(0, 2));
    await insertEvents(database.db.sql, usage.slice(2));
    const counting = meters.some((meter) => usage.some((event) => eventMatches(meter.filter, event)));
    await drain();
    expect(await stateChanges()).toBe(before + (counting ? 1 : 0));
    // Nothing moved: no event.
    await markCustomerMetersStale(database.db, [customer!.id]);
    await drain();
    expect(await stateChanges()).toBe(before + (counting ? 1 : 0));
  });

  it('loses no event ingested while a refresh runs', async () => {
    const random = generator(5);
    let ingesting = true;
    const refreshing = (async () => {
      while (ingesting) await refreshStaleCustomerMeters(database.db);
    })();
    for (let round = 0; round < 20; round += 1) {
      const batch = randomBatch(random, 40).map((event) => ({
        ...event,
        customerId: event.customerId ?? customers.find((c) => c.externalId === event.externalCustomerId)!.id,
      }));
      events.push(...batch);
      await insertEvents(database.db.sql, batch);
    }
    ingesting = false;
    await refreshing;
    await drain();
    const expected = normalized(expectedMeters());
    const stored = normalized(await storedMeters());
    expect(
      stored
        .filter((row) =>
          expected.some((want) => want.customerId === row.customerId && want.meterId === row.meterId),
        )
        .map(({ balance: _, ...row }) => row),
    ).toEqual(expected);
  });
});

/** The aggregation over some events, computed plainly: numbers of the property only, empty → 0. */
function aggregate(aggregation: Aggregation, events: NewEvent[]): number {
  if (aggregation.func === 'count') return events.length;
  const values = events
    .map((event) => event.metadata[aggregation.property])
    .filter((value): value is number => typeof value === 'number');
  if (values.length === 0) return 0;
  switch (aggregation.func) {
    case 'sum':
      return values.reduce((a, b) => a + b, 0);
    case 'max':
      return Math.max(...values);
    case 'min':
      return Math.min(...values);
    case 'avg':
      return values.reduce((a, b) => a + b, 0) / values.length;
  }
}

/** UTC bucket starts from the one holding `startMs` up to `endMs`, stepping by calendar units. */
function bucketStarts(interval: TimeInterval, startMs: number, endMs: number): number[] {
  const start = new Date(startMs);
  let first: Date;
  switch (interval) {
    case 'hour':
      first = new Date(
        Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate(), start.getUTCHours()),
      );
      break;
    case 'day':
      first = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate()));
      break;
    case 'week': {
      const sinceMonday = (start.getUTCDay() + 6) % 7;
      first = new Date(
        Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate() - sinceMonday),
      );
      break;
    }
    case 'month':
      first = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), 1));
      break;
    case 'year':
      first = new Date(Date.UTC(start.getUTCFullYear(), 0, 1));
      break;
  }
  const starts: number[] = [];
  for (let step = 0; ; step += 1) {
    const next = new Date(first);
    if (interval === 'hour') next.setUTCHours(next.getUTCHours() + step);
    if (interval === 'day') next.setUTCDate(next.getUTCDate() + step);
    if (interval === 'week') next.setUTCDate(next.getUTCDate() + 7 * step);
    if (interval === 'month') next.setUTCMonth(next.getUTCMonth() + step);
    if (interval === 'year') next.setUTCFullYear(next.getUTCFullYear() + step);
    if (next.getTime() > endMs) return starts;
    starts.push(next.getTime());
  }
}
