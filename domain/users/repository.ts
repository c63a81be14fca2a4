import type { Db } from '../../infra/db.js';

export function findUserByEmailOrUsername(db: Db, by: { email: string } | { username: string }) {
  return db.user.findFirst({ where: by });
}

export function setUserRole(db: Db, id: string, role: string) {
  return db.user.update({ where: { id }, data: { role } });
}

/**
 * Counts a failed sign-in under `key` (starting over when the last one is older than `memoryMs`)
 * and answers how many there are now, in one statement so that concurrent guesses all count.
 */
export async function recordSignInFailure(db: Db, key: string, memoryMs: number): Promise<number> {
  const [row] = await db.$queryRaw<{ failures: number }[]>`
    INSERT INTO sign_in_throttles (identifier, failures, last_failure_at)
    VALUES (${key}, 1, now())
    ON CONFLICT (identifier) DO UPDATE SET
      failures = CASE
        WHEN sign_in_throttles.last_failure_at < now() - ${memoryMs} * interval '1 millisecond' THEN 1
        ELSE sign_in_throttles.failures + 1
      END,
      last_failure_at = now()
    RETURNING failures`;
  return row?.failures ?? 1;
}

export async function lockSignIn(db: Db, key: string, seconds: number): Promise<void> {
  await db.$executeRaw`
    UPDATE sign_in_throttles
    SET locked_until = GREATEST(coalesce(locked_until, now()), now() + ${seconds} * interval '1 second')
    WHERE identifier = ${key}`;
}

export async function findSignInLock(db: Db, key: string): Promise<Date | null> {
  const row = await db.signInThrottle.findUnique({
    where: { identifier: key },
    select: { lockedUntil: true },
  });
  return row?.lockedUntil ?? null;
}

export async function clearSignInFailures(db: Db, key: string): Promise<void> {
  await db.signInThrottle.deleteMany({ where: { identifier: key } });
}
