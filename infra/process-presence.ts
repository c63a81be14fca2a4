import { randomInt } from 'node:crypto';
import type pg from 'pg';
import { KeptSession } from './kept-session.js';

/**
 * The advisory-lock namespace (first key) of process presence locks: "Toll" as a 32-bit integer,
 * so they never meet the locks of other parts of the system.
 */
export const PRESENCE_LOCK_NAMESPACE = 0x546f6c6c;

/** How an operator tells the session apart in pg_stat_activity. */
const PRESENCE_CONNECTION_NAME = 'tollgate-presence';

const KEY_ATTEMPTS = 5;

/**
 * Marks this process as alive in PostgreSQL: a session of its own holds an advisory lock on a key
 * chosen at random. PostgreSQL releases the lock the moment the process dies (its connection
 * closes), so work the process claimed can be recognized as orphaned by any other process, which
 * can try the lock itself (`pg_try_advisory_xact_lock(PRESENCE_LOCK_NAMESPACE, key)`).
 */
export class ProcessPresence {
  private key = randomInt(1, 2 ** 31);
  private held = false;
  private readonly session: KeptSession;

  constructor(connection: pg.ClientConfig) {
    this.session = new KeptSession({
      connection,
      name: PRESENCE_CONNECTION_NAME,
      open: (client) => this.lock(client),
      statusChanged: (up) => {
        this.held = up;
      },
    });
  }

  start(): this {
    this.session.start();
    return this;
  }

  stop(): Promise<void> {
    return this.session.stop();
  }

  /** The key this process holds now; null while its session is down (nothing can vouch for it). */
  get heldKey(): number | null {
    return this.held ? this.key : null;
  }

  private async lock(client: pg.Client): Promise<void> {
    // The same key again after a reconnect: claims made before the loss stay this process's.
    for (let attempt = 1; attempt <= KEY_ATTEMPTS; attempt += 1) {
      const { rows } = await client.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock($1, $2) AS locked',
        [PRESENCE_LOCK_NAMESPACE, this.key],
      );
      if (rows[0]?.locked) return;
      // Another live process drew the same key, or a takeover is testing this one right now.
      this.key = randomInt(1, 2 ** 31);
    }
    throw new Error('no presence key could be locked');
  }
}
