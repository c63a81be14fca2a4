import type pg from 'pg';
import { ChangeFeed } from '../../infra/change-feed.js';
import type { UsableTokenRecord } from './repository.js';

/**
 * The channel the `organization_access_tokens` triggers notify (migration
 * `access_token_change_feed`): the changed token's hash, or `*` after a TRUNCATE.
 */
export const ACCESS_TOKEN_CHANNEL = 'tollgate_access_tokens';
const EVERY_TOKEN = '*';

/** A bound on staleness should a notification ever be missed without the feed noticing. */
const ENTRY_TTL_MS = 30_000;
/** Tokens in use at once per process; beyond it the oldest entry goes. */
const MAX_ENTRIES = 10_000;

type Entry = { record: UsableTokenRecord; cachedAt: number };

/**
 * The access tokens this process authenticated lately, so that a token's requests cost no lookup.
 * Every change to a token (revoked, rescoped, its organization deleted) reaches every API process
 * through PostgreSQL's NOTIFY at commit and drops the entry there; while the feed is down nothing
 * is cached and every request reads the token.
 */
export class AccessTokenCache {
  private readonly entries = new Map<string, Entry>();
  /** Moves at every invalidation: a lookup that raced one must not store what it read. */
  private generation = 0;
  private listening = false;
  private readonly feed: ChangeFeed;

  constructor(
    connection: pg.ClientConfig,
    private readonly clock: () => number = Date.now,
  ) {
    this.feed = new ChangeFeed(connection, ACCESS_TOKEN_CHANNEL, {
      changed: (tokenHash) => this.invalidate(tokenHash),
      statusChanged: (listening) => {
        this.listening = listening;
        this.invalidate(EVERY_TOKEN);
      },
    });
  }

  start(): this {
    this.feed.start();
    return this;
  }

  stop(): Promise<void> {
    return this.feed.stop();
  }

  /** Whether lookups are being served from memory (the feed is listening). */
  get active(): boolean {
    return this.listening;
  }

  async lookup(
    tokenHash: string,
    load: () => Promise<UsableTokenRecord | null>,
  ): Promise<UsableTokenRecord | null> {
    if (!this.listening) return load();
    const now = this.clock();
    const hit = this.entries.get(tokenHash);
    if (hit && now - hit.cachedAt < ENTRY_TTL_MS) return hit.record;
    const generation = this.generation;
    const record = await load();
    // Unknown hashes are never kept: guessing tokens must not fill the memory.
    if (record && this.listening && generation === this.generation) {
      this.entries.delete(tokenHash);
      this.entries.set(tokenHash, { record, cachedAt: now });
      if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    }
    return record;
  }

  /** The use just recorded in the database, so the entry does not ask to record it again. */
  recordedUse(tokenHash: string, at: Date): void {
    const entry = this.entries.get(tokenHash);
    if (entry) entry.record = { ...entry.record, lastUsedAt: at };
  }

  private invalidate(tokenHash: string): void {
    this.generation += 1;
    if (tokenHash === EVERY_TOKEN) this.entries.clear();
    else this.entries.delete(tokenHash);
  }
}
