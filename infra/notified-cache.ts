import type pg from 'pg';
import { ChangeFeed } from './change-feed.js';

/** The payload that drops every entry (a trigger's TRUNCATE). */
export const EVERY_KEY = '*';

export type NotifiedCacheLimits = {
  /** A bound on staleness should a notification ever be missed without the feed noticing. */
  ttlMs: number;
  /** Entries in use at once per process; beyond it the oldest goes. */
  maxEntries: number;
};

type Entry<V> = { value: V; cachedAt: number };

/**
 * Rows this process read lately, each dropped the moment PostgreSQL notifies a change to it on
 * `channel` (a trigger sends the row's key at commit, or `*`). While the feed is down, or before
 * it first listens, nothing is served from memory: every lookup reads.
 */
export class NotifiedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  /** Moves at every invalidation: a lookup that raced one must not store what it read. */
  private generation = 0;
  private listening = false;
  private readonly feed: ChangeFeed;

  constructor(
    connection: pg.ClientConfig,
    channel: string,
    private readonly limits: NotifiedCacheLimits,
    private readonly clock: () => number = Date.now,
  ) {
    this.feed = new ChangeFeed(connection, channel, {
      changed: (key) => this.forget(key),
      statusChanged: (listening) => {
        this.listening = listening;
        this.forget(EVERY_KEY);
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

  async lookup(key: string, load: () => Promise<V | null>): Promise<V | null> {
    if (!this.listening) return load();
    const now = this.clock();
    const hit = this.entries.get(key);
    if (hit && now - hit.cachedAt < this.limits.ttlMs) return hit.value;
    const generation = this.generation;
    const value = await load();
    // Missing keys are never kept: guessing keys must not fill the memory.
    if (value !== null && this.listening && generation === this.generation) {
      this.entries.delete(key);
      this.entries.set(key, { value, cachedAt: now });
      if (this.entries.size > this.limits.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    }
    return value;
  }

  /** A change this process itself wrote and already knows the outcome of. */
  amend(key: string, change: (value: V) => V): void {
    const entry = this.entries.get(key);
    if (entry) entry.value = change(entry.value);
  }

  /**
   * Drops `key` (or everything, for `*`). The process that made a change calls it at once, so its
   * own next read is never stale; the notification does the same for every other process.
   */
  forget(key: string): void {
    this.generation += 1;
    if (key === EVERY_KEY) this.entries.clear();
    else this.entries.delete(key);
  }
}
