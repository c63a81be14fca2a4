import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { SqlClient } from '../../infra/db.js';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { eventually } from '../../test/eventually.js';
import { createMeter, createOrganization } from '../../test/factories.js';
import { MeterCache } from './cache.js';
import { findMeter } from './repository.js';
import { updateMeter } from './service.js';

let database: TestDatabase;
let cache: MeterCache;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await cache?.stop();
});
afterAll(async () => {
  await database.drop();
});

/** Every change below must reach the cache through its trigger well within this. */
const NOTIFIED_WITHIN_MS = 1000;

async function listeningCache() {
  cache = new MeterCache(database.db.sql.options).start();
  await eventually(
    async () => cache.active,
    (active) => active,
    5000,
  );
}

/** A meter and reads of it through the cache, counting those that reached the database. */
async function countedMeter() {
  const organization = await createOrganization(database.db);
  const meter = await createMeter(database.db, organization.id);
  let loads = 0;
  const counting: SqlClient = {
    query: ((text: string, values: unknown[]) => {
      loads += 1;
      return database.db.sql.query(text, values);
    }) as SqlClient['query'],
  };
  const read = () => findMeter(counting, meter.id, [organization.id], cache);
  return { organization, meter, read, loads: () => loads };
}

describe('meter cache', () => {
  it('reads a meter once, then answers from memory, still only to its own organization', async () => {
    await listeningCache();
    const { meter, read, loads } = await countedMeter();
    for (let i = 0; i < 5; i += 1) expect((await read())?.id).toBe(meter.id);
    expect(loads()).toBe(1);

    const stranger = await createOrganization(database.db);
    expect(await findMeter(database.db.sql, meter.id, [stranger.id], cache)).toBeNull();
  });

  it('reads a meter again once it changes, is deleted or the table is truncated', async () => {
    await listeningCache();
    const { meter, read, organization } = await countedMeter();
    await read();

    await database.db.meter.update({
      where: { id: meter.id },
      data: { aggregation: { func: 'sum', property: 'tokens' } },
    });
    await eventually(
      read,
      (seen) => (seen?.aggregation as { func: string }).func === 'sum',
      NOTIFIED_WITHIN_MS,
    );

    await database.db.organization.delete({ where: { id: organization.id } });
    await eventually(read, (seen) => seen === null, NOTIFIED_WITHIN_MS);

    const second = await countedMeter();
    await second.read();
    await database.db.$executeRawUnsafe('TRUNCATE meters CASCADE');
    await eventually(second.read, (seen) => seen === null, NOTIFIED_WITHIN_MS);
  });

  it('serves the process that changed a meter the change at once, before any notification', async () => {
    await listeningCache();
    const { meter, organization, read } = await countedMeter();
    const caller = {
      kind: 'organization_access_token' as const,
      tokenId: randomUUID(),
      organizationId: organization.id,
      createdById: null,
      scopes: ['meters:write'],
    };
    await read();
    // Each read follows its change within the same turn of the event loop, before the
    // notification's socket can be read: only the changing process's own forget serves it.
    for (const func of ['sum', 'max', 'min', 'avg', 'sum', 'max'] as const) {
      await updateMeter(database.db, caller, meter.id, { aggregation: { func, property: 'tokens' } }, cache);
      expect(((await read())?.aggregation as { func: string }).func).toBe(func);
    }
  });
});
