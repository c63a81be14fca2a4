import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { createAccessTokenRecord, createOrganization } from '../../test/factories.js';
import { changeFeedConnectionName } from '../../infra/change-feed.js';
import { ACCESS_TOKEN_CHANNEL, AccessTokenCache } from './cache.js';
import { findAccessTokenByHash } from './repository.js';
import { authenticateAccessToken } from './service.js';

let database: TestDatabase;
let cache: AccessTokenCache;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await cache?.stop();
});
afterAll(async () => {
  await database.drop();
});

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

async function until<T>(what: string, probe: () => Promise<T | undefined>, withinMs: number) {
  const began = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return { value, tookMs: Date.now() - began };
    if (Date.now() - began > withinMs) throw new Error(`not within ${withinMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function listeningCache() {
  cache = new AccessTokenCache(database.db.sql.options).start();
  await until('the change feed to listen', async () => (cache.active ? true : undefined), 5000);
  return cache;
}

/** A token and a lookup through the cache that counts its trips to the database. */
async function countedToken(scopes = ['organizations:read']) {
  const organization = await createOrganization(database.db);
  const { token, record } = await createAccessTokenRecord(database.db, organization.id, { scopes });
  let loads = 0;
  const lookup = () =>
    cache.lookup(hashOf(token), () => {
      loads += 1;
      return findAccessTokenByHash(database.db, hashOf(token));
    });
  return { token, record, organization, lookup, loads: () => loads };
}

describe('access token cache', () => {
  it('reads a token once, then answers from memory', async () => {
    await listeningCache();
    const { lookup, loads, record } = await countedToken();
    for (let i = 0; i < 5; i += 1) expect((await lookup())?.id).toBe(record.id);
    expect(loads()).toBe(1);
  });

  it('forgets a token within a second of a change to its scopes, expiry or existence', async () => {
    await listeningCache();
    const { lookup, record } = await countedToken();
    await lookup();

    await database.db.organizationAccessToken.update({
      where: { id: record.id },
      data: { scopes: ['customers:read'] },
    });
    const rescoped = await until(
      'the new scopes',
      async () => ((await lookup())?.scopes.includes('customers:read') ? true : undefined),
      1000,
    );
    expect(rescoped.tookMs).toBeLessThan(1000);

    const past = new Date(Date.now() - 60_000);
    await database.db.organizationAccessToken.update({ where: { id: record.id }, data: { expiresAt: past } });
    await until(
      'the expiry',
      async () => ((await lookup())?.expiresAt?.getTime() === past.getTime() ? true : undefined),
      1000,
    );

    await database.db.organizationAccessToken.delete({ where: { id: record.id } });
    await until('the deletion', async () => ((await lookup()) === null ? true : undefined), 1000);
  });

  it('forgets every token of a deleted organization, and every token after a TRUNCATE', async () => {
    await listeningCache();
    const first = await countedToken();
    await first.lookup();
    await database.db.organization.delete({ where: { id: first.organization.id } });
    await until('the cascade', async () => ((await first.lookup()) === null ? true : undefined), 1000);

    const second = await countedToken();
    await second.lookup();
    await database.db.$executeRawUnsafe('TRUNCATE organization_access_tokens');
    await until('the truncate', async () => ((await second.lookup()) === null ? true : undefined), 1000);
  });

  it('is not emptied by recording a use (once a minute per token)', async () => {
    await listeningCache();
    const { token, record, lookup, loads } = await countedToken();
    const caller = await authenticateAccessToken(database.db, token, { cache });
    expect(caller?.tokenId).toBe(record.id);
    const stored = await database.db.organizationAccessToken.findUniqueOrThrow({ where: { id: record.id } });
    expect(stored.lastUsedAt).not.toBeNull();
    // The write notified nobody, and the entry carries the use: no reload, no second write.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await lookup())?.lastUsedAt).toEqual(stored.lastUsedAt);
    expect(loads()).toBe(0);
  });

  it('reads every time while its change feed is down, and caches again once it is back', async () => {
    await listeningCache();
    const { lookup, loads } = await countedToken();
    await lookup();
    await database.db.sql.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
      [changeFeedConnectionName(ACCESS_TOKEN_CHANNEL)],
    );
    await until('the feed to notice', async () => (cache.active ? undefined : true), 5000);
    const before = loads();
    await lookup();
    await lookup();
    expect(loads()).toBe(before + 2);

    await until('the feed to listen again', async () => (cache.active ? true : undefined), 10_000);
    await lookup();
    const cached = loads();
    await lookup();
    expect(loads()).toBe(cached);
  });
});
