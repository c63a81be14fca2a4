// Customer meters through the SDK, kept by the real refresher workflow on a real worker.
import { beforeEach, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import type { CustomerMeter } from '@polar-sh/sdk/models/components/customermeter.js';
import { insertEvents } from '../../domain/usage/repository.js';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { eventually } from '../../test/eventually.js';
import { callV1 } from '../../test/http.js';
import { useTestStack } from '../../test/stack.js';

describe('/v1/customer-meters and active_meters', () => {
  const env = useTestStack();
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
    const calls = await polar.meters.create({
      name: 'API calls',
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'api_call' }] },
      aggregation: { func: 'count' },
    });
    // The SDK reads no sum/max/min meter (its Meter schema takes count and avg only): avg here.
    const tokens = await polar.meters.create({
      name: 'Tokens per call',
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'api_call' }] },
      aggregation: { func: 'avg', property: 'tokens' },
    });
    return { organization, token, polar, ada, bob, calls, tokensMeterId: tokens.id };
  }

  const metersOf = async (polar: Polar, customerId: string) =>
    (await polar.customerMeters.list({ customerId })).result.items;

  const settled = (items: CustomerMeter[], expected: number) => items.length === expected;

  it('counts each customer’s usage per meter, as customer meters and in customer state', async () => {
    const { token, polar, ada, bob, calls, tokensMeterId } = await tenant();
    await polar.events.ingest({
      events: [
        { name: 'api_call', customerId: ada.id, metadata: { tokens: 120 } },
        { name: 'api_call', externalCustomerId: 'user-ada', metadata: { tokens: 30.5 } },
        { name: 'api_call', customerId: bob.id, metadata: { tokens: 7 } },
        { name: 'login', customerId: bob.id },
      ],
    });
    const adaMeters = await eventually(
      () => metersOf(polar, ada.id),
      (items) => settled(items, 2),
    );
    const byMeter = new Map(adaMeters.map((item) => [item.meterId, item]));
    expect(byMeter.get(calls.id)).toMatchObject({
      customerId: ada.id,
      consumedUnits: 2,
      creditedUnits: 0,
      balance: -2,
      customer: { id: ada.id, email: 'ada@example.test' },
      meter: { id: calls.id, name: 'API calls' },
    });
    expect(byMeter.get(tokensMeterId)).toMatchObject({ consumedUnits: 75.25, balance: -75.25 });
    const bobMeters = await eventually(
      () => metersOf(polar, bob.id),
      (items) => settled(items, 2),
    );
    expect(bobMeters.map((item) => item.consumedUnits).sort()).toEqual([1, 7]);

    const state = await polar.customers.getState({ id: ada.id });
    expect(state.activeMeters).toHaveLength(2);
    expect(state.activeMeters.find((meter) => meter.meterId === tokensMeterId)).toMatchObject({
      id: byMeter.get(tokensMeterId)!.id,
      consumedUnits: 75.25,
      creditedUnits: 0,
      balance: -75.25,
    });
    expect(await polar.customerMeters.get({ id: byMeter.get(calls.id)!.id })).toEqual(byMeter.get(calls.id));

    // A sum meter, which the SDK cannot read, over HTTP: counted from the events already there.
    const { body: sum } = await callV1(env.stack.baseUrl, token, 'POST', '/meters/', {
      name: 'Tokens',
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'api_call' }] },
      aggregation: { func: 'sum', property: 'tokens' },
    });
    const summed = await eventually(
      () =>
        callV1(
          env.stack.baseUrl,
          token,
          'GET',
          `/customer-meters/?meter_id=${sum.id as string}&customer_id=${ada.id}`,
        ),
      (answer) => (answer.body.items as unknown[]).length === 1,
    );
    expect(summed.body.items).toEqual([
      expect.objectContaining({ consumed_units: 150.5, credited_units: 0, balance: -150.5 }),
    ]);

    // More usage moves the same rows.
    await polar.events.ingest({
      events: [{ name: 'api_call', customerId: ada.id, metadata: { tokens: 10 } }],
    });
    const moved = await eventually(
      () => polar.customerMeters.get({ id: byMeter.get(tokensMeterId)!.id }),
      (meter) => meter.consumedUnits === 53.5,
    );
    expect(moved.modifiedAt).not.toBeNull();
  });

  it('lists by meter, customer or external id, sorted as asked, and only the caller’s own', async () => {
    const { polar, ada, bob, calls, tokensMeterId } = await tenant();
    await polar.events.ingest({
      events: [
        { name: 'api_call', customerId: ada.id, metadata: { tokens: 5 } },
        { name: 'api_call', customerId: bob.id, metadata: { tokens: 50 } },
        { name: 'api_call', customerId: bob.id, metadata: { tokens: 1 } },
      ],
    });
    await eventually(
      () => polar.customerMeters.list({}),
      (page) => page.result.pagination.totalCount === 4,
    );
    const byTokens = await polar.customerMeters.list({
      meterId: tokensMeterId,
      sorting: ['-consumed_units'],
    });
    expect(byTokens.result.items.map((item) => [item.customer.name, item.consumedUnits])).toEqual([
      ['Bob', 25.5],
      ['Ada', 5],
    ]);
    const byName = await polar.customerMeters.list({ meterId: calls.id, sorting: ['customer_name'] });
    expect(byName.result.items.map((item) => item.customer.name)).toEqual(['Ada', 'Bob']);
    const external = await polar.customerMeters.list({ externalCustomerId: 'user-ada' });
    expect(external.result.items.map((item) => item.customerId)).toEqual([ada.id, ada.id]);

    const other = await tenant();
    expect((await other.polar.customerMeters.list({})).result.pagination.totalCount).toBe(0);
    await expect(other.polar.customerMeters.get({ id: byName.result.items[0]!.id })).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it('gives a customer who takes an external id the usage sent for it before', async () => {
    const { polar, calls } = await tenant();
    await polar.events.ingest({
      events: [
        { name: 'api_call', externalCustomerId: 'user-later', metadata: { tokens: 2 } },
        { name: 'api_call', externalCustomerId: 'user-later', metadata: { tokens: 3 } },
      ],
    });
    const later = await polar.customers.create({ email: 'later@example.test', externalId: 'user-later' });
    const meters = await eventually(
      () => metersOf(polar, later.id),
      (items) => settled(items, 2),
    );
    expect(meters.find((meter) => meter.meterId === calls.id)?.consumedUnits).toBe(2);
    expect(meters.map((meter) => meter.consumedUnits).sort()).toEqual([2, 2.5]);
  });

  it('recounts every customer when a meter is created or its filter changes', async () => {
    const { polar, token, ada, calls } = await tenant();
    await polar.events.ingest({
      events: [
        { name: 'api_call', customerId: ada.id, metadata: { route: '/chat' } },
        { name: 'api_call', customerId: ada.id, metadata: { route: '/embed' } },
        { name: 'upload', customerId: ada.id },
      ],
    });
    await eventually(
      () => metersOf(polar, ada.id),
      (items) => settled(items, 2),
    );
    const uploads = await polar.meters.create({
      name: 'Uploads',
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'upload' }] },
      aggregation: { func: 'count' },
    });
    await eventually(
      () => metersOf(polar, ada.id),
      (items) => items.some((item) => item.meterId === uploads.id && item.consumedUnits === 1),
    );
    const { status } = await callV1(env.stack.baseUrl, token, 'PATCH', `/meters/${calls.id}`, {
      filter: {
        conjunction: 'and',
        clauses: [
          { property: 'name', operator: 'eq', value: 'api_call' },
          { property: 'route', operator: 'eq', value: '/chat' },
        ],
      },
    });
    expect(status).toBe(200);
    await eventually(
      () => metersOf(polar, ada.id),
      (items) => items.some((item) => item.meterId === calls.id && item.consumedUnits === 1),
    );
  });

  it('starts a window at the last meter.reset and adds what meter.credited gave since', async () => {
    const { organization, polar, ada, calls } = await tenant();
    const at = (minutes: number) => new Date(Date.now() - 3_600_000 + minutes * 60_000);
    const system = (name: string, minutes: number, metadata: Record<string, unknown>) => ({
      organizationId: organization.id,
      name,
      source: 'system',
      timestamp: at(minutes),
      customerId: ada.id,
      externalCustomerId: null,
      externalId: null,
      metadata: { meter_id: calls.id, ...metadata },
    });
    // As the meter_credit benefit will write them (issue 14): credit, reset at a cycle, credit again.
    await insertEvents(env.database.db.sql, [
      system('meter.credited', 0, { units: 100, rollover: false }),
      system('meter.reset', 10, {}),
      system('meter.credited', 10, { units: 40, rollover: false }),
    ]);
    await polar.events.ingest({
      events: [
        { name: 'api_call', customerId: ada.id, timestamp: at(5) },
        { name: 'api_call', customerId: ada.id, timestamp: at(20) },
        { name: 'api_call', customerId: ada.id, timestamp: at(30) },
      ],
    });
    const [meter] = await eventually(
      () => polar.customerMeters.list({ customerId: ada.id, meterId: calls.id }),
      (page) => page.result.items[0]?.consumedUnits === 2,
    ).then((page) => page.result.items);
    expect(meter).toMatchObject({ consumedUnits: 2, creditedUnits: 40, balance: 38 });
  });

  it('fires customer.state_changed once for a burst of usage, with the new balance in it', async () => {
    const { organization, polar, ada, calls } = await tenant();
    const stateChanges = () =>
      env.database.db.outboxEvent.findMany({
        where: { organizationId: organization.id, type: 'customer.state_changed' },
        orderBy: { sequence: 'asc' },
      });
    const before = (await stateChanges()).length;
    await polar.events.ingest({
      events: Array.from({ length: 50 }, () => ({ name: 'api_call', customerId: ada.id })),
    });
    await eventually(
      () => metersOf(polar, ada.id),
      (items) => items.some((item) => item.meterId === calls.id && item.consumedUnits === 50),
    );
    const after = await stateChanges();
    expect(after).toHaveLength(before + 1);
    const { data: payload } = after.at(-1)!.payload as {
      data: { active_meters: { meter_id: string; consumed_units: number }[] };
    };
    expect(payload.active_meters).toContainEqual(
      expect.objectContaining({ meter_id: calls.id, consumed_units: 50 }),
    );
  });
});
