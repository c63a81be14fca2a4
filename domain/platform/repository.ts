import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';

export const IDEMPOTENCY_WINDOW_HOURS = 24;

/**
 * Claims `key` for this caller: true when the request may run (a new key, or one older than the
 * replay window), false when a row for it already exists. One statement, so concurrent requests
 * with the same key cannot both win.
 */
export async function claimIdempotencyKey(
  db: Db,
  claim: { callerKey: string; key: string; method: string; path: string; requestHash: string },
): Promise<boolean> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    INSERT INTO idempotency_keys (caller_key, key, method, path, request_hash)
    VALUES (${claim.callerKey}, ${claim.key}, ${claim.method}, ${claim.path}, ${claim.requestHash})
    ON CONFLICT (caller_key, key) DO UPDATE SET
      method = EXCLUDED.method, path = EXCLUDED.path, request_hash = EXCLUDED.request_hash,
      status = NULL, response_body = NULL, created_at = now()
    WHERE idempotency_keys.created_at < now() - make_interval(hours => ${IDEMPOTENCY_WINDOW_HOURS})
    RETURNING id::text`;
  return rows.length === 1;
}

export function findIdempotencyKey(db: Db, callerKey: string, key: string) {
  return db.idempotencyKey.findUnique({ where: { callerKey_key: { callerKey, key } } });
}

export function completeIdempotencyKey(
  db: Db,
  callerKey: string,
  key: string,
  answer: { status: number; body: Prisma.InputJsonValue },
) {
  return db.idempotencyKey.update({
    where: { callerKey_key: { callerKey, key } },
    data: { status: answer.status, responseBody: answer.body },
  });
}

/** A request that did not succeed leaves nothing to replay: the key may be used again. */
export function releaseIdempotencyKey(db: Db, callerKey: string, key: string) {
  return db.idempotencyKey.deleteMany({ where: { callerKey, key, status: null } });
}

export function purgeExpiredIdempotencyKeys(db: Db) {
  return db.$executeRaw`
    DELETE FROM idempotency_keys
    WHERE created_at < now() - make_interval(hours => ${IDEMPOTENCY_WINDOW_HOURS})`;
}

/** Counts one request in the caller's current fixed window, opening a new window when it ended. */
export async function countRequest(
  db: Db,
  key: string,
  windowSeconds: number,
): Promise<{ count: number; windowStart: Date; now: Date }> {
  const [row] = await db.$queryRaw<{ count: number; window_start: Date; now: Date }[]>`
    INSERT INTO api_rate_limits (key, window_start, count) VALUES (${key}, now(), 1)
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN api_rate_limits.window_start <= now() - make_interval(secs => ${windowSeconds})
                   THEN 1 ELSE api_rate_limits.count + 1 END,
      window_start = CASE WHEN api_rate_limits.window_start <= now() - make_interval(secs => ${windowSeconds})
                   THEN now() ELSE api_rate_limits.window_start END
    RETURNING count, window_start, now() AS now`;
  return { count: row!.count, windowStart: row!.window_start, now: row!.now };
}
