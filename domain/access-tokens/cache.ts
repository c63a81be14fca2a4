import type pg from 'pg';
import { NotifiedCache } from '../../infra/notified-cache.js';
import type { UsableTokenRecord } from './repository.js';

/**
 * The channel the `organization_access_tokens` triggers notify (migration
 * `access_token_change_feed`): the changed token's hash, or `*` after a TRUNCATE.
 */
export const ACCESS_TOKEN_CHANNEL = 'tollgate_access_tokens';

/**
 * The access tokens this process authenticated lately, so that a token's requests cost no lookup.
 * Every change to a token (revoked, rescoped, its organization deleted) reaches every API process
 * through PostgreSQL's NOTIFY at commit and drops the entry there; while the feed is down nothing
 * is cached and every request reads the token.
 */
export class AccessTokenCache extends NotifiedCache<UsableTokenRecord> {
  constructor(connection: pg.ClientConfig, clock: () => number = Date.now) {
    super(connection, ACCESS_TOKEN_CHANNEL, { ttlMs: 30_000, maxEntries: 10_000 }, clock);
  }

  /** The use just recorded in the database, so the entry does not ask to record it again. */
  recordedUse(tokenHash: string, at: Date): void {
    this.amend(tokenHash, (record) => ({ ...record, lastUsedAt: at }));
  }
}
