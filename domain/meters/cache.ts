import type pg from 'pg';
import { NotifiedCache } from '../../infra/notified-cache.js';
import type { Meter } from '../../generated/prisma/client.js';

/** The channel the `meters` triggers notify (migration `meter_change_feed`): the meter's id, or `*`. */
export const METER_CHANNEL = 'tollgate_meters';

/**
 * The meters this process read for quantities requests lately (a seller's dashboard polls them),
 * each dropped at the commit of any change to it, on every API process.
 */
export class MeterCache extends NotifiedCache<Meter> {
  constructor(connection: pg.ClientConfig, clock: () => number = Date.now) {
    super(connection, METER_CHANNEL, { ttlMs: 60_000, maxEntries: 10_000 }, clock);
  }
}
