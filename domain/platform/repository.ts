import type { Db, SqlClient } from '../../infra/db.js';
import { PRESENCE_LOCK_NAMESPACE } from '../../infra/process-presence.js';
import type { Prisma } from '../../generated/prisma/client.js';

export const IDEMPOTENCY_WINDOW_HOURS = 24;
/** Longer than any request may run (transactions time out at 30 s): an older open claim is orphaned. */
export const IDEMPOTENCY_CLAIM_LEASE_SECONDS = 120;
/**
 * How long a claim is left to its holder even when the holder's presence lock is free: the holder
 * may be reconnecting its presence session after a blip (1 s), not dead.
 */
export const IDEMPOTENCY_ORPHAN_GRACE_SECONDS = 5;

/**
 * Claims `key` for this caller: the claim's time when the request may run (a new key, one older
 * than the replay window, or an orphaned claim), null when a row for it already exists. One
 * statement, so concurrent requests with the same key cannot both win. `holderLock` is the claiming
 * process's presence key, or null when it cannot vouch for itself; then only the lease frees an
 * orphaned claim.
 */
export async function claimIdempotencyKey(
  db: Db,
  claim: {
    callerKey: string;
    key: string;
    method: string;
    path: string;
    requestHash: string;
    holderLock: number | null;
  },
): Promise<Date | null> {
  const rows = await db.$queryRaw<{ created_at: Date }[]>`
    INSERT INTO idempotency_keys (caller_key, key, method, path, request_hash, holder_lock)
    VALUES (${claim.callerKey}, ${claim.key}, ${claim.method}, ${claim.path}, ${claim.requestHash}, ${claim.holderLock}::int)
    ON CONFLICT (caller_key, key) DO UPDATE SET
      method = EXCLUDED.method, path = EXCLUDED.path, request_hash = EXCLUDED.request_hash,
      status = NULL, response_body = NULL, holder_lock = EXCLUDED.holder_lock, created_at = now()
    WHERE idempotency_keys.created_at < now() - make_interval(hours => ${IDEMPOTENCY_WINDOW_HOURS})
       -- An open claim belongs to a process that died mid-request when nobody answered it within
       -- the lease, or at once when its holder's presence lock is free (PostgreSQL dropped it with
       -- the holder's session): the same request may take it over (another body stays refused).
       OR (idempotency_keys.status IS NULL
           AND idempotency_keys.request_hash = EXCLUDED.request_hash
           AND (idempotency_keys.created_at < now() - make_interval(secs => ${IDEMPOTENCY_CLAIM_LEASE_SECONDS})
                OR (idempotency_keys.holder_lock IS NOT NULL
                    AND idempotency_keys.created_at < now() - make_interval(secs => ${IDEMPOTENCY_ORPHAN_GRACE_SECONDS})
                    AND pg_try_advisory_xact_lock(${PRESENCE_LOCK_NAMESPACE}::int, idempotency_keys.holder_lock))))
    RETURNING created_at`;
  return rows[0]?.created_at ?? null;
}

export function findIdempotencyKey(db: Db, callerKey: string, key: string) {
  return db.idempotencyKey.findUnique({ where: { callerKey_key: { callerKey, key } } });
}

/**
 * The claim made at `claimedAt` settles: a claim another request took over since (this process
 * looked dead while its answer was delayed) is not theirs to settle.
 */
export function completeIdempotencyKey(
  db: Db,
  claim: { callerKey: string; key: string; claimedAt: Date },
  answer: { status: number; body: Prisma.InputJsonValue },
) {
  return db.idempotencyKey.updateMany({
    where: { callerKey: claim.callerKey, key: claim.key, createdAt: claim.claimedAt, status: null },
    data: { status: answer.status, responseBody: answer.body },
  });
}

/** A request that did not succeed leaves nothing to replay: the key may be used again. */
export function releaseIdempotencyKey(db: Db, claim: { callerKey: string; key: string; claimedAt: Date }) {
  return db.idempotencyKey.deleteMany({
    where: { callerKey: claim.callerKey, key: claim.key, createdAt: claim.claimedAt, status: null },
  });
}

export function purgeExpiredIdempotencyKeys(db: Db) {
  return db.$executeRaw`
    DELETE FROM idempotency_keys
    WHERE created_at < now() - make_interval(hours => ${IDEMPOTENCY_WINDOW_HOURS})`;
}

/**
 * Counters whose last window ended an hour ago: every client address that once called a buyer
 * endpoint has one, so they are deleted rather than kept. A counter being created (its window still
 * at the epoch, see `reserveRequests`) is left alone.
 */
export function purgeIdleRateLimitCounters(db: Db) {
  return db.$executeRaw`
    DELETE FROM api_rate_limits
    WHERE window_start < now() - interval '1 hour' AND window_start > to_timestamp(0)`;
}

/**
 * Takes up to `requested` requests from `key`'s current fixed window (a new window when the last
 * one ended), never more than `limit` in all: what every API process reserves from before admitting
 * requests itself. The subquery locks the row first, so `granted` is computed from the count as it
 * is when this statement holds the lock, whatever other processes did meanwhile.
 */
export async function reserveRequests(
  db: Db,
  key: string,
  { requested, limit, windowSeconds }: { requested: number; limit: number; windowSeconds: number },
): Promise<{ granted: number; count: number; windowStart: Date; now: Date }> {
  for (let pass = 1; ; pass += 1) {
    const [row] = await db.$queryRaw<{ granted: number; count: number; window_start: Date; now: Date }[]>`
      UPDATE api_rate_limits AS r SET
        window_start = CASE WHEN previous.ended THEN now() ELSE r.window_start END,
        count = previous.used + LEAST(${requested}::int, GREATEST(0, ${limit}::int - previous.used))
      FROM (
        SELECT key,
               window_start <= now() - make_interval(secs => ${windowSeconds}) AS ended,
               CASE WHEN window_start <= now() - make_interval(secs => ${windowSeconds}) THEN 0 ELSE count END AS used
        FROM api_rate_limits WHERE key = ${key} FOR UPDATE
      ) AS previous
      WHERE r.key = previous.key
      RETURNING r.count - previous.used AS granted, r.count, r.window_start, now() AS now`;
    if (row) return { granted: row.granted, count: row.count, windowStart: row.window_start, now: row.now };
    if (pass === 2) throw new Error(`rate limit counter ${key} vanished while being reserved from`);
    // First request of this caller ever: a row whose window ended long ago, then the update above.
    await db.$executeRaw`
      INSERT INTO api_rate_limits (key, window_start, count) VALUES (${key}, to_timestamp(0), 0)
      ON CONFLICT (key) DO NOTHING`;
  }
}

/**
 * Gives back requests reserved but not used, so other processes may take them; a no-op once the
 * window they were reserved in has ended.
 */
export async function releaseRequests(db: Db, key: string, windowStart: Date, unused: number) {
  await db.$executeRaw`
    UPDATE api_rate_limits SET count = GREATEST(0, count - ${unused}::int)
    WHERE key = ${key} AND window_start = ${windowStart}`;
}

/**
 * Time zone names PostgreSQL knows, read once per process: a zone the database cuts days by
 * (meter buckets, metrics) or an organization keeps must be one of them.
 */
let timeZoneNames: Promise<Set<string>> | null = null;

export function knownTimeZones(sql: SqlClient): Promise<Set<string>> {
  timeZoneNames ??= sql
    .query<{ name: string }>('SELECT name FROM pg_timezone_names')
    .then(({ rows }) => new Set(rows.map((row) => row.name)))
    .catch((error: unknown) => {
      timeZoneNames = null;
      throw error;
    });
  return timeZoneNames;
}
