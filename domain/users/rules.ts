// How hard it gets to guess a password: a few failed sign-ins of an account are free (typos), then
// each further failure makes the account wait longer before the next attempt, whatever address it
// comes from (the per-address limit alone lets a distributed guesser go on forever).

/** A password's length (Better Auth's defaults, said on the sign-up and reset pages). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** Failed sign-ins an account may have before it has to wait. */
export const FREE_SIGN_IN_FAILURES = 5;
/** Failures older than this no longer count: an account is not punished for last week's typos. */
export const SIGN_IN_FAILURE_MEMORY_MS = 60 * 60 * 1000;
export const FIRST_SIGN_IN_LOCK_SECONDS = 30;
export const MAX_SIGN_IN_LOCK_SECONDS = 15 * 60;

/** How long the account waits after its `failures`-th failed sign-in in a row (doubling, capped). */
export function signInLockSeconds(failures: number): number {
  if (failures < FREE_SIGN_IN_FAILURES) return 0;
  return Math.min(
    MAX_SIGN_IN_LOCK_SECONDS,
    FIRST_SIGN_IN_LOCK_SECONDS * 2 ** (failures - FREE_SIGN_IN_FAILURES),
  );
}

/**
 * The key failures are counted under: the account when it exists (so email and username share
 * one count), else what was typed, so that an unknown address behaves exactly like a known one.
 */
export function signInThrottleKey(userId: string | null, typed: string): string {
  return userId ? `user:${userId}` : `typed:${typed.trim().toLowerCase()}`;
}

/** Roles may be comma-separated ("member,admin"), for organization members and for users alike. */
export function hasRole(roles: string | null | undefined, role: string): boolean {
  return (roles ?? '').split(',').some((part) => part.trim() === role);
}
