import { beforeEach, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { callV1 } from '../../test/http.js';
import { useTestStack } from '../../test/stack.js';

describe('/v1/events and meter quantities', () => {
  const env = useTestStack({ withWorker: false });
  beforeEach(() => env.database.reset());

  async function tenant() {
    const organization = await createOrganization(env.database.db);
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const ada = await polar.customers.create({
      email: 'ada@example.test',
      name: 'Ada',
      externalId: 'user-ada',
    });
    const bob = await polar.customers.create({ email: 'bob@example.test', name: 'Bob' });
    return { organization, token, polar, ada, bob };
  }

  const send = (token: string, method: string, path: string, body?: unknown) =>
    callV1(env.stack.baseUrl, token, method, path, body);

  describe('events:ingest', () => {
    it('ingests events by customer id and by external id, and lists them newest first', async () => {
      const { polar, ada, bob } = await tenant();
      const answer = await polar.events.ingest({
        events: [
          {
            name: 'api_call',
            customerId: ada.id,
            timestamp: new Date('2026-11-01T10:00:00Z'),
            metadata: { route: '/v1/chat', tokens: 120 },
          },
          { name: 'api_call', externalCustomerId: 'user-ada', timestamp: new Date('2026-11-01T11:00:00Z') },
          { name: 'storage', customerId: bob.id, metadata: { bytes: 2048 } },
        ],
      });
      expect(answer).toEqual({ inserted: 3 });
      const { result } = await polar.events.list({});
      expect(result.pagination.totalCount).toBe(3);
      const [latest, byExternalId, byId] = result.items;
      expect(latest).toMatchObject({
        name: 'storage',
        customerId: bob.id,
        source: 'user',
        metadata: { bytes: 2048 },
      });
      expect(byExternalId).toMatchObject({
        name: 'api_call',
        customerId: ada.id,
        externalCustomerId: 'user-ada',
        customer: { id: ada.id, email: 'ada@example.test' },
      });
      expect(byId).toMatchObject({ customerId: ada.id, metadata: { route: '/v1/chat', tokens: 120 } });
      expect(await polar.events.get({ id: byId!.id })).toEqual(byId);
      // The timestamp defaults to the time of the ingest.
      expect(Math.abs(latest!.timestamp.getTime() - Date.now())).toBeLessThan(60_000);
    });

    it('keeps events for an external id no customer has yet, and shows them once one takes it', async () => {
      const { polar } = await tenant();
      await polar.events.ingest({ events: [{ name: 'signup_step', externalCustomerId: 'user-later' }] });
      const [event] = (await polar.events.list({})).result.items;
      expect(event).toMatchObject({ customerId: null, customer: null, externalCustomerId: 'user-later' });
      const later = await polar.customers.create({ email: 'later@example.test', externalId: 'user-later' });
      const forCustomer = await polar.events.list({ customerId: later.id });
      expect(forCustomer.result.items.map((item) => item.id)).toEqual([event!.id]);
    });

    it('refuses the whole batch with one 422 naming every bad event by index', async () => {
      const { token, polar, ada } = await tenant();
      const { status, body } = await send(token, 'POST', '/events/ingest', {
        events: [
          { name: 'ok', customer_id: ada.id },
          { name: 'unknown customer', customer_id: '00000000-0000-4000-8000-000000000000' },
          { name: 'future', customer_id: ada.id, timestamp: new Date(Date.now() + 3_600_000).toISOString() },
          { name: 'nobody' },
          { name: 'both', customer_id: ada.id, external_customer_id: 'user-ada' },
        ],
      });
      expect(status).toBe(422);
      expect(body.detail!.map((issue) => issue.loc)).toEqual([
        ['body', 'events', 2, 'timestamp'],
        ['body', 'events', 3],
        ['body', 'events', 4, 'external_customer_id'],
        ['body', 'events', 1, 'customer_id'],
      ]);
      expect(body.detail![0]!.msg).toContain('future');
      expect((await polar.events.list({})).result.items).toEqual([]);
    });

    it('refuses metadata beyond the limits, and more than 1,000 events in one call', async () => {
      const { token, ada } = await tenant();
      const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, index) => [`k${index}`, index]));
      const metadata = await send(token, 'POST', '/events/ingest', {
        events: [
          { name: 'a', customer_id: ada.id, metadata: tooMany },
          { name: 'b', customer_id: ada.id, metadata: { ['k'.repeat(41)]: 1 } },
          { name: 'c', customer_id: ada.id, metadata: { long: 'x'.repeat(501) } },
        ],
      });
      expect(metadata.status).toBe(422);
      expect(metadata.body.detail!.map((issue) => issue.loc.slice(0, 4))).toEqual([
        ['body', 'events', 0, 'metadata'],
        ['body', 'events', 1, 'metadata'],
        ['body', 'events', 2, 'metadata'],
      ]);
      const batch = await send(token, 'POST', '/events/ingest', {
        events: Array.from({ length: 1001 }, () => ({ name: 'x', customer_id: ada.id })),
      });
      expect(batch.status).toBe(422);
      expect(batch.body.detail![0]).toMatchObject({ loc: ['body', 'events'] });
      expect(batch.body.detail![0]!.msg).toContain('1000');
    });

    it('inserts an event of a retried ingest once: external_id (our extension)', async () => {
      const { polar, ada, token } = await tenant();
      // The SDK does not know the extension's field: the body is sent as JSON.
      const ingest = async (externalIds: string[]) =>
        (
          await send(token, 'POST', '/events/ingest', {
            events: externalIds.map((externalId) => ({
              name: 'api_call',
              customer_id: ada.id,
              external_id: externalId,
            })),
          })
        ).body;
      expect(await ingest(['req-1', 'req-2'])).toEqual({ inserted: 2 });
      expect(await ingest(['req-1', 'req-2', 'req-3', 'req-3'])).toEqual({ inserted: 1 });
      expect((await polar.events.list({})).result.pagination.totalCount).toBe(3);
    });

    it('answers 404 for another organization’s event, and refuses its organization_id', async () => {
      const mine = await tenant();
      const theirs = await tenant();
      await theirs.polar.events.ingest({ events: [{ name: 'x', customerId: theirs.ada.id }] });
      const [event] = (await theirs.polar.events.list({})).result.items;
      await expect(mine.polar.events.get({ id: event!.id })).rejects.toMatchObject({ statusCode: 404 });
      expect((await mine.polar.events.list({})).result.items).toEqual([]);
      const { status, body } = await send(mine.token, 'POST', '/events/ingest', {
        events: [{ name: 'x', customer_id: mine.ada.id, organization_id: theirs.organization.id }],
      });
      expect(status).toBe(422);
      expect(body.detail![0]!.loc).toEqual(['body', 'events', 0, 'organization_id']);
      // Another organization's customer is not found either.
      const foreign = await send(mine.token, 'POST', '/events/ingest', {
        events: [{ name: 'x', customer_id: theirs.ada.id }],
      });
      expect(foreign.body.detail![0]!.loc).toEqual(['body', 'events', 0, 'customer_id']);
    });
  });

  describe('events:list, events:list_names', () => {
    it('filters by time, customer, external customer, name, source, metadata, meter and filter JSON', async () => {
      const { polar, ada, bob } = await tenant();
      const at = (hour: number) => new Date(Date.UTC(2026, 10, 1, hour));
      await polar.events.ingest({
        events: [
          {
            name: 'api_call',
            customerId: ada.id,
            timestamp: at(1),
            metadata: { model: 'gpt-4o', tokens: 10 },
          },
          {
            name: 'api_call',
            customerId: bob.id,
            timestamp: at(2),
            metadata: { model: 'claude', tokens: 50 },
          },
          { name: 'storage', customerId: ada.id, timestamp: at(3), metadata: { bytes: 100 } },
        ],
      });
      const names = async (request: Parameters<Polar['events']['list']>[0]) =>
        (await polar.events.list(request)).result.items.map(
          (event) => `${event.name}@${event.timestamp.getUTCHours()}`,
        );
      expect(await names({})).toEqual(['storage@3', 'api_call@2', 'api_call@1']);
      expect(await names({ sorting: ['timestamp'] })).toEqual(['api_call@1', 'api_call@2', 'storage@3']);
      expect(await names({ startTimestamp: at(2), endTimestamp: at(2) })).toEqual(['api_call@2']);
      expect(await names({ customerId: ada.id })).toEqual(['storage@3', 'api_call@1']);
      expect(await names({ externalCustomerId: 'user-ada' })).toEqual(['storage@3', 'api_call@1']);
      expect(await names({ name: 'api_call' })).toEqual(['api_call@2', 'api_call@1']);
      expect(await names({ source: 'system' })).toEqual([]);
      expect(await names({ metadata: { model: 'claude' } })).toEqual(['api_call@2']);
      const filter = {
        conjunction: 'and',
        clauses: [
          { property: 'name', operator: 'eq', value: 'api_call' },
          { property: 'tokens', operator: 'gt', value: 20 },
        ],
      };
      expect(await names({ filter: JSON.stringify(filter) })).toEqual(['api_call@2']);
      const meter = await polar.meters.create({
        name: 'GPT calls',
        filter: { conjunction: 'and', clauses: [{ property: 'model', operator: 'like', value: 'gpt' }] },
        aggregation: { func: 'count' },
      });
      expect(await names({ meterId: meter.id })).toEqual(['api_call@1']);
      expect(await names({ limit: 1, page: 2 })).toEqual(['api_call@2']);
    });

    it('refuses a filter that is not a meter filter, next to the filter', async () => {
      const { token } = await tenant();
      for (const filter of ['{not json', '{"conjunction":"xor","clauses":[]}']) {
        const { status, body } = await send(token, 'GET', `/events/?filter=${encodeURIComponent(filter)}`);
        expect(status).toBe(422);
        expect(body.detail![0]!.loc).toEqual(['query', 'filter']);
      }
    });

    it('lists event names with occurrences and first and last seen', async () => {
      const { polar, ada } = await tenant();
      const at = (day: number) => new Date(Date.UTC(2026, 10, day));
      await polar.events.ingest({
        events: [
          { name: 'api_call', customerId: ada.id, timestamp: at(1) },
          { name: 'api_call', customerId: ada.id, timestamp: at(3) },
          { name: 'storage', customerId: ada.id, timestamp: at(2) },
        ],
      });
      const { result } = await polar.events.listNames({ sorting: ['-occurrences'] });
      expect(result.items).toEqual([
        { name: 'api_call', source: 'user', occurrences: 2, firstSeen: at(1), lastSeen: at(3) },
        { name: 'storage', source: 'user', occurrences: 1, firstSeen: at(2), lastSeen: at(2) },
      ]);
      expect((await polar.events.listNames({ query: 'STOR' })).result.items.map((item) => item.name)).toEqual(
        ['storage'],
      );
    });
  });

  describe('meters:quantities', () => {
    /** Events every hour from `from` for `hours`, tokens = the hour's index; Ada even, Bob odd. */
    async function hourlyUsage(
      polar: Polar,
      ada: { id: string },
      bob: { id: string },
      from: Date,
      hours: number,
    ) {
      const events = Array.from({ length: hours }, (_, index) => ({
        name: 'completion',
        customerId: index % 2 === 0 ? ada.id : bob.id,
        timestamp: new Date(from.getTime() + index * 3_600_000),
        metadata: { tokens: index },
      }));
      await polar.events.ingest({ events });
      return events;
    }

    it('answers each aggregation per day, with the range’s own total, against values computed here', async () => {
      const { polar, ada, bob, token } = await tenant();
      const from = new Date('2026-10-01T00:30:00Z');
      const events = await hourlyUsage(polar, ada, bob, from, 72);
      // Created over HTTP: the request schema of the SDK 0.33.2 takes no property aggregation but avg.
      const quantities = async (aggregation: { func: string; property?: string }, extra = {}) => {
        const { body: meter } = await send(token, 'POST', '/meters/', {
          name: `Tokens ${aggregation.func} ${Math.random()}`,
          filter: {
            conjunction: 'and',
            clauses: [{ property: 'name', operator: 'eq', value: 'completion' }],
          },
          aggregation,
        });
        return polar.meters.quantities({
          id: meter.id as string,
          startTimestamp: new Date('2026-10-01T00:00:00Z'),
          endTimestamp: new Date('2026-10-03T23:59:59Z'),
          interval: 'day',
          ...extra,
        });
      };
      const perDay = (day: number) => events.filter((event) => event.timestamp.getUTCDate() === day);
      const tokens = (list: typeof events) => list.map((event) => event.metadata.tokens);
      const days = [1, 2, 3];
      const expected = {
        count: { buckets: days.map((day) => perDay(day).length), total: events.length },
        sum: {
          buckets: days.map((day) => tokens(perDay(day)).reduce((a, b) => a + b, 0)),
          total: tokens(events).reduce((a, b) => a + b, 0),
        },
        max: {
          buckets: days.map((day) => Math.max(...tokens(perDay(day)))),
          total: Math.max(...tokens(events)),
        },
        min: {
          buckets: days.map((day) => Math.min(...tokens(perDay(day)))),
          total: Math.min(...tokens(events)),
        },
        avg: {
          buckets: days.map((day) => tokens(perDay(day)).reduce((a, b) => a + b, 0) / perDay(day).length),
          total: tokens(events).reduce((a, b) => a + b, 0) / events.length,
        },
      };
      for (const func of ['count', 'sum', 'max', 'min', 'avg'] as const) {
        const answer = await quantities(func === 'count' ? { func } : { func, property: 'metadata.tokens' });
        expect({
          func,
          timestamps: answer.quantities.map((bucket) => bucket.timestamp.toISOString()),
        }).toEqual({
          func,
          timestamps: ['2026-10-01T00:00:00.000Z', '2026-10-02T00:00:00.000Z', '2026-10-03T00:00:00.000Z'],
        });
        expect({
          func,
          buckets: answer.quantities.map((bucket) => bucket.quantity),
          total: answer.total,
        }).toEqual({
          func,
          ...expected[func],
        });
      }
      // The max of the range is not the sum of the days' maxima.
      expect(expected.max.total).not.toBe(expected.max.buckets.reduce((a, b) => a + b, 0));
      // One customer's usage, by id or by external id.
      const adaOnly = await quantities({ func: 'count' }, { customerId: ada.id });
      expect(adaOnly.total).toBe(36);
      const adaByExternalId = await quantities({ func: 'count' }, { externalCustomerId: 'user-ada' });
      expect(adaByExternalId.total).toBe(36);
    });

    it('counts by a meter’s new aggregation and filter from the request right after the change', async () => {
      const { polar, ada, bob, token } = await tenant();
      const from = new Date('2026-10-01T00:30:00Z');
      const events = await hourlyUsage(polar, ada, bob, from, 24);
      const meter = await polar.meters.create({
        name: 'Completions',
        filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'completion' }] },
        aggregation: { func: 'count' },
      });
      const total = async () =>
        (
          await polar.meters.quantities({
            id: meter.id,
            startTimestamp: new Date('2026-10-01T00:00:00Z'),
            endTimestamp: new Date('2026-10-01T23:59:59Z'),
            interval: 'day',
          })
        ).total;
      // Read twice: the second answer comes from the API process's memory of the meter.
      expect(await total()).toBe(24);
      expect(await total()).toBe(24);

      // Over HTTP: the SDK 0.33.2 reads no property aggregation but avg, in requests or answers.
      const changed = await send(token, 'PATCH', `/meters/${meter.id}`, {
        aggregation: { func: 'sum', property: 'metadata.tokens' },
      });
      expect(changed.status).toBe(200);
      expect(await total()).toBe(events.reduce((sum, event) => sum + event.metadata.tokens, 0));
      const narrowed = await send(token, 'PATCH', `/meters/${meter.id}`, {
        filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'other' }] },
      });
      expect(narrowed.status).toBe(200);
      expect(await total()).toBe(0);
    });

    it('cuts buckets at the midnights of a time zone (our extension) and by hour, week, month and year', async () => {
      const { polar, ada, bob, token } = await tenant();
      const from = new Date('2026-10-01T00:30:00Z');
      const events = await hourlyUsage(polar, ada, bob, from, 48);
      const meter = await polar.meters.create({
        name: 'Completions',
        filter: { conjunction: 'and', clauses: [] },
        aggregation: { func: 'count' },
      });
      // Kolkata is UTC+05:30 all year: its day of 1 October starts at 30 September 18:30 UTC.
      const { status, body } = await send(
        token,
        'GET',
        `/meters/${meter.id}/quantities?start_timestamp=2026-10-01T00:00:00Z&end_timestamp=2026-10-02T23:59:59Z&interval=day&timezone=Asia/Kolkata`,
      );
      expect(status).toBe(200);
      const inKolkata = (day: number) =>
        events.filter((event) => new Date(event.timestamp.getTime() + 5.5 * 3_600_000).getUTCDate() === day)
          .length;
      expect(body).toEqual({
        quantities: [
          { timestamp: '2026-09-30T18:30:00.000Z', quantity: inKolkata(1) },
          { timestamp: '2026-10-01T18:30:00.000Z', quantity: inKolkata(2) },
          { timestamp: '2026-10-02T18:30:00.000Z', quantity: inKolkata(3) },
        ],
        total: 48,
      });
      const interval = async (value: 'hour' | 'week' | 'month' | 'year', start: string, end: string) =>
        polar.meters.quantities({
          id: meter.id,
          startTimestamp: new Date(start),
          endTimestamp: new Date(end),
          interval: value,
        });
      const hourly = await interval('hour', '2026-10-01T00:00:00Z', '2026-10-01T05:00:00Z');
      // The 05:30 event is after the end of the range: its bucket is there, empty.
      expect(hourly.quantities.map((bucket) => bucket.quantity)).toEqual([1, 1, 1, 1, 1, 0]);
      expect(hourly.total).toBe(5);
      const weekly = await interval('week', '2026-09-28T00:00:00Z', '2026-10-11T00:00:00Z');
      // Weeks start on Monday: 28 Sep and 5 Oct.
      expect(weekly.quantities.map((bucket) => [bucket.timestamp.toISOString(), bucket.quantity])).toEqual([
        ['2026-09-28T00:00:00.000Z', 48],
        ['2026-10-05T00:00:00.000Z', 0],
      ]);
      const monthly = await interval('month', '2026-09-15T00:00:00Z', '2026-10-15T00:00:00Z');
      expect(monthly.quantities.map((bucket) => bucket.quantity)).toEqual([0, 48]);
      const yearly = await interval('year', '2026-01-01T00:00:00Z', '2026-12-31T00:00:00Z');
      expect(yearly.quantities).toEqual([{ timestamp: new Date('2026-01-01T00:00:00Z'), quantity: 48 }]);
    });

    it('refuses a range too long for its interval, an end before the start, and an unknown time zone', async () => {
      const { token, polar } = await tenant();
      const meter = await polar.meters.create({
        name: 'Anything',
        filter: { conjunction: 'and', clauses: [] },
        aggregation: { func: 'count' },
      });
      const ask = (query: string) => send(token, 'GET', `/meters/${meter.id}/quantities?${query}`);
      const tooLong = await ask(
        'start_timestamp=2026-01-01T00:00:00Z&end_timestamp=2026-01-09T00:00:00Z&interval=hour',
      );
      expect(tooLong.status).toBe(422);
      expect(tooLong.body.detail![0]).toMatchObject({ loc: ['query', 'interval'] });
      expect(tooLong.body.detail![0]!.msg).toContain('The interval is too big');
      const backwards = await ask(
        'start_timestamp=2026-01-02T00:00:00Z&end_timestamp=2026-01-01T00:00:00Z&interval=day',
      );
      expect(backwards.body.detail![0]).toMatchObject({ loc: ['query', 'end_timestamp'] });
      const zone = await ask(
        'start_timestamp=2026-01-01T00:00:00Z&end_timestamp=2026-01-02T00:00:00Z&interval=day&timezone=Mars/Olympus',
      );
      expect(zone.status).toBe(422);
      expect(zone.body.detail![0]).toMatchObject({ loc: ['query', 'timezone'] });
    });
  });
});
